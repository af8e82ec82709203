#!/usr/bin/env bash
# What HIPVIS_HOSTCHECK=1 costs on one NVIDIA GPU, one command (< 5 min):
#   device run, carry [.devlibs, build/libhipvis.so]:
#   OUT=$OUT bash tests/gpu/hostcheck_cost.sh [ROUNDS]
# Each round runs three processes in turn: libhipvis with HIPVIS_RECORD=full
# (off), the same again (off2: the noise floor of a process-level A/B), and
# with HIPVIS_HOSTCHECK=1 (on, which selects HIPVIS_RECORD=full itself), on
#   decode    tests/gpu/decode.py time: the PyTorch decode loop (pinned H2D
#             copy, CUDA graph replay, eager prefill), median us per step
#   bench     tests/gpu/hostcheck.cu bench: H2D + kernel + D2H + sync a step
# and prints, per loop, the medians and the ratios on/off and off2/off (median
# over rounds, min .. max). Results: $OUT/hostcheck-cost.txt.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
rounds=${1:-5}
. "$root/tests/gpu/devlibs.sh"
[ -n "$libpath" ] && export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tmp=$(mktemp -d /tmp/hvhcc.XXXXXX)
nvcc -O2 -cudart shared -o "$tmp/hc" tests/gpu/hostcheck.cu || exit 1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
python3 - "$root/build/libhipvis.so" "$tmp" "$rounds" <<'PY' | tee "$OUT/hostcheck-cost.txt"
import json, os, statistics, subprocess, sys, time
lib, tmp, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
loops = {
    "decode": (["python3", "tests/gpu/decode.py", "time", "--steps", "1000", "--blocks", "3"], "us_per_step"),
    "bench": ([os.path.join(tmp, "hc"), "bench", "5000"], None),
}
def once(argv, key, on):
    e = {k: v for k, v in os.environ.items() if not k.startswith("HIPVIS_")}
    e.update(LD_PRELOAD=lib, HIPVIS_QUIET="1", HIPVIS_OUTPUT=os.path.join(tmp, "t.%p.zst"))
    e["HIPVIS_HOSTCHECK" if on else "HIPVIS_RECORD"] = "1" if on else "full"
    t0 = time.perf_counter()
    p = subprocess.run(argv, env=e, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    for f in os.listdir(tmp):
        if f.endswith(".zst"):
            os.unlink(os.path.join(tmp, f))
    if p.returncode != 0:
        print(f"FAIL {' '.join(argv)} exit {p.returncode}: {p.stderr[-300:]}")
        return None
    if key is None:
        return wall * 1e6 / 5000   # us per step, process start included
    for line in p.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)["result"][key]
    return None
for name, (argv, key) in loops.items():
    once(argv, key, False)   # warm caches, the JIT, the driver
    t = {"off": [], "off2": [], "on": []}
    for _ in range(rounds):
        for arm in ("off", "off2", "on"):
            t[arm].append(once(argv, key, arm == "on"))
    if None in t["off"] + t["off2"] + t["on"]:
        print(f"{name}: a run failed"); continue
    r_on = [b / a for a, b in zip(t["off"], t["on"])]
    r_nf = [b / a for a, b in zip(t["off"], t["off2"])]
    med = {k: statistics.median(v) for k, v in t.items()}
    print(f"COST {name:7s} us/step off {med['off']:.2f} off2 {med['off2']:.2f} on {med['on']:.2f}  "
          f"on/off {statistics.median(r_on):.3f} ({min(r_on):.3f} .. {max(r_on):.3f})  "
          f"noise off2/off {statistics.median(r_nf):.3f} ({min(r_nf):.3f} .. {max(r_nf):.3f})  rounds {rounds}")
    print(f"     {name:7s} per round on/off " + " ".join(f"{x:.3f}" for x in r_on))
PY
# What the check did in one decode run: operations protected, host accesses caught.
HIPVIS_QUIET=1 HIPVIS_HOSTCHECK=1 HIPVIS_OUTPUT="$OUT/decode-hostcheck.zst" LD_PRELOAD="$root/build/libhipvis.so" \
    python3 tests/gpu/decode.py time --steps 1000 --blocks 3 > /dev/null 2>&1
build/hipvis-analyze --json "$OUT/decode-hostcheck.zst" 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
hc = (d.get("coverage") or {}).get("hostcheck")
fs = [f for f in d.get("findings", []) if f["rule"] == "host-access-in-flight" and f["severity"] != "info"]
print("decode under the check: coverage.hostcheck", json.dumps(hc), "; host-access-in-flight groups", len(fs))' \
    | tee -a "$OUT/hostcheck-cost.txt"
rm -rf "$tmp"
