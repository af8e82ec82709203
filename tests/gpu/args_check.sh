#!/usr/bin/env bash
# HIPVIS_RECORD=args (the default) on the GPU decode loop (tests/gpu/cost.py
# long): the same loop traced with HIPVIS_RECORD=full and at the defaults,
# STEPS steps each; prints each trace's footer (records made, written,
# lost), its argument records as written (hipvis-dump --raw) and, read back
# through the derive stage, its records per API with their streams and
# epochs, and both traces' findings. The traces stay under $OUT for a reader
# elsewhere. Carry build/libhipvis.so, build/hipvis-dump, build/hipvis-analyze,
# .devlibs.
#   STEPS=5000 OUT=$OUT bash tests/gpu/args_check.sh
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
. "$root/tests/gpu/devlibs.sh"   # libpath
steps=${STEPS:-5000}
for mode in full args; do
    rm -f "$OUT/$mode.hvt"
    if [ "$mode" = args ]; then set_mode=HIPVIS_RECORD=; else set_mode=HIPVIS_RECORD=full; fi
    env ${libpath:+LD_LIBRARY_PATH=$libpath} LD_PRELOAD="$root/build/libhipvis.so" HIPVIS_OUTPUT="$OUT/$mode.hvt" \
        HIPVIS_QUIET=1 "$set_mode" python3 "$root/tests/gpu/cost.py" long --steps "$steps" > "$OUT/$mode.log" 2>&1
    echo "== $mode: exit $? $(tail -c 300 "$OUT/$mode.log")"
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-dump" --json "$OUT/$mode.hvt" > "$OUT/$mode.jsonl" 2> "$OUT/$mode.dump.err"
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-dump" --raw --json "$OUT/$mode.hvt" > "$OUT/$mode.raw.jsonl" 2>/dev/null
    env ${libpath:+LD_LIBRARY_PATH=$libpath} "$root/build/hipvis-analyze" --json --fail-on none "$OUT/$mode.hvt" \
        > "$OUT/$mode.findings.json" 2> "$OUT/$mode.analyze.err"
    python3 - "$OUT/$mode" <<'EOF'
import collections, json, sys
base = sys.argv[1]
recs = [json.loads(l) for l in open(base + ".jsonl")]
raw = [json.loads(l) for l in open(base + ".raw.jsonl")]
foot = [r for r in recs if r.get("type") == "footer"]
calls = [r for r in recs if r.get("type") == "call"]
per = collections.Counter(r["api"] for r in calls)
print("footer", json.dumps(foot[0] if foot else None))
print("argument records written", sum(1 for r in raw if r.get("type") == "call" and r.get("argument_record")), "of",
      sum(1 for r in raw if r.get("type") == "call"), "calls")
print("calls per api", dict(per.most_common(12)))
step = [r for r in calls if r["api"] in ("cudaMemcpyAsync", "cudaGraphLaunch", "cudaStreamSynchronize")]
print("step calls without a stream", sum(1 for r in step if r.get("stream") in (None, "0x0")),
      "streams", sorted(collections.Counter(r.get("stream") for r in step).items())[:4])
syncs = [r for r in calls if r["api"] == "cudaStreamSynchronize" and r["result"] == 0]
print("stream syncs", len(syncs), "new_epoch last", syncs[-1].get("new_epoch") if syncs else None,
      "completed_seq == seq", sum(1 for r in syncs if r.get("completed_seq") == r["seq"]))
copies = [r for r in calls if r["api"] == "cudaMemcpyAsync"]
print("copies by (dir, dst_mem, src_mem)", dict(collections.Counter((r.get("dir"), r.get("dst_mem"), r.get("src_mem")) for r in copies)),
      "hashed by the rewrite check", sum(1 for r in copies if r.get("payload_hash", "0x0") != "0x0"))
print("evidence records", dict(collections.Counter(r["type"] for r in recs if r.get("type") not in ("call", "string", "kargs", "header", "footer"))))
try:
    f = json.load(open(base + ".findings.json"))["findings"]
    print("findings", len(f), dict(collections.Counter(x["rule"] for x in f)))
except Exception as e:
    print("findings: unreadable", e)
EOF
done
