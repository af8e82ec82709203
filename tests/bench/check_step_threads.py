#!/usr/bin/env python3
"""bench_step --helper-us (make bench-step-threads) does what its figures
claim: not a timing test, a behaviour one.

    check_step_threads.py BUILD_DIR

Under the preload a second thread really calls the runtime double and is
traced (its own tid in the trace, with the helper's calls: two copies, two
kernel launches and a stream synchronize an iteration), its recording
follows the main thread's arm (some of its iterations go unrecorded: those
that fell in an off block), its records count in the 2-thread turns'
records per step, and nothing is dropped. Without the preload both kinds of
turn still run and report (the noise floor).
"""
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

PHASE = re.compile(r"bench-step: (1 thread|2 threads \(helper every \d+ us, (\d+) iterations\)) *: .*"
                   r"\(([\d.]+) records/step, (\d+) dropped\)")
HELPER_CALLS = {"hipMemcpyAsync": 2, "hipLaunchKernel": 2, "hipStreamSynchronize": 1}


def bench(build, env_extra):
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(build, "tests", "double"), HIPVIS_QUIET="1", **env_extra)
    if "LD_PRELOAD" not in env_extra:
        env.pop("LD_PRELOAD", None)
    out = subprocess.run([os.path.join(build, "tests", "bench", "bench_step"), "--rounds", "8", "--helper-us", "50"],
                         env=env, stdout=subprocess.PIPE, check=True).stdout.decode()
    phases = {}
    for m in PHASE.finditer(out):
        phases["2" if m.group(2) else "1"] = (float(m.group(3)), int(m.group(4)), int(m.group(2) or 0))
    return out, phases


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    bad = []
    out, phases = bench(build, {})
    if set(phases) != {"1", "2"}:
        bad.append(f"without the preload: both kinds of turn should report, got {sorted(phases)}:\n{out}")
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "t.zst")
        out, phases = bench(build, {"LD_PRELOAD": os.path.join(build, "libhipvis.so"), "HIPVIS_OUTPUT": trace})
        if set(phases) != {"1", "2"}:
            bad.append(f"under the preload: both kinds of turn should report, got {sorted(phases)}:\n{out}")
        else:
            (r1, d1, _), (r2, d2, iters) = phases["1"], phases["2"]
            if d1 or d2:
                bad.append(f"dropped records: {d1} (1 thread), {d2} (2 threads)")
            if not r2 > r1 + 0.1:
                bad.append(f"the helper's records should count in the 2-thread turns: {r2} records/step against {r1}")
            dump = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", trace], stdout=subprocess.PIPE,
                                  check=True).stdout.decode()
            per_tid = collections.defaultdict(collections.Counter)
            for line in dump.splitlines():
                r = json.loads(line)
                if r.get("type") == "call":
                    per_tid[r["tid"]][r["api"]] += 1
            main_tid = max(per_tid, key=lambda t: per_tid[t]["hipGraphLaunch"]) if per_tid else None
            helpers = [t for t in per_tid if t != main_tid]
            if len(helpers) != 1:
                bad.append(f"one helper thread should be traced beside the main one, found tids {sorted(per_tid)}")
            else:
                calls = per_tid[helpers[0]]
                its = calls["hipStreamSynchronize"]
                for api, n in HELPER_CALLS.items():
                    if calls[api] != n * its:
                        bad.append(f"helper: {calls[api]} {api} for {its} recorded iterations (want {n} each)")
                if calls["hipGraphLaunch"]:
                    bad.append("helper: graph launches recorded on the helper's thread")
                # iters counts every iteration (one before the first turn, the rest in 2-thread turns).
                if not 0 < its < iters:
                    bad.append(f"helper: {its} of {iters} iterations recorded: recording should follow the main "
                               "thread's arm (none recorded in its off blocks)")
    for b in bad:
        print("check-step-threads: FAIL:", b)
    if not bad:
        print("check-step-threads: ok (a second traced calling thread, its recording following the main thread's "
              "arm, counted, nothing dropped)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
