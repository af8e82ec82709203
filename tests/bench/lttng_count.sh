#!/usr/bin/env bash
# babeltrace2's event counter on an LTTng-UST trace of N events, on one core.
#
#   lttng_count.sh BUILD_DIR N TMPDIR
#
# Self-contained: a session daemon of its own (LTTNG_HOME in TMPDIR; as root
# it runs as nobody, so it never meets a system-wide daemon), a blocking
# channel (no event discarded), stopped and removed again; bounded by
# timeouts. Prints events/s and bytes per event of the CTF trace.
set -u
build=$1 n=$2 tmp=$3
home=$tmp/lttng-home
mkdir -p "$home" && chmod 777 "$tmp" "$home"
as=()
[ "$(id -u)" = 0 ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
run() { timeout 120 env LTTNG_HOME="$home" HOME="$home" "${as[@]}" "$@"; }
run lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 || { echo "  lttng-sessiond did not start: babeltrace2 not measured"; exit 0; }
pid=$(cat "$home/.lttng/lttng-sessiond.pid" 2>/dev/null)
stop_daemon() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; }
trap stop_daemon EXIT
ok=1
run lttng create hvb --output="$tmp/ctf" >/dev/null &&
    run lttng enable-channel -u ch --subbuf-size=4M --num-subbuf=8 --blocking-timeout=inf >/dev/null &&
    run lttng enable-event -u -c ch 'hvbench:call' >/dev/null && run lttng start >/dev/null || ok=0
[ $ok = 1 ] && LTTNG_UST_ALLOW_BLOCKING=1 run "$build/tests/bench/lttng_loop" "$n" >/dev/null || ok=0
run lttng stop >/dev/null 2>&1
run lttng destroy >/dev/null 2>&1
stop_daemon
pid=
if [ $ok = 0 ] || [ ! -d "$tmp/ctf" ]; then
    echo "  the LTTng session failed: babeltrace2 not measured"
    exit 0
fi
bytes=$(du -sb "$tmp/ctf" | cut -f1)
t0=$(date +%s.%N)
out=$(timeout 600 taskset -c 0 babeltrace2 "$tmp/ctf" -c sink.utils.counter 2>&1)
t1=$(date +%s.%N)
events=$(echo "$out" | awk '/Event messages/ {n=$1} END {print n}')
python3 -c "
n=int('${events:-0}' or 0); dt=$t1-$t0
print(f'  babeltrace2 -c sink.utils.counter, taskset -c 0: {n} events in {dt:.2f} s = {n/dt/1e6:.2f} M events/s; '
      f'CTF trace {$bytes/max(n,1):.1f} B/event uncompressed')"
[ -n "${HV_KEEP_CTF:-}" ] || rm -rf "$tmp/ctf"
