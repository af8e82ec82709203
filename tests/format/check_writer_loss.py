#!/usr/bin/env python3
"""Every record the tracer made is either in the file or counted as dropped,
under ring pressure (the writer's compression thread, format v2): not a
timing test, an accounting one.

    check_writer_loss.py BUILD_DIR

Runs the uniform fake-runtime loop (tests/bench/uniform_loop, back to back)
under libhipvis with the smallest ring (16 KiB), so that the rings overflow
again and again, with 1 and 3 threads. Then: the footer's records_written +
sum(dropped) == records_made; the file holds exactly records_written records;
calls == the calls made; some records were dropped (else the test proved
nothing) and some written.
"""
import json
import os
import subprocess
import sys
import tempfile


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    loop = os.path.join(build, "tests", "bench", "uniform_loop")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for threads in (1, 3):
            trace = os.path.join(tmp, f"loss{threads}.zst")
            env = dict(os.environ, HIPVIS_OUTPUT=trace, HIPVIS_RING_KB="16", HIPVIS_QUIET="1",
                       LD_PRELOAD=os.path.join(build, "libhipvis.so"))
            calls = 200000
            subprocess.run([loop, "--calls", str(calls), "--threads", str(threads)], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            out = subprocess.run([os.path.join(build, "hipvis-dump"), "--json", "--stats", trace],
                                 stdout=subprocess.PIPE, check=True).stdout.decode()
            objs = [json.loads(l) for l in out.splitlines()]
            footer = next(o for o in objs if o["type"] == "footer")
            stats = next(o for o in objs if o["type"] == "stats")
            dropped = sum(footer["dropped"].values())
            made, written = footer["records_made"], footer["records_written"]
            ok = (written + dropped == made and stats["records"] == written and footer["calls"] == calls * threads
                  and dropped > 0 and written > 0)
            print(f"check-writer-loss: {threads} thread(s), 16 KiB rings: made {made}, written {written}, "
                  f"dropped {dropped} {footer['dropped']}, in file {stats['records']}: "
                  f"{'ok' if ok else 'FAIL'}")
            failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
