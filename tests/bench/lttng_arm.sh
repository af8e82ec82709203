#!/bin/sh
# The LTTng-UST arm of bench-intercept's threads section: runs
# bench_intercept_lttng --threads (direct, libhipvis and LTTng-UST arms side
# by side, 1 and 2 threads) under LD_PRELOAD=libhipvis.so while an LTTng
# session records its tracepoint, as an LTTng user would run it: per-CPU
# buffers, 8 x 1 MiB, vtid context. Skips with a message when lttng-tools or
# the binary (liblttng-ust-dev) is missing. A session daemon this script
# starts is stopped by its pid; one already running is left alone.
# usage: lttng_arm.sh BENCH_BIN LIBHIPVIS WORKDIR
bin=$1 lib=$2 work=$3
if [ ! -x "$bin" ]; then
    echo "bench-intercept: LTTng-UST arm skipped: liblttng-ust-dev not installed (bench_intercept_lttng not built)"
    exit 0
fi
if ! command -v lttng >/dev/null 2>&1 || ! command -v lttng-sessiond >/dev/null 2>&1; then
    echo "bench-intercept: LTTng-UST arm skipped: lttng-tools not installed"
    exit 0
fi
mkdir -p "$work"
started=
if ! lttng list >/dev/null 2>&1; then
    lttng-sessiond --daemonize --no-kernel >/dev/null 2>&1 ||
        { echo "bench-intercept: LTTng-UST arm skipped: lttng-sessiond did not start"; exit 0; }
    # Its pid file: the root daemon's run directory, or the user's.
    for f in /var/run/lttng/lttng-sessiond.pid "${LTTNG_HOME:-$HOME}/.lttng/lttng-sessiond.pid"; do
        [ -z "$started" ] && [ -r "$f" ] && started=$(cat "$f")
    done
fi
name=hipvis-bench-$$
cleanup() {
    lttng destroy "$name" >/dev/null 2>&1
    [ -n "$started" ] && kill "$started" 2>/dev/null
    rm -rf "$work/lttng-$$"
}
trap cleanup EXIT
lttng create "$name" --output="$work/lttng-$$" >/dev/null &&
    lttng enable-channel -u --subbuf-size=1M --num-subbuf=8 chan >/dev/null &&
    lttng enable-event -u -c chan 'hipvis_bench:*' >/dev/null &&
    lttng add-context -u -c chan -t vtid >/dev/null &&
    lttng start >/dev/null || { echo "bench-intercept: LTTng-UST arm skipped: no session"; exit 0; }
HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/lttng-arm.%p.zst" LD_PRELOAD="$lib" "$bin" --threads
lttng stop >/dev/null 2>&1
lost=$(lttng list "$name" 2>/dev/null | grep -o "[0-9]* events* discarded" | head -1)
echo "bench-intercept: LTTng-UST session: ${lost:-no discarded events reported}"
rm -f "$work"/lttng-arm.*.zst
