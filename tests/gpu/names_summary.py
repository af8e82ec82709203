#!/usr/bin/env python3
"""names_summary.py OUT - the compact summary of tests/gpu/names.sh.

Reads OUT/results.jsonl (names.py results) and OUT/report.json (the
analyzer's report of the traced loop, when the analyzer ran there) and
prints: whether the report names cu_seqlens_q and shows the Python lines of
the copy (tests/gpu/decode.py, Decode.step) and of the replay (torch's
CUDAGraph.replay, called from Decode.step); the in-process A/B figures with
Python frames on and off, and the difference per step.
"""
import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "gpu-out-names"
res = {}
for line in open(os.path.join(out, "results.jsonl")):
    r = json.loads(line)
    result = None
    for l in r["out"].splitlines():
        if l.startswith('{"result"'):
            result = json.loads(l)["result"]
    res[r["name"]] = (r["rc"], result)

ok = True


def say(good, text):
    global ok
    ok &= bool(good)
    print(("ok   " if good else "FAIL ") + text)


rc, loop = res.get("loop", (None, None))
say(rc == 0 and loop, f"traced loop ran (exit {rc})")
rep = os.path.join(out, "report.json")
if loop and os.path.exists(rep) and os.path.getsize(rep):
    doc = json.load(open(rep))
    same = [f for f in doc["findings"] if f["rule"] == "same-epoch-write"]
    say(same, f"same-epoch-write groups: {len(same)}")
    say(same and all((f.get("buffer") or {}).get("name") == "cu_seqlens_q" for f in same),
        "every same-epoch-write names the buffer cu_seqlens_q")

    def has(frames, path, lines=None):
        return any(fr["file"] == path and (lines is None or fr["line"] in lines) for fr in frames or [])

    say(same and all(has(f["earlier"].get("python"), loop["decode_py"], loop["copy_lines"]) for f in same),
        f"writes at decode.py:{loop['copy_lines']} (Decode.step)")
    say(same and all(has(f["later"].get("python"), loop["torch_graphs_py"]) and
                     has(f["later"].get("python"), loop["decode_py"], loop["replay_call_lines"]) for f in same),
        f"replays in torch/cuda/graphs.py called from decode.py:{loop['replay_call_lines']}")
    say(same and all(f["later"].get("region") == "decode" for f in same), "replays in region decode")
    txt = open(os.path.join(out, "report.txt")).read()
    for l in txt.splitlines():
        if l.strip().startswith(("python", "buffer")):
            print("     " + l.strip())
            if l.strip().startswith("python   written"):
                break
else:
    print("note: no report.json (analyzer did not run there): run build/hipvis-analyze on "
          f"{out}/names-loop.zst here")
a1, a0 = res.get("ab-frames", (None, None))[1], res.get("ab-noframes", (None, None))[1]
if a1 and a0 and "on_us" in a1 and "on_us" in a0:
    print(f"A/B, {a1['blocks']} pairs of {a1['steps']}-step blocks each, recording on vs off in one process:")
    for tag, a in (("HIPVIS_PYFRAMES=1", a1), ("HIPVIS_PYFRAMES=0", a0)):
        print(f"  {tag}: on {a['on_us']:.2f} us/step, off {a['off_us']:.2f} us/step, median block ratio "
              f"{a['median_block_ratio']:.4f}, median on-off {a['median_on_minus_off_ns_per_step']:.0f} ns/step")
    print(f"  Python frames' share: {a1['median_on_minus_off_ns_per_step'] - a0['median_on_minus_off_ns_per_step']:.0f} "
          "ns/step (difference of the two runs' on-off; noise of the same order)")
else:
    say(False, "A/B runs gave results")
print("names.sh: " + ("all checks passed" if ok else "some checks FAILED"))
sys.exit(0 if ok else 1)
