#!/usr/bin/env python3
"""Table of a tests/gpu/run_all.sh run: usage summarize.py results.jsonl

Hazard cases: exit code, time, and the facts the analyzer's findings are
matched against (buffer addresses). Overhead: step time of the decode loop
per arm, the median of the pair ratios (each hipvis run over the run next to
it without), min-vs-min, and the spread; the same for torch.profiler; and
the in-process A/B of hipvis_record_this_thread.
"""
import json
import statistics
import sys


def load(path):
    return [json.loads(l) for l in open(path) if l.strip()]


def us(r):
    return r["result"]["us_per_step"] if r.get("result") and "us_per_step" in r["result"] else None


def pairs(rows, base, arm):
    """Pair i of arm with pair i of base (runs alternate, order flipping every pair)."""
    by = {}
    for r in rows:
        parts = r["name"].split("-")
        if len(parts) == 3 and parts[0] in ("f", "p") and us(r) is not None:
            by[(parts[1], parts[2])] = us(r)
    idx = sorted({k[1] for k in by if k[0] == arm} & {k[1] for k in by if k[0] == base}, key=int)
    return [(by[(base, i)], by[(arm, i)]) for i in idx]


def overhead_row(label, pr):
    if not pr:
        return "%-30s no complete pairs" % label
    base = [p[0] for p in pr]
    arm = [p[1] for p in pr]
    ratios = [a / b for b, a in pr]
    return ("%-30s n=%-3d none %6.2f us  with %6.2f us (medians)  median pair ratio %.4f  "
            "min-vs-min %.4f  ratio range %.3f..%.3f" %
            (label, len(pr), statistics.median(base), statistics.median(arm), statistics.median(ratios),
             min(arm) / min(base), min(ratios), max(ratios)))


def main():
    rows = load(sys.argv[1])
    print("case                 exit  seconds  facts")
    for r in rows:
        if r["name"].startswith(("f-none", "f-hipvis", "p-")):
            continue
        res = r.get("result") or {}
        keys = ("cu_seqlens_q", "side_stream", "captured_buffer", "replacement", "replayed", "rank",
                "ranks_agree", "triton_kernel", "median_block_ratio", "on_us", "off_us", "error")
        facts = " ".join("%s=%s" % (k, res[k]) for k in keys if k in res)
        print("%-20s %4d  %7.1f  %s" % (r["name"], r["rc"], r["seconds"], facts or "(no result line)"))
    pr = pairs(rows, "none", "hipvis")
    pp = pairs(rows, "none", "profiler")
    if pr or pp:
        print()
        print("overhead: decode-loop step time, whole-process runs alternating (median of 5 blocks x 2000 steps each)")
        print(overhead_row("hipvis (LD_PRELOAD) / none", pr))
        print(overhead_row("torch.profiler / none", pp))
    ab = [r for r in rows if r["name"] == "f-ab" and r.get("result")]
    for r in ab:
        res = r["result"]
        if "median_block_ratio" in res:
            print("%-30s n=%-3d off %6.2f us  on %6.2f us (medians)  median block ratio %.4f  min-vs-min %.4f" %
                  ("in-process A/B (on/off)", res["blocks"], res["off_us"], res["on_us"], res["median_block_ratio"],
                   res["min_on_over_min_off"]))
    gpus = {r["result"].get("gpu") for r in rows if r.get("result") and r["result"].get("gpu")}
    print()
    print("gpu: %s" % ", ".join(sorted(gpus)))
    failed = [r["name"] for r in rows if r["rc"] != 0]
    print("failed: %s" % (", ".join(failed) if failed else "none"))


if __name__ == "__main__":
    main()
