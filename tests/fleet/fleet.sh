#!/usr/bin/env bash
# fleet.sh BUILD - make check-fleet: the fleet monitoring shipped in deploy/.
#
# 1. The files: promtool check rules, promtool test rules (a unit test for
#    every alert), amtool check-config and its routes, the systemd unit
#    (systemd-analyze verify, every option it passes the sidecar exists).
# 2. Live, on loopback only: a real prometheus-node-exporter (textfile
#    collector on a private directory) and a real Prometheus (private config
#    and storage, 1 s scrape and evaluation) loading deploy/'s rules; the
#    sidecar started with the unit's own command line (paths moved into a
#    private directory, the textfile reached through a link as the unit
#    makes it); the decode loop traced on the TEST-ONLY runtime double in
#    sidecar mode. Prometheus's HTTP API must show the same-epoch-write
#    counter and HipvisNewFindingGroup firing for it; every dashboard query
#    must run.
# Everything it starts it stops (SIGTERM, then SIGKILL), each daemon also
# under timeout(1); the live part waits 90 s at most. Without the Debian
# packages it skips, except under CI=true, where it fails.
set -u
build=$(cd "${1:-build}" && pwd)
root=$(pwd)
deploy=$root/deploy
check_py=$root/tests/fleet/fleet_check.py
pass=0 fail=0
ok()  { pass=$((pass + 1)); echo "  ok   $1"; }
bad() { fail=$((fail + 1)); echo "  FAIL $1${2:+: $2}"; }
check() { if [ "$1" -eq 0 ]; then ok "$2"; else bad "$2" "${3:-}"; fi; }

