#!/usr/bin/env bash
# GPU validation of the host-access check (HIPVIS_HOSTCHECK, docs/hostcheck.md)
# on one NVIDIA GPU, one command, < 8 minutes:
#   device run, carry [.devlibs] (and build/ if the machine cannot build):
#   OUT=$OUT bash tests/gpu/hostcheck.sh
# Builds libhipvis.so, hipvis-analyze and hipvis-dump here when a compiler and
# the build's packages are present (else uses the carried build/), and
# tests/gpu/hostcheck.cu with nvcc. Runs each case plain and under
# HIPVIS_HOSTCHECK=1, analyzes, and prints a PASS/FAIL table:
#   racy pinned cases    exit 0, same output, one host-access-in-flight finding at the RACE line
#   synchronized twins   exit 0, same output, no finding
#   managed-read(-sync)  =1: not protected, counted (skipped_managed), no finding, same output
#   callback-*           a host function or stream callback after a D2H copy on
#                        its stream reads the destination: no finding, same
#                        output; on another stream: the finding at its RACE line
#   managed (=managed)   exploratory: what UVM does with a protected managed range (INFO rows)
# then the cost: hostcheck.cu's bench loop with the check off and on, in
# alternating pairs (on/off ratio), on this GPU.
# Results: $OUT/hostcheck/{table.txt,traces.tar.gz,logs/}.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
OUT=${OUT:-$root/gpu-out}
out=$OUT/hostcheck
mkdir -p "$out/logs"
tmp=$(mktemp -d /tmp/hvhc.XXXXXX)
. "$root/tests/gpu/devlibs.sh"
[ -n "$libpath" ] && export LD_LIBRARY_PATH=$libpath${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
nvcc --version | tail -1
echo "cpu: $(grep -m1 "model name" /proc/cpuinfo | cut -d: -f2); pku: $(grep -c -w pku /proc/cpuinfo) of $(nproc) cpus; kernel $(uname -r)"
if command -v cc >/dev/null && [ -z "$libpath" ]; then
    HIPVIS_NO_BOOTSTRAP=1 timeout 300 make -j"$(nproc)" build/libhipvis.so build/hipvis-analyze build/hipvis-dump > "$out/logs/build.txt" 2>&1 \
        || echo "build failed (see logs/build.txt): using the carried build/"
fi
for f in build/libhipvis.so build/hipvis-analyze; do
    [ -e "$f" ] || { echo "missing $f (carry build/ or install the build's packages)"; exit 1; }
done
nvcc -O2 -g -cudart shared -lineinfo -o "$tmp/hc" tests/gpu/hostcheck.cu \
    -L"$(dirname "$(command -v nvcc)")/../lib64/stubs" -lcuda || exit 1
lib=$root/build/libhipvis.so
table=$out/table.txt
: > "$table"
row() { printf '%-6s %-34s %s\n' "$1" "$2" "$3" | tee -a "$table"; }
race_line() { grep -n "RACE $1 \*/" tests/gpu/hostcheck.cu | cut -d: -f1; }

# findings TRACE -> "N FILE:LINE ACCESS SKIPPED_MANAGED" of host-access-in-flight
findings() {
    build/hipvis-analyze --json "$1" 2>/dev/null | python3 -c '
import json, sys, os
try:
    d = json.load(sys.stdin)
except Exception:
    print("0 - - -"); sys.exit()
fs = [f for f in d.get("findings", []) if f["rule"] == "host-access-in-flight" and f["severity"] != "info"]
info = [f for f in d.get("findings", []) if f["rule"] == "host-access-in-flight" and f["severity"] == "info"]
where = access = "-"
if fs:
    later = fs[0].get("later") or {}
    st = (later.get("stack") or [{}])[0]
    where = "%s:%s" % (os.path.basename(st.get("file", "?")), st.get("line"))
    access = later.get("access", "-")
print(len(fs), where, access, "skipped" if info else "-")'
}

check() {   # check CASE MODE EXPECT(race|clean|skipped)
    local c=$1 mode=$2 want=$3 t=$tmp/$1-$2.zst
    local plain hc rc1 rc2
    plain=$(timeout 60 "$tmp/hc" "$c" 2> "$out/logs/$c-plain.err"); rc1=$?
    hc=$(HIPVIS_QUIET=1 HIPVIS_HOSTCHECK=$mode HIPVIS_OUTPUT=$t LD_PRELOAD=$lib timeout 60 "$tmp/hc" "$c" \
         2> "$out/logs/$c-$mode.err"); rc2=$?
    read -r n where access skipped <<< "$(findings "$t")"
    local what="exit $rc1/$rc2, findings $n at $where ($access), $skipped"
    local ok=1
    [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ "$plain" = "$hc" ] || ok=0
    case $want in
        race) [ "$n" = 1 ] && [ "$where" = "hostcheck.cu:$(race_line "${c%-sync}")" ] || ok=0 ;;
        clean) [ "$n" = 0 ] || ok=0 ;;
        skipped) [ "$n" = 0 ] && [ "$skipped" = skipped ] || ok=0 ;;
    esac
    row "$([ $ok = 1 ] && echo PASS || echo FAIL)" "$c HIPVIS_HOSTCHECK=$mode" "$what"
}

