#!/usr/bin/env bash
# The sidecar end to end: producers (tests/sidecar/sc_producer on the TEST-ONLY
# runtime double, LD_PRELOAD=libhipvis.so, HIPVIS_SIDECAR=1) and
# hipvis-sidecar in a private segment directory. Bounded: every wait has a
# deadline, the whole suite takes well under a minute.
#   sidecar.sh BUILD_DIR [preload|raw]
# raw: producers are sc_rawprod, the transport linked in without the
# preload library (the sanitizer build, where an instrumented preload
# library cannot be loaded before the sanitizer runtime).
set -u
build=$(cd "$1" && pwd)
mode=${2:-preload}
t=$build/tests/sidecar
sidecar=$build/hipvis-sidecar
lib=$build/libhipvis.so
export LD_LIBRARY_PATH=$build/tests/double
work=$(mktemp -d /tmp/hipvis-sidecar-test.XXXXXX)
seg=$work/seg
mkdir -p "$seg"
chmod 0755 "$work"
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "PASS $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }

if [ "$mode" = raw ]; then
  producer=("$t/sc_rawprod")
else
  producer=(env LD_PRELOAD="$lib" "$t/sc_producer")
fi

SC=
PIDS=()
cleanup() {
  [ -n "$SC" ] && kill -KILL "$SC" 2>/dev/null
  [ ${#PIDS[@]} = 0 ] || kill -KILL "${PIDS[@]}" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT

# start_sidecar NAME [options]: runs hipvis-sidecar writing to $work/NAME.
start_sidecar() {
  local name=$1; shift
  mkdir -p "$work/$name"
  "$sidecar" --dir "$seg" -o "$work/$name" --alerts "$work/$name/alerts.jsonl" \
    --metrics "$work/$name/hipvis.prom" --metrics-interval-ms 200 --scan-ms 200 --closed-grace-ms 300 "$@" \
    >>"$work/$name.log" 2>&1 &
  SC=$!
  sleep 0.2
}

# stop_sidecar: SIGTERM, and it must drain and exit 0 within 10 s.
stop_sidecar() {
  kill -TERM "$SC"
  local i
  for i in $(seq 100); do kill -0 "$SC" 2>/dev/null || break; sleep 0.1; done
  wait "$SC"; local rc=$?
  SC=
  return $rc
}

# produce OUT RATE SECONDS [ARG]: one producer in the background; its
# "pid P calls N" line(s) go to OUT.
produce() {
  local out=$1; shift
  # In a subshell whose stderr is the log: a producer that dies of a signal
  # on purpose (SIGKILL, SIGBUS after truncation) is reported there, not here.
  ( HIPVIS_QUIET=1 HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg" \
      timeout 30 "${producer[@]}" "$@" >"$out"; exit $? ) 2>>"$work/producers.log" &
  PIDS+=($!)
}

# wait_producers: every producer started so far has exited (each is bounded
# by its own timeout).
wait_producers() {
  local p
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
  PIDS=()
}

# wait_gone PID: the sidecar finalized the process (segment unlinked), 5 s at most.
wait_gone() {
  local i
  for i in $(seq 50); do
    ls "$seg"/hipvis.*."$1".*.ring >/dev/null 2>&1 || return 0
    sleep 0.1
  done
  return 1
}

# check_pid DIR PID CALLS [sc_check options]: the accounting of one process.
check_pid() {
  local dir=$1 pid=$2 calls=$3; shift 3
  "$t/sc_check" --expect-calls "$calls" "$@" "$dir"/hipvis."$pid".*.zst
}

field() { echo "$1" | awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) print $(i+1)}'; }

# 1. Load: 8 producers at a fixed rate each; for every process, records
#    written + dropped == calls made, footers consistent, segments removed.
start_sidecar load
for i in 1 2 3 4 5 6 7 8; do produce "$work/load$i.out" 20000 2; done
wait_producers
good=1
for i in 1 2 3 4 5 6 7 8; do
  read -r _ pid _ calls <"$work/load$i.out" || { good=0; continue; }
  wait_gone "$pid" || { echo "  pid $pid: segment still there"; good=0; }
  line=$(check_pid "$work/load" "$pid" "$calls" --require-footer) || good=0
  echo "  pid $pid: calls $calls: $line"
done
stop_sidecar || { echo "  sidecar exit status $?"; good=0; }
ls "$seg"/*.ring >/dev/null 2>&1 && { echo "  segments left: $(ls "$seg")"; good=0; }
grep -q '^hipvis_records_written_total{pid=' "$work/load/hipvis.prom" || { echo "  no per-process metrics"; good=0; }
grep -q 'hipvis_records_dropped_total{.*cause="ring_full"}' "$work/load/hipvis.prom" || good=0
[ $good = 1 ] && ok "load: 8 producers x 20000 calls/s, written + dropped == calls for each" || bad load

# 2. Fork: the child gets a segment (and traces) of its own.
start_sidecar fork
produce "$work/fork.out" 5000 1 fork
wait_producers
good=1; n=0
while read -r _ pid _ calls; do
  n=$((n+1))
  wait_gone "$pid" || good=0
  line=$(check_pid "$work/fork" "$pid" "$calls" --require-footer) || good=0
  echo "  pid $pid: calls $calls: $line"
done <"$work/fork.out"
[ $n = 2 ] || good=0
stop_sidecar || good=0
[ $good = 1 ] && ok "fork: parent and child each traced completely" || bad fork

# 2b. An exec that fails: the tracer closed the segment before the exec and
#     takes it back afterwards; nothing is lost (preload mode: the exec
#     wrappers are the preload library's).
if [ "$mode" = preload ]; then
  start_sidecar execfail
  produce "$work/execfail.out" 5000 1 execfail
  wait_producers
  read -r _ pid _ calls <"$work/execfail.out"
  good=1
  wait_gone "$pid" || good=0
  line=$(check_pid "$work/execfail" "$pid" "$calls" --require-footer) || good=0
  echo "  pid $pid: calls $calls: $line"
  stop_sidecar || good=0
  [ $good = 1 ] && ok "failed exec: tracing resumes in the same segment" || bad "failed exec"
fi

# 3. A producer killed with SIGKILL mid-run, the sidecar running: every
#    record up to the kill is in its trace (the last call's seq included).
start_sidecar kill
produce "$work/kill.out" 10000 10 12345
wait_producers
read -r _ pid _ calls <"$work/kill.out"
good=1
wait_gone "$pid" || good=0
line=$(check_pid "$work/kill" "$pid" "$calls" --require-footer) || good=0
echo "  pid $pid killed after $calls calls: $line"
[ "$(field "$line" last_seq)" = "$calls" ] || good=0
[ "$(field "$line" in_flight)" = 0 ] || good=0
stop_sidecar || good=0
[ $good = 1 ] && ok "SIGKILL: records up to the kill are in the trace" || bad "SIGKILL producer"

# 4. No sidecar while a producer runs and is killed: the segment keeps the
#    records; a sidecar started later drains it and removes it.
produce "$work/late.out" 10000 10 3000
wait_producers
read -r _ pid _ calls <"$work/late.out"
start_sidecar late
good=1
wait_gone "$pid" || good=0
line=$(check_pid "$work/late" "$pid" "$calls" --require-footer) || good=0
echo "  pid $pid killed with no sidecar: $line"
[ "$(field "$line" records)" = "$calls" ] || good=0
stop_sidecar || good=0
[ $good = 1 ] && ok "crash with no sidecar running: drained later" || bad "crash with no sidecar"

# 5. The sidecar killed (SIGKILL) and restarted mid-run: producers keep
#    running and finish on time, their drops are counted, and over all files
#    written + dropped == calls (the killed sidecar's files have no footer;
#    the next footer accounts for their interval), so no record is in two
#    files. Rings of 256 KiB (~2,200 records, 70 ms at 30,000 calls/s)
#    overflow while the sidecar is away (~1 s) whatever the default ring.
start_sidecar restart
export HIPVIS_RING_KB=256
for i in 1 2 3 4; do produce "$work/restart$i.out" 30000 3; done
unset HIPVIS_RING_KB
sleep 0.8
kill -KILL "$SC"; wait "$SC" 2>/dev/null
sleep 0.8
start_sidecar restart
t0=$(date +%s)
wait_producers
t1=$(date +%s)
good=1; drops=0
for i in 1 2 3 4; do
  read -r _ pid _ calls <"$work/restart$i.out" || { good=0; continue; }
  wait_gone "$pid" || good=0
  line=$(check_pid "$work/restart" "$pid" "$calls") || good=0
  drops=$((drops + $(field "$line" ring_full)))
  echo "  pid $pid: calls $calls: $line"
done
stop_sidecar || good=0
[ $((t1 - t0)) -le 5 ] || { echo "  producers took $((t1 - t0)) s after the restart"; good=0; }
[ "$drops" -gt 0 ] || { echo "  no drops counted while the sidecar was away"; good=0; }
[ $good = 1 ] && ok "sidecar killed and restarted: producers unaffected, $drops drops counted" || bad "sidecar restart"

# 6. Rotation and the disk cap: files rotate by size and by age, every file
#    of a process still adds up; with a cap, the oldest closed files go first
#    and the total stays under it.
good=1
start_sidecar rotate --rotate-size 16K
produce "$work/rot.out" 20000 2
wait_producers
read -r _ pid _ calls <"$work/rot.out"
wait_gone "$pid" || good=0
line=$(check_pid "$work/rotate" "$pid" "$calls" --require-footer) || good=0
nfiles=$(field "$line" files)
echo "  by size (16K): $line"
[ "${nfiles:-0}" -ge 3 ] || good=0
stop_sidecar || good=0
start_sidecar age --rotate-age 1s
produce "$work/age.out" 2000 2.5
wait_producers
read -r _ pid _ calls <"$work/age.out"
wait_gone "$pid" || good=0
line=$(check_pid "$work/age" "$pid" "$calls" --require-footer) || good=0
echo "  by age (1 s): $line"
[ "$(field "$line" files)" -ge 3 ] || good=0
stop_sidecar || good=0
start_sidecar cap --rotate-size 8K --disk-cap 40K
produce "$work/cap.out" 20000 2
wait_producers
read -r _ pid _ calls <"$work/cap.out"
wait_gone "$pid" || good=0
stop_sidecar || good=0
total=$(cat "$work/cap"/hipvis.*.zst | wc -c)
deleted=$(awk '/^hipvis_sidecar_trace_files_deleted_total/ {print $2}' "$work/cap/hipvis.prom")
echo "  cap 40K: $(ls "$work/cap"/hipvis.*.zst | wc -l) files left, $total bytes, $deleted deleted"
[ "$total" -le 40960 ] && [ "${deleted:-0}" -gt 0 ] || good=0
for f in "$work/cap"/hipvis.*.zst; do "$t/sc_check" --require-footer "$f" >/dev/null || good=0; done
[ $good = 1 ] && ok "rotation by size and age (accounting exact over the files), disk cap deletes oldest" \
              || bad "rotation/disk cap"

# 7. Segments the sidecar must refuse: another uid, a wrong mode, a symlink.
#    (Segment names end in a random 16-hex-digit nonce: $N stands in for one.)
me=$(id -u)
N=0123456789abcdef
good=1
start_sidecar refuse
# Each is made elsewhere and renamed in, so the sidecar sees it complete.
mkdir -p "$work/stage"
: >"$work/stage/a"; chmod 0644 "$work/stage/a"; mv "$work/stage/a" "$seg/hipvis.$me.4000001.$N.ring"
ln -s /etc/passwd "$work/stage/b"; mv "$work/stage/b" "$seg/hipvis.$me.4000002.$N.ring"
if [ "$me" = 0 ] && id nobody >/dev/null 2>&1; then
  nob=$(id -u nobody)
  : >"$work/stage/c"; chmod 0600 "$work/stage/c"; chown nobody "$work/stage/c"
  mv "$work/stage/c" "$seg/hipvis.$nob.4000003.$N.ring"
  other=1
else
  other=0
fi
# A real producer next to them is still drained.
produce "$work/refuse.out" 5000 1
wait_producers
read -r _ pid _ calls <"$work/refuse.out"
wait_gone "$pid" || good=0
check_pid "$work/refuse" "$pid" "$calls" --require-footer >/dev/null || good=0
stop_sidecar || good=0
grep -q "refused segment .*hipvis.$me.4000001.$N.ring: mode 0644, not 0600" "$work/refuse.log" || good=0
grep -q "refused segment .*hipvis.$me.4000002.$N.ring: cannot open: it is a symbolic link" "$work/refuse.log" || good=0
if [ $other = 1 ]; then
  grep -q "refused segment .*hipvis.$nob.4000003.$N.ring: owned by uid $nob, not by this sidecar's uid 0" \
    "$work/refuse.log" || good=0
else
  echo "  (not root: the other-uid case is skipped)"
fi
[ "$(grep -c "refused segment" "$work/refuse.log")" = $((2 + other)) ] || { echo "  refusals logged more than once"; good=0; }
rm -f "$seg"/hipvis.*.400000?.*.ring
[ $good = 1 ] && ok "refused: another uid, mode 0644, symlink (each logged once, with the reason)" || bad refuse

# 8. Corrupt segments are reported and skipped, never crash the sidecar:
#    junk with a bad magic, a header whose geometry does not add up, a ring
#    with a malformed record (the process's trace still gets a footer), and
#    a segment truncated under the sidecar (SIGBUS while draining).
good=1
"$t/sc_segtool" garbage "$seg/hipvis.$me.4000010.$N.ring" || good=0
produce "$work/geo.out" 10000 5 2000
wait_producers
read -r _ geopid _ _ <"$work/geo.out"
"$t/sc_segtool" geometry "$seg"/hipvis.$me.$geopid.*.ring || good=0
produce "$work/ring.out" 10000 5 2000
wait_producers
read -r _ ringpid _ ringcalls <"$work/ring.out"
"$t/sc_segtool" ring "$seg"/hipvis.$me.$ringpid.*.ring || good=0
# A ring tail that is not 8-aligned: reading the record there would be a
# misaligned access (UBSan in the sanitizer tree); the ring is reported corrupt.
produce "$work/tail.out" 10000 5 2000
wait_producers
read -r _ tailpid _ _ <"$work/tail.out"
"$t/sc_segtool" tail "$seg"/hipvis.$me.$tailpid.*.ring || good=0
start_sidecar corrupt
produce "$work/trunc.out" 2000 3
sleep 0.7
truncpid=$(ls "$seg" | sed -n "s/^hipvis\.$me\.\([0-9]*\)\.[0-9a-f]*\.ring$/\1/p" | grep -v -e "^$geopid\$" -e "^$ringpid\$" -e "^$tailpid\$" -e '^4000010$' | head -1)
[ -n "$truncpid" ] && truncate -s 4096 "$seg"/hipvis.$me.$truncpid.*.ring
produce "$work/after.out" 5000 1
sleep 1.5
kill -0 "$SC" 2>/dev/null || { echo "  the sidecar died"; good=0; }
wait_producers
read -r _ pid _ calls <"$work/after.out"
wait_gone "$pid" || good=0
check_pid "$work/corrupt" "$pid" "$calls" --require-footer >/dev/null || { echo "  a healthy producer was not drained"; good=0; }
wait_gone "$ringpid" || good=0
line=$(check_pid "$work/corrupt" "$ringpid" "$ringcalls" --require-footer) || good=0
echo "  pid $ringpid, ring damaged: $line"
stop_sidecar || good=0
grep -q "corrupt segment .*hipvis.$me.4000010.$N.ring: bad magic" "$work/corrupt.log" || good=0
grep -q "corrupt segment .*hipvis.$me.$geopid.[0-9a-f]*.ring: ring_bytes\|corrupt segment .*hipvis.$me.$geopid.[0-9a-f]*.ring: geometry" \
  "$work/corrupt.log" || good=0
grep -q "pid $ringpid: ring 0 (tid [0-9]*) is corrupt at byte" "$work/corrupt.log" || good=0
grep -q "pid $tailpid: ring 0 (tid [0-9]*) is corrupt at byte" "$work/corrupt.log" || { echo "  misaligned tail not reported"; good=0; }
[ -z "$truncpid" ] || grep -q "pid $truncpid: .*shrank under the sidecar (SIGBUS)" "$work/corrupt.log" || good=0
[ $good = 1 ] && ok "corrupt: bad magic, bad geometry, bad ring record, misaligned tail, truncated while mapped: reported, skipped" \
              || { bad corrupt; grep -v "writing\|closed\|draining\|ended" "$work/corrupt.log" | head -20; }
rm -f "$seg"/*.ring

# 9. Streaming analysis output: the alerts file has one JSON line per new
#    finding group (the ring damage above dropped records: records-dropped),
#    and the metrics file is valid Prometheus text.
good=1
python3 - "$work/corrupt/alerts.jsonl" "$work/load/hipvis.prom" <<'EOF' || good=0
import json, re, sys
alerts = [json.loads(l) for l in open(sys.argv[1])]
keys = {"time", "host", "exe", "trace", "rule", "severity", "pid", "count", "first_seq", "last_seq", "why"}
for a in alerts:
    missing = keys - a.keys()
    if missing:
        sys.exit(f"alert without {missing}: {a}")
seen = [(a["pid"], a["rule"], json.dumps(a.get("earlier")), json.dumps(a.get("later")), a.get("note")) for a in alerts]
if len(seen) != len(set(seen)):
    sys.exit("a finding group was alerted twice")
if not any(a["rule"] == "records-dropped" for a in alerts):
    sys.exit("no records-dropped alert for the damaged ring")
sample = re.compile(r'^[a-z_]+(\{([a-z_]+="([^"\\]|\\.)*",?)*\})? [0-9.e+-]+$')
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    if line.startswith("# HELP ") or line.startswith("# TYPE "):
        continue
    if not sample.match(line):
        sys.exit(f"not a Prometheus sample: {line}")
print(f"  {len(alerts)} alert line(s), metrics parse")
EOF
[ $good = 1 ] && ok "alerts are JSON lines, once per group; metrics are Prometheus text" || bad "alerts/metrics"

# 10. Streaming analysis agrees with hipvis-analyze: the decode loop (the
#    ROCm/hip#3902 pattern) drained by the sidecar gives the same finding
#    groups live (alerts, metrics) as the offline analyzer on its trace.
if [ "$mode" = preload ]; then
  good=1
  start_sidecar stream
  # One eager launch in four with its kernel and arguments, no warm-up: the
  # metrics count the others as the offline analyzer does.
  ( HIPVIS_QUIET=1 HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg" LD_PRELOAD="$lib" \
      HIPVIS_LAUNCH_EVERY=4 HIPVIS_LAUNCH_FIRST=0 \
      timeout 30 "$build/tests/apps/decode_loop" --steps 200 --prefill-every 8 >/dev/null; exit $? ) \
      2>>"$work/producers.log" &
  PIDS+=($!)
  wait_producers
  pid=$(ls "$work/stream" | sed -n 's/^hipvis\.\([0-9]*\)\..*\.zst$/\1/p' | head -1)
  wait_gone "$pid" || good=0
  stop_sidecar || good=0
  "$build/hipvis-analyze" --json --fail-on none "$work/stream"/hipvis.*.zst >"$work/stream.json" || good=0
  python3 - "$work/stream.json" "$work/stream/alerts.jsonl" "$work/stream/hipvis.prom" <<'EOF' || good=0
import json, re, sys
offline = json.load(open(sys.argv[1]))["findings"]
alerts = [json.loads(l) for l in open(sys.argv[2])]
key = lambda f: (f["pid"], f["rule"], f["first_seq"])
if sorted(map(key, offline)) != sorted(map(key, alerts)):
    sys.exit(f"offline groups {sorted(map(key, offline))} != alerts {sorted(map(key, alerts))}")
occ = {}
for line in open(sys.argv[3]):
    m = re.match(r'hipvis_findings_total\{pid="(\d+)",exe="[^"]*",rule="([^"]+)"\} (\d+)', line)
    if m and int(m.group(3)):
        occ[(int(m.group(1)), m.group(2))] = int(m.group(3))
want = {}
for f in offline:
    want[(f["pid"], f["rule"])] = want.get((f["pid"], f["rule"]), 0) + f["count"]
if occ != want:
    sys.exit(f"metrics {occ} != offline {want}")
if not any(f["rule"] == "same-epoch-write" for f in offline):
    sys.exit("no same-epoch-write finding in the decode loop")
undrawn = {int(m.group(1)): int(m.group(2)) for m in
           (re.match(r'hipvis_launches_undrawn_total\{pid="(\d+)",exe="[^"]*"\} (\d+)', l) for l in open(sys.argv[3])) if m}
traces = json.load(open(sys.argv[1]))["traces"]
want_un = {t["pid"]: t["launches_unsampled"] for t in traces}
if undrawn != want_un or not any(want_un.values()):
    sys.exit(f"undrawn launches: metrics {undrawn} != offline {want_un} (or none)")
def series(name):
    return {int(m.group(1)): int(m.group(2)) for m in
            (re.match(name + r'\{pid="(\d+)",exe="[^"]*"\} (\d+)', l) for l in open(sys.argv[3])) if m}
for metric, field in (("hipvis_replays_total", lambda t: t["replays"]),
                      ("hipvis_replays_unchecked_total", lambda t: t["replays"] - t["replays_checked"]),
                      ("hipvis_kernel_nodes_unknown_layout_total", lambda t: t["unknown_layout_nodes"]),
                      ("hipvis_kernel_args_inferred_total", lambda t: t["inferred_args"])):
    want_m = {t["pid"]: field(t) for t in traces}
    if series(metric) != want_m:
        sys.exit(f"{metric}: metrics {series(metric)} != offline {want_m}")
if not any(t["replays"] for t in traces):
    sys.exit("no replay in the decode loop")
print(f"  {len(alerts)} groups live = offline, {sum(want.values())} occurrences, {sum(want_un.values())} launches undrawn")
EOF
  [ $good = 1 ] && ok "streaming analysis: decode loop alerts and metrics == hipvis-analyze" || bad "streaming analysis"
fi

# 11. The launcher: hipvis run sets LD_PRELOAD and HIPVIS_OUTPUT (file
#    transport), hipvis run --sidecar sets HIPVIS_SIDECAR, and the
#    subcommands exec their tools. (raw mode: nothing is preloaded.)
good=1
if [ "$mode" = preload ]; then
  out=$(HIPVIS_QUIET=1 "$build/hipvis" run -o "$work/run" -- sh -c 'echo "$LD_PRELOAD|$HIPVIS_OUTPUT"') || good=0
  case "$out" in *"/libhipvis.so|$work/run/hipvis.%p.zst") ;; *) echo "  run: $out"; good=0 ;; esac
  out=$(HIPVIS_QUIET=1 "$build/hipvis" run --sidecar -- sh -c 'echo "$HIPVIS_SIDECAR"') || good=0
  [ "$out" = 1 ] || good=0
  "$build/hipvis" run -- /nonexistent/prog 2>/dev/null; [ $? = 127 ] || good=0
fi
"$build/hipvis" sidecar --version | grep -q '^hipvis-sidecar ' || good=0
"$build/hipvis" dump --help 2>&1 | grep -q 'usage: hipvis-dump' || good=0
[ $good = 1 ] && ok "launcher: run, run --sidecar, sidecar/dump forwarding" || bad launcher

# 13. Files another user can plant (issue 18 items 8, 3/11): the sidecar never
#     writes through a symlink. A symlink at the --alerts path is refused at
#     start; a symlink at the metrics file's old, predictable temp name
#     (<metrics>.<pid>.tmp: planted by a shell that then execs the sidecar
#     under the same pid) is never followed; the metrics file ends up 0644,
#     written by rename; unusable output paths refuse to start.
good=1
mkdir -p "$work/plant"
echo victim >"$work/plant/victim"; chmod 0600 "$work/plant/victim"
ln -s "$work/plant/victim" "$work/plant/alerts.jsonl"
timeout 10 "$sidecar" --dir "$seg" -o "$work/plant/out" --alerts "$work/plant/alerts.jsonl" --scan-ms 200 \
  >"$work/plant1.log" 2>&1 && { echo "  started with a symlink as the alerts file"; good=0; }
grep -q "alerts file $work/plant/alerts.jsonl" "$work/plant1.log" || { echo "  no refusal message"; good=0; }
[ "$(cat "$work/plant/victim")" = victim ] || { echo "  victim changed through the alerts symlink"; good=0; }
rm -f "$work/plant/alerts.jsonl"
sh -c 'ln -s "$1" "$2.$$.tmp"; shift 2; exec "$@"' sh "$work/plant/victim" "$work/plant/hipvis.prom" \
  "$sidecar" --dir "$seg" -o "$work/plant/out" --metrics "$work/plant/hipvis.prom" \
  --metrics-interval-ms 100 --scan-ms 100 >"$work/plant2.log" 2>&1 &
pl=$!; sleep 1.5; kill -TERM $pl; wait $pl
[ "$(cat "$work/plant/victim")" = victim ] || { echo "  victim changed through the metrics temp symlink"; good=0; }
grep -q '^hipvis_' "$work/plant/hipvis.prom" 2>/dev/null || { echo "  no metrics written"; good=0; }
[ "$(stat -c %a "$work/plant/hipvis.prom" 2>/dev/null)" = 644 ] || { echo "  metrics mode not 0644"; good=0; }
: >"$work/plant/regular"
timeout 10 "$sidecar" --dir "$seg" -o "$work/plant/regular" --scan-ms 200 >"$work/plant3.log" 2>&1 &&
  { echo "  started with -o naming a regular file"; good=0; }
grep -q -- "-o $work/plant/regular: cannot create traces there: not a directory" "$work/plant3.log" || { echo "  -o message"; cat "$work/plant3.log"; good=0; }
timeout 10 "$sidecar" --dir "$seg" -o "$work/plant/out" --metrics "$work/plant/missing/hipvis.prom" --scan-ms 200 \
  >"$work/plant4.log" 2>&1 && { echo "  started with --metrics in a missing directory"; good=0; }
grep -q -- "--metrics $work/plant/missing/hipvis.prom: its directory is not usable" "$work/plant4.log" || { echo "  --metrics message"; cat "$work/plant4.log"; good=0; }
[ $good = 1 ] && ok "planted files: alerts/metrics symlinks refused or never followed; -o file and --metrics missing dir refused" || bad planted-files

# 14. Names another user cannot occupy (issue 18 item 9): in a shared
#     directory (mode 1777, as /dev/shm) another user pre-creates every name
#     the pid-derived scheme would give the next process
#     (hipvis.<uid>.<pid>.ring and .1 ... .99), then the process starts under
#     that pid (exec keeps it). Its segment name carries a random nonce, so
#     tracing is not switched off: its trace is complete. The squatter's files
#     are refused by the sidecar, as any foreign segment.
good=1
chmod 1777 "$seg"
start_sidecar squat
if [ "$me" = 0 ] && id nobody >/dev/null 2>&1; then
  squat=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
else
  squat=()   # not root: the squatter is this user; O_EXCL failed all the same
fi
# bash -c SEG UID SQUATTER... -- PRODUCER...: squat the names for its own
# pid ($$), then exec the producer under that pid.
( HIPVIS_QUIET=1 HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg" timeout 30 bash -c '
    seg=$1 me=$2; shift 2
    sq=(); while [ "$1" != -- ]; do sq+=("$1"); shift; done; shift
    for n in $(seq 0 99); do
      [ $n = 0 ] && g= || g=.$n
      "${sq[@]}" sh -c ": >\"\$1\"" sh "$seg/hipvis.$me.$$$g.ring" || exit 9
    done
    exec "$@" 5000 1' bash "$seg" "$me" "${squat[@]}" -- "${producer[@]}" >"$work/squat.out"; exit $? ) \
  2>"$work/squat.err" &
PIDS+=($!)
wait_producers
read -r _ pid _ calls <"$work/squat.out" || good=0
squatted=$(ls "$seg" | grep -E "^hipvis\.$me\.$pid(\.[0-9]{1,2})?\.ring\$")
[ "$(echo "$squatted" | wc -l)" = 100 ] || { echo "  squatted names not in place"; good=0; }
[ -z "${squat[*]}" ] || [ "$(cd "$seg" && stat -c %U $squatted | sort -u)" = nobody ] || { echo "  squatter not nobody"; good=0; }
(cd "$seg" && rm -f $squatted)   # they would match wait_gone's pattern
grep -q "tracing disabled" "$work/squat.err" && { echo "  $(cat "$work/squat.err")"; good=0; }
wait_gone "$pid" || good=0
line=$(check_pid "$work/squat" "$pid" "$calls" --require-footer) || good=0
echo "  pid $pid, 100 names squatted: $line"
[ "$(field "$line" records)" = "$calls" ] || good=0
stop_sidecar || good=0
chmod 0755 "$seg"
[ $good = 1 ] && ok "squatted names: 100 pid-derived names taken by another user, the process is still traced" ||
  bad "squatted names"

# 15. An output directory that stops being usable (issue 18 item 3): the
#     sidecar started with a good -o, then the directory is replaced by a
#     file. The process's records stay in its segment (the rings are not
#     read, nothing is released or unlinked) and the sidecar says why; a
#     sidecar stopped in that state leaves the segment; a second sidecar with
#     a usable -o drains every record.
good=1
mkdir -p "$work/gone"
"$sidecar" --dir "$seg" -o "$work/gone" --scan-ms 200 --closed-grace-ms 300 \
  --metrics "$work/gone.prom" --metrics-interval-ms 200 >"$work/gone.log" 2>&1 &
SC=$!
sleep 0.3
rmdir "$work/gone" && : >"$work/gone"
produce "$work/keep.out" 5000 1
wait_producers
read -r _ pid _ calls <"$work/keep.out"
sleep 1.5   # the process is over: a sidecar that could write would finalize it now
ls "$seg"/hipvis.*."$pid".*.ring >/dev/null 2>&1 || { echo "  segment removed while undrained"; good=0; }
# The metrics still count what the process made, none of it written: what
# the fleet's HipvisTraceStalled alert sees (deploy/prometheus).
made=$(sed -n "s/^hipvis_records_made_total{pid=\"$pid\",.*} //p" "$work/gone.prom")
written=$(sed -n "s/^hipvis_records_written_total{pid=\"$pid\",.*} //p" "$work/gone.prom")
[ "${made:-0}" -gt 0 ] && [ "$written" = 0 ] || { echo "  metrics: made ${made:-none}, written ${written:-none}"; good=0; }
stop_sidecar || good=0
ls "$seg"/hipvis.*."$pid".*.ring >/dev/null 2>&1 || { echo "  segment removed at shutdown"; good=0; }
grep -q "pid $pid: cannot create a trace file from .*: Not a directory; its records stay in the segment" "$work/gone.log" ||
  { echo "  no reason logged"; good=0; }
grep -q "pid $pid .*segment kept undrained" "$work/gone.log" || { echo "  not said at shutdown"; good=0; }
[ "$(grep -c "cannot create a trace file" "$work/gone.log")" = 1 ] || { echo "  logged more than once"; good=0; }
start_sidecar kept
wait_gone "$pid" || good=0
line=$(check_pid "$work/kept" "$pid" "$calls" --require-footer) || good=0
echo "  pid $pid, output unusable, then a second sidecar: $line"
[ "$(field "$line" records)" = "$calls" ] || good=0
stop_sidecar || good=0
[ $good = 1 ] && ok "unusable output: segment kept undrained, reason logged, made $made / written 0 in the metrics; a later sidecar drains all $calls records" ||
  { bad "unusable output keeps the segment"; cat "$work/gone.log" | head -20; }

# 16. Rings written ahead (issue 12): the activating thread's ring is made at
#     start, the preparer thread then keeps one FREE spare published, empty,
#     which the next new thread takes (sc_rawprod --spares reads the segment
#     through the producer's collector; no sidecar needed).
mkdir -p "$work/spares"
if HIPVIS_SIDECAR_DIR="$work/spares" timeout 60 "$t/sc_rawprod" --spares >"$work/spares.out" 2>"$work/spares.log"; then
  ok "rings written ahead: $(cat "$work/spares.out")"
else
  bad "rings written ahead"; cat "$work/spares.log"
fi
if HIPVIS_SIDECAR_DIR="$work/spares" timeout 30 "$t/sc_rawprod" --spares-full >"$work/spares.out" 2>"$work/spares.log"; then
  ok "$(cat "$work/spares.out")"
else
  bad "rings written ahead, segment full"; cat "$work/spares.log"
fi
rm -rf "$work/spares"

# 17. The segment directory's filesystem (issue 12): rings on a disk
#     filesystem are written back every ~30 s and then fault again on their
#     next record, so the producer and the sidecar each say so once when the
#     directory is not a memory filesystem, and neither says a word on a
#     tmpfs. Whichever of the two kinds this machine lacks is skipped.
fs_kind() { stat -f -c %T "$1" 2>/dev/null; }
is_mem() { case $(fs_kind "$1") in tmpfs|ramfs|hugetlbfs) return 0;; esac; return 1; }
warn_pat='is on .*not a memory filesystem'
good=1 said=
for kind in memory disk; do
  if [ $kind = memory ]; then
    d=$(mktemp -d /dev/shm/hipvis-sidecar-test.XXXXXX 2>/dev/null) || continue
    is_mem "$d" || { rmdir "$d"; continue; }
  else
    is_mem "$build" && continue
    d=$(mktemp -d "$build/hipvis-sidecar-fs.XXXXXX")
  fi
  timeout 10 "$sidecar" --dir "$d" -o "$d/out" --no-analysis --scan-ms 200 >"$work/fs-$kind.sc.log" 2>&1 &
  fsc=$!
  sleep 0.3
  ( HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$d" timeout 30 "${producer[@]}" 2000 0.2 >"$work/fs-$kind.out" ) \
    2>"$work/fs-$kind.log"
  prc=$?
  kill -TERM "$fsc" 2>/dev/null; wait "$fsc"
  np=$(grep -c "HIPVIS_SIDECAR_DIR=$d $warn_pat" "$work/fs-$kind.log")
  ns=$(grep -c -- "warning: --dir $d $warn_pat" "$work/fs-$kind.sc.log")
  want=$([ $kind = disk ] && echo 1 || echo 0)
  if [ $prc != 0 ] || [ "$np" != $want ] || [ "$ns" != $want ]; then
    good=0
    echo "  $kind ($(fs_kind "$d")): producer exit $prc, its warning $np time(s), the sidecar's $ns (want $want)"
    cat "$work/fs-$kind.log" "$work/fs-$kind.sc.log" | head -8
  fi
  said="$said $kind ($(fs_kind "$d")): warned $np/$ns;"
  rm -rf "$d"
done
if [ -z "$said" ]; then
  echo "SKIP segment directory filesystem: neither a tmpfs nor a disk directory here"
elif [ $good = 1 ]; then
  ok "segment directory filesystem: producer/sidecar warnings:$said"
else
  bad "segment directory filesystem"
fi

echo "sidecar: $pass passed, $fail failed"
[ $fail = 0 ]
