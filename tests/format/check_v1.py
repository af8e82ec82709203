#!/usr/bin/env python3
"""Version-1 traces written by the previous release (tests/format/v1/) still
dump and analyze as they did then.

    check_v1.py BUILD_DIR

The traces were made by hipvis 2891716 (before format v2): the demo decode
loop on the runtime double (300 steps), the same with two threads and event
waits, 1500 steps (rings overflowed: drop records), the uniform fake-runtime
loop (5000 hipMemcpyAsync), and the drops trace cut at byte 40000.

hipvis-dump --json must be byte-identical to what that release printed
(*.dump.json.zst), with the same exit status and stderr. hipvis-analyze
--json must report the same input health and the same record counts
(*.analyze.json); findings are compared by rule, count and seq range, so the
check is about the reader, while the rules keep their freedom to word things.
"""
import json
import os
import subprocess
import sys

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "v1")
TRACES = ["decode_loop", "decode_loop_2threads", "decode_loop_drops", "uniform_loop", "truncated"]
SUMMARY_KEYS = ["pid", "records", "calls", "copies", "launches", "replays", "first_ts", "last_ts", "last_seq",
                "dropped", "chunk_gaps", "late_records", "footer", "truncated"]


def run(cmd):
    p = subprocess.run(cmd, cwd=HERE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout, p.stderr


def projection(doc):
    traces = [{k: t.get(k) for k in SUMMARY_KEYS} for t in doc["traces"]]
    findings = sorted((f["rule"], f.get("count"), f.get("first_seq"), f.get("last_seq")) for f in doc["findings"])
    return traces, findings


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "build")
    dump, analyze = os.path.join(build, "hipvis-dump"), os.path.join(build, "hipvis-analyze")
    failed = 0
    for name in TRACES:
        trace = name + ".zst"
        rc, out, err = run([dump, "--json", trace])
        # The {"type":"errors"} summary object was added to the CLI after those
        # traces were made (it repeats stderr); everything else must match.
        out = b"".join(l for l in out.splitlines(True) if not l.startswith(b'{"type":"errors"'))
        want = subprocess.run(["zstd", "-dcq", name + ".dump.json.zst"], cwd=HERE, stdout=subprocess.PIPE,
                              check=True).stdout
        want_rc = 2 if name == "truncated" else 0
        errfile = os.path.join(HERE, name + ".dump.stderr")
        want_err = open(errfile, "rb").read() if os.path.exists(errfile) else b""
        if out != want or rc != want_rc or err != want_err:
            failed += 1
            lines_got, lines_want = out.splitlines(), want.splitlines()
            first = next((i for i, (a, b) in enumerate(zip(lines_got, lines_want)) if a != b),
                         min(len(lines_got), len(lines_want)))
            print(f"check-v1: FAIL {trace}: hipvis-dump --json differs from the previous release "
                  f"(rc {rc} want {want_rc}; {len(lines_got)} lines want {len(lines_want)}; first difference at "
                  f"line {first + 1}; stderr {err!r} want {want_err!r})")
        rc, out, err = run([analyze, "--json", "--fail-on", "none", trace])
        want = json.load(open(os.path.join(HERE, name + ".analyze.json")))
        try:
            got = json.loads(out)
        except ValueError:
            got = None
        if got is None or projection(got) != projection(want):
            failed += 1
            print(f"check-v1: FAIL {trace}: hipvis-analyze --json differs from the previous release:\n"
                  f"  got  {projection(got) if got else out[:200]!r}\n  want {projection(want)!r}")
    print(f"check-v1: {len(TRACES) - 0} version-1 traces of the previous release: "
          f"{'all dump and analyze as before' if not failed else str(failed) + ' differences'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
