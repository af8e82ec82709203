#!/usr/bin/env python3
"""check-cuda: learnt pointer words (tests/cuda/karg_learn.c, src/tracer/core/kargs.c).

check_learn.py PROGRAM_OUTPUT TRACE_JSON
"""
import json
import sys


def fail(msg):
    print("check_learn: FAIL: " + msg)
    sys.exit(1)


def main():
    words = open(sys.argv[1]).read().split()
    facts = dict(zip(words[0::2], words[1::2]))
    p1, p2 = int(facts["phase1"]), int(facts["phase2"])
    a, b, c, d = (int(facts[k], 16) for k in ("a", "b", "c", "d"))
    recs = [json.loads(line) for line in open(sys.argv[2])]
    launches = [r for r in recs if r.get("api") == "cuLaunchKernel"]
    kargs = {r["seq"]: r for r in recs if r.get("type") == "kargs"}
    if len(launches) != p1 + p2 + 1:
        fail("%d launches recorded, expected %d" % (len(launches), p1 + p2 + 1))
    captured = launches.pop()
    got = {(int(x["value"], 16), x["offset"]) for x in kargs.get(captured["seq"], {}).get("args", [])}
    if not captured.get("captured") or (d, 256) not in got:
        fail("the captured launch (a graph node) did not report the new pointer at offset 256: %s" % sorted(got))
    found = []
    for i, r in enumerate(launches):
        got = {(int(x["value"], 16), x["offset"]) for x in kargs.get(r["seq"], {}).get("args", [])}
        if not {(a, 984), (b, 992)} <= got:
            fail("launch %d: the learnt pointers at 984 and 992 are missing: %s" % (i, sorted(got)))
        if i < p1 and (c, 512) in got:
            fail("launch %d: a pointer at 512 before the program wrote one" % i)
        found.append((c, 512) in got)
    phase2 = found[p1:]
    if True not in phase2:
        fail("the new pointer at offset 512 was never found in %d launches" % p2)
    first = phase2.index(True)
    if first >= 64:
        fail("the new pointer was first found %d launches after it appeared (a full rescan is due every 64)" % first)
    if not all(phase2[first:]):
        fail("launches after the rescan that learnt offset 512 missed it")
    print("check_learn: %d launches: pointers at learnt offsets in every one; a new offset found %d launches "
          "after it appeared and in every launch since; a captured launch scanned in full" % (p1 + p2, first))


if __name__ == "__main__":
    main()
