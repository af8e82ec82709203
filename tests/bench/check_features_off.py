#!/usr/bin/env python3
"""hipvis_measure_features_off does what cost.py ab --feature-arms relies on: not a timing test.

    check_features_off.py BUILD_DIR

Runs tests/apps/ctypes_decode.py on the runtime double under the library, the
features switched off for a window of steps (--features-off A:B:MASK), and
reads the trace: with bit 2 the rewrite check hashes no copy of the window
(HIPVIS_REWRITE_EVERY=1, so every other step's pinned copy is hashed), with
bit 1 no Python stack is taken in the window (the first call on each target
after it takes one instead), and each bit leaves the other feature as it is.
Without a window the loop's first copy takes its stack at step 0.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
failed = []


def trace(build, tmp, name, window):
    out = os.path.join(tmp, name + ".zst")
    env = dict(os.environ, LD_PRELOAD=os.path.join(build, "libhipvis.so"), HIPVIS_OUTPUT=out, HIPVIS_QUIET="1",
               HIPVIS_REWRITE_EVERY="1")
    cmd = [sys.executable, os.path.join(ROOT, "tests", "apps", "ctypes_decode.py"),
           os.path.join(build, "tests", "double", "libamdhip64.so.5"), "--steps", "12", "--prefill-every", "100"]
    subprocess.run(cmd + (["--features-off", window] if window else []), env=env, check=True, stdout=subprocess.DEVNULL)
    dump = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", out], stdout=subprocess.PIPE, check=True)
    recs = [json.loads(line) for line in dump.stdout.decode().splitlines()]
    copies = [r for r in recs if r.get("type") == "call" and r.get("api") == "hipMemcpyAsync"]
    # The step's copy: the destination most copies write (one a step).
    dsts = [c["dst"] for c in copies]
    cu = max(set(dsts), key=dsts.count)
    steps = [c for c in copies if c["dst"] == cu]
    if len(steps) != 12:
        failed.append(f"{name}: {len(steps)} step copies, not 12")
    # The first Python stack taken for a write of cu, as the step of the copy that took it.
    stack_seqs = {r["seq"] for r in recs if r.get("type") == "pystack" and r.get("target") == cu and r.get("why") == 1}
    first = next((i for i, c in enumerate(steps) if c["seq"] in stack_seqs), None)
    return [c["payload_hash"] != "0x0" for c in steps], first


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    with tempfile.TemporaryDirectory() as tmp:
        hashed, first = trace(build, tmp, "plain", None)
        if not all(hashed) or first != 0:
            failed.append(f"no window: hashed {hashed}, first stack at step {first} (want every step, 0)")
        hashed, first = trace(build, tmp, "rewrite-off", "4:8:2")
        want = [not 4 <= i < 8 for i in range(12)]
        if hashed != want or first != 0:
            failed.append(f"rewrite off in steps 4-7: hashed {hashed}, first stack at step {first} (want {want}, 0)")
        hashed, first = trace(build, tmp, "frames-off", "0:5:1")
        if not all(hashed) or first != 5:
            failed.append(f"frames off in steps 0-4: hashed {hashed}, first stack at step {first} (want every step, 5)")
    for f in failed:
        print("check-features-off: FAIL", f)
    if failed:
        return 1
    print("check-features-off: hipvis_measure_features_off(2) stops the rewrite check for its window and (1) the "
          "Python stacks, each leaving the other as configured; both as configured again after the window")
    return 0


if __name__ == "__main__":
    sys.exit(main())
