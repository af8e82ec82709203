#!/usr/bin/env python3
"""The record-floor builds (make bench-floor) do what their figures claim:
not a timing test, a behaviour one.

    check_floor.py BUILD_DIR

HV_RECORD_FLOOR=1 (BUILD-floor/libhipvis.so) must record one call record per
traced call, the same calls as the shipped library, each with only its
call-level fields (no stream, the arguments zeroed); HV_RECORD_FLOOR=2
(BUILD-floor-none) must record no call (the module registration hooks, which
are not generic wrappers, record in full in every build). A floor build with
the copy and allocation wrappers in full (FLOOR_FULL_SRCS=
src/intercept/hip/memcpy.c src/intercept/hip/alloc.c, BUILD-floor-copies)
must record those copies as the shipped library does, but for their epochs
(the synchronizes that advance them are at the floor), and every other call
at the floor. All of them, like the shipped library, must leave the traced
program's output as it is without hipvis. The program is the decode loop on
the runtime double (copies, eager launches, graph replays, synchronizes).
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile


def run(build, lib, trace):
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "tests", "double"), HIPVIS_QUIET="1")
    env.pop("LD_PRELOAD", None)
    if lib:
        env.update(LD_PRELOAD=lib, HIPVIS_OUTPUT=trace)
    app = os.path.join(build, "tests", "apps", "decode_loop")
    out = subprocess.run([app, "--steps", "40", "--prefill-every", "8", "--print-buffers"], env=env,
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    return re.sub(r"0x[0-9a-f]+", "ADDR", out)   # the buffers' addresses move from run to run (ASLR)


def calls(build, trace):
    out = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", trace], stdout=subprocess.PIPE,
                         check=True).stdout.decode()
    recs = [json.loads(line) for line in out.splitlines()]
    return [r for r in recs if r.get("type") == "call"]


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    libs = {"shipped": os.path.join(build, "libhipvis.so"),
            "floor": os.path.abspath(build + "-floor/libhipvis.so"),
            "none": os.path.abspath(build + "-floor-none/libhipvis.so"),
            "copies": os.path.abspath(build + "-floor-copies/libhipvis.so")}
    failed = []
    with tempfile.TemporaryDirectory() as tmp:
        plain = run(build, None, None)
        got = {}
        for arm, lib in libs.items():
            trace = os.path.join(tmp, arm + ".zst")
            if run(build, lib, trace) != plain:
                failed.append(f"{arm}: the program's output differs from its output without hipvis")
            got[arm] = calls(build, trace)
    shipped = collections.Counter(c["api"] for c in got["shipped"])
    floor = collections.Counter(c["api"] for c in got["floor"])
    if not shipped:
        failed.append("shipped: no call records (the test proves nothing)")
    if floor != shipped:
        failed.append(f"floor: call records by api differ from the shipped library's: {dict(floor - shipped)} more, "
                      f"{dict(shipped - floor)} fewer")
    with_stream = [c for c in got["floor"] if c.get("stream") != "0x0" or c.get("stream_form") != "none"]
    if with_stream:
        failed.append(f"floor: {len(with_stream)} call records name a stream, e.g. {with_stream[0]}")
    # The whole record is written, its arguments zeroed: a copy names no range.
    copies = [c for c in got["floor"] if c.get("op") == "copy"]
    if not copies or any(c["dst"] != "0x0" or c["src"] != "0x0" or c["bytes"] != 0 for c in copies):
        failed.append(f"floor: expected copies with zeroed arguments, got {copies[:1]}")
    # The module registration hooks (__hipRegisterFatBinary, __hipUnregisterFatBinary, ...) are not
    # generic wrappers: they record in full in every build.
    hooks = ("__hipRegister", "__hipUnregister", "__cudaRegister", "__cudaUnregister")
    wrapped = [c for c in got["none"] if not c["api"].startswith(hooks)]
    if wrapped:
        failed.append(f"none: {len(wrapped)} call records, e.g. {wrapped[0]}")
    # Copies and allocations in full: the copies as the shipped library records them, but for the
    # clock, the seq, the addresses (ASLR) and the epoch (no synchronize advances it in this build);
    # everything else at the floor.
    def fields(c):
        return {k: v for k, v in c.items() if k not in ("ts_ns", "seq", "tid", "dst", "src", "epoch")}
    full = [fields(c) for c in got["shipped"] if c["api"] == "hipMemcpyAsync"]
    part = [fields(c) for c in got["copies"] if c["api"] == "hipMemcpyAsync"]
    if not full or part != full:
        failed.append(f"copies: hipMemcpyAsync records differ from the shipped library's: "
                      f"{part[:1]} / {full[:1]}")
    floor_apis = ("hipGraphLaunch", "hipStreamSynchronize", "hipLaunchKernel")
    others = [c for c in got["copies"] if c["api"] in floor_apis]
    if not others or any(c.get("stream") != "0x0" for c in others):
        failed.append(f"copies: launches and synchronizes should be at the floor, got {others[:1]}")
    for f in failed:
        print("check-floor: FAIL", f)
    if failed:
        return 1
    print(f"check-floor: floor build: the shipped library's {sum(shipped.values())} call records "
          f"({len(shipped)} APIs), none with a stream, copies with zeroed arguments; "
          f"no-record build: no call but module registrations; "
          f"floor with copies in full: hipMemcpyAsync as shipped ({len(full)} calls), the rest at the floor; "
          f"the program's output unchanged in all four")
    return 0


if __name__ == "__main__":
    sys.exit(main())