echo "== what the driver does with protected pages (tests/gpu/uvm_protect.cu, no tracer)"
nvcc -O2 -cudart shared -o "$tmp/uvmp" tests/gpu/uvm_protect.cu || exit 1
for c in attrs pinned-none pinned-read managed-none managed-read managed-resident managed-host-fault managed-pkey-gpu managed-pkey; do
    r=$(timeout 30 "$tmp/uvmp" "$c" 2>&1); rc=$?; r=$(printf "%s" "$r" | tail -1)
    row INFO "uvm_protect $c" "exit $rc: $r"
done
echo "== cases"
check d2h-read 1 race
check d2h-read-sync 1 clean
check h2d-write 1 race
check h2d-write-sync 1 clean
# Managed memory is protected through a protection key where the CPU has
# them (docs/hostcheck.md), else skipped and counted.
if [ "$(grep -c -w pku /proc/cpuinfo)" -gt 0 ]; then
    check managed-read 1 race
    check managed-read-sync 1 clean
    check managed-write 1 race
    check managed-write-sync 1 clean
else
    check managed-read 1 skipped
    check managed-read-sync 1 skipped
fi
check callback-read 1 clean
check callback-add 1 clean
check callback-drv 1 clean
check callback-other 1 race
# What UVM does when the managed range is protected: reported, not judged.
for c in managed-read managed-read-sync managed-write; do
    t=$tmp/$c-managed.zst
    HIPVIS_QUIET=1 HIPVIS_HOSTCHECK=managed HIPVIS_OUTPUT=$t LD_PRELOAD=$lib timeout 60 "$tmp/hc" "$c" \
        > "$out/logs/$c-managed.out" 2> "$out/logs/$c-managed.err"
    rc=$?
    row INFO "$c HIPVIS_HOSTCHECK=managed" "exit $rc, findings $(findings "$t"); $(head -c 160 "$out/logs/$c-managed.err" | tr '\n' ' ')"
done
echo "== cost (bench: H2D + kernel + D2H + sync per step, off/on pairs)"
python3 - "$tmp/hc" "$lib" "$tmp" <<'PY' | tee -a "$table"
import os, statistics, subprocess, sys, time
hc, lib, tmp = sys.argv[1:4]
def once(on):
    e = {k: v for k, v in os.environ.items() if not k.startswith("HIPVIS_")}
    e.update(LD_PRELOAD=lib, HIPVIS_QUIET="1", HIPVIS_OUTPUT=os.path.join(tmp, "bench.%p.zst"))
    e["HIPVIS_HOSTCHECK" if on else "HIPVIS_RECORD"] = "1" if on else "full"
    t0 = time.perf_counter()
    subprocess.run([hc, "bench", "5000"], env=e, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0
once(False)
r, offs, ons = [], [], []
for _ in range(5):
    a, b = once(False), once(True)
    offs.append(a); ons.append(b); r.append(b / a)
print(f"COST   bench 5000 steps                    off {statistics.median(offs):.3f} s  on {statistics.median(ons):.3f} s  "
      f"on/off {statistics.median(r):.3f} ({min(r):.3f} .. {max(r):.3f})")
PY
tar -C "$tmp" -czf "$out/traces.tar.gz" $(cd "$tmp" && ls *.zst 2>/dev/null | grep -v bench) 2>/dev/null
echo "== summary"
cat "$table"
fails=$(grep -c '^FAIL' "$table")
echo "hostcheck-gpu: $(grep -c '^PASS' "$table") passed, $fails failed"
rm -rf "$tmp"
[ "$fails" = 0 ]