missing=()
for t in prometheus prometheus-node-exporter promtool amtool; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
if [ ${#missing[@]} -gt 0 ]; then
    msg="check-fleet: ${missing[*]} not found (Debian: apt-get install prometheus prometheus-node-exporter prometheus-alertmanager)"
    if [ "${CI:-}" = true ]; then echo "FAIL $msg" >&2; exit 1; fi
    echo "SKIPPED $msg"
    exit 0
fi

work=$(mktemp -d /tmp/hipvis-fleet.XXXXXX)
# The segment directory on a tmpfs, as the unit's /run/hipvis/USER is.
seg=$(mktemp -d /dev/shm/hipvis-fleet.XXXXXX 2>/dev/null) || seg=$(mktemp -d "$work/run.XXXXXX")
PIDS=()
cleanup() {
    local p i alive
    if [ ${#PIDS[@]} -gt 0 ]; then
        kill -TERM "${PIDS[@]}" 2>/dev/null
        for i in $(seq 50); do
            alive=0
            for p in "${PIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
            [ $alive = 0 ] && break
            sleep 0.1
        done
        kill -KILL "${PIDS[@]}" 2>/dev/null
        wait 2>/dev/null
    fi
    rm -rf "$work" "$seg"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "== deploy/: rules, routes, unit"
rules=$deploy/prometheus/hipvis-rules.yml
out=$(promtool check rules "$rules" 2>&1)
check $? "promtool check rules hipvis-rules.yml" "$out"
out=$(cd "$deploy/prometheus" && promtool test rules hipvis-rules.test.yml 2>&1)
check $? "promtool test rules hipvis-rules.test.yml" "$out"
# Every alert has a unit test that expects it to fire.
for a in $(sed -n 's/^ *- alert: *\([A-Za-z0-9_]*\).*/\1/p' "$rules"); do
    n=$(awk -v a="$a" '$1 == "alertname:" && $2 == a {want = 1; next}
                       want && $1 == "exp_alerts:" {if ($2 != "[]") n++; want = 0} END {print n + 0}' \
        "$deploy/prometheus/hipvis-rules.test.yml")
    check "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "alert $a has a unit test where it fires ($n)"
done
am=$deploy/prometheus/alertmanager.yml
out=$(amtool check-config "$am" 2>&1)
check $? "amtool check-config alertmanager.yml" "$out"
for r in "error:hipvis-pager" "warning:hipvis-chat" "info:hipvis-ticket"; do
    out=$(amtool config routes test --config.file="$am" --verify.receivers="${r#*:}" \
          team=hipvis severity="${r%%:*}" alertname=HipvisNewFindingGroup 2>&1)
    check $? "a ${r%%:*} hipvis alert goes to ${r#*:}" "$out"
done

unit=$deploy/systemd/hipvis-sidecar@.service
# ExecStart=, continuation lines joined, for the user "fleet" and with the
# unit's paths moved into $work.
exec_start=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$unit" | sed 's/\\$//' | tr '\n' ' ' | sed 's/^ExecStart=//')
exec_start=${exec_start//%i/fleet}
exec_start=${exec_start//\/run\/hipvis\/fleet/$seg}
exec_start=${exec_start//\/var\/lib\/hipvis\/fleet/$work/state}
exec_start=${exec_start//\/usr\/local\/bin\/hipvis-sidecar/$build/hipvis-sidecar}
read -ra sidecar_cmd <<<"$exec_start"
help=$("$build/hipvis-sidecar" --help)
good=0
for o in $(printf '%s\n' "${sidecar_cmd[@]}" | grep '^-'); do
    grep -qE -- "(^|[ ,])$o( |,|$)" <<<"$help" || { echo "    unknown option $o"; good=1; }
done
check $good "the unit's ExecStart options are hipvis-sidecar's (--help)"
if command -v systemd-analyze >/dev/null 2>&1; then
    # Instantiated, with the sidecar the build made (verify wants the binary).
    sed "s#/usr/local/bin/hipvis-sidecar#$build/hipvis-sidecar#" "$unit" >"$work/hipvis-sidecar@fleet.service"
    out=$(cd "$work" && systemd-analyze verify --man=no ./hipvis-sidecar@fleet.service 2>&1)
    check "$([ $? -eq 0 ] && [ -z "$out" ] && echo 0 || echo 1)" "systemd-analyze verify hipvis-sidecar@.service" "$out"
else
    echo "  (systemd-analyze not installed: the unit's syntax is not verified)"
fi

echo "== live: node_exporter + Prometheus + hipvis-sidecar on 127.0.0.1"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p "$work/textfile" "$work/state/traces" "$work/tsdb"
# As the unit's ExecStartPre: a link in the textfile directory to the
# sidecar's metrics file in its own state directory.
ln -s "$work/state/hipvis.prom" "$work/textfile/hipvis-fleet.prom"

# start_daemon LOG URL CMD...: runs CMD under timeout(1) on a fresh free
# port (PORT in the arguments), waits until URL (PORT in it too) answers; a
# port taken meanwhile by someone else gets another try. Sets PORT.
start_daemon() {
    local log=$1 url=$2 try pid; shift 2
    for try in 1 2 3; do
        PORT=$(free_port)
        timeout -k 5 300 "${@//PORT/$PORT}" >>"$log" 2>&1 &
        pid=$!
        PIDS+=("$pid")
        python3 "$check_py" up "${url//PORT/$PORT}" 20 && return 0
        kill -TERM "$pid" 2>/dev/null
    done
    return 1
}

start_daemon "$work/node_exporter.log" "http://127.0.0.1:PORT/metrics" \
    prometheus-node-exporter --collector.disable-defaults --collector.textfile \
    --collector.textfile.directory="$work/textfile" --web.listen-address=127.0.0.1:PORT
check $? "prometheus-node-exporter answers (textfile collector)" "$(tail -3 "$work/node_exporter.log")"
node_port=$PORT

cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $rules
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$node_port"]
EOF
start_daemon "$work/prometheus.log" "http://127.0.0.1:PORT/-/ready" \
    prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
    --web.listen-address=127.0.0.1:PORT
check $? "prometheus is ready" "$(tail -3 "$work/prometheus.log")"
prom=http://127.0.0.1:$PORT

timeout -k 5 300 "${sidecar_cmd[@]}" --metrics-interval-ms 200 --scan-ms 200 --closed-grace-ms 300 \
    >"$work/sidecar.log" 2>&1 &
PIDS+=($!)
# The decode loop: a pinned copy then a graph replay reading it, same epoch
# (the demo's same-epoch-write, a warning).
HIPVIS_QUIET=1 HIPVIS_SIDECAR=1 HIPVIS_SIDECAR_DIR="$seg" LD_PRELOAD="$build/libhipvis.so" \
    LD_LIBRARY_PATH="$build/tests/double" timeout -k 5 60 "$build/tests/apps/decode_loop" \
    --steps 300 --prefill-every 8 >"$work/decode_loop.out" 2>"$work/decode_loop.err"
check $? "decode_loop ran traced (HIPVIS_SIDECAR=1)" "$(tail -3 "$work/decode_loop.err")"
for i in $(seq 100); do grep -q '^hipvis_findings_total{.*rule="same-epoch-write"} [1-9]' \
    "$work/state/hipvis.prom" 2>/dev/null && break; sleep 0.1; done
grep -q '^hipvis_findings_total{.*rule="same-epoch-write"} [1-9]' "$work/state/hipvis.prom" 2>/dev/null
check $? "the sidecar's metrics file counts the same-epoch-write finding" "$(tail -3 "$work/sidecar.log")"

python3 "$check_py" dashboard "$deploy/grafana/hipvis-fleet.json" "$rules" "$work/state/hipvis.prom"
n=$?; fail=$((fail + n))
python3 "$check_py" live "$prom" "$deploy/grafana/hipvis-fleet.json" decode_loop 90
n=$?; fail=$((fail + n))

if [ "$fail" -gt 0 ]; then
    for f in node_exporter prometheus sidecar; do echo "--- $f.log (tail)"; tail -5 "$work/$f.log"; done
fi
echo "fleet: $pass shell checks passed, $fail failed"
[ "$fail" -eq 0 ]
