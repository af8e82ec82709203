#!/usr/bin/env bash
# Tracer lifecycle end to end: loops, exiting threads, fork, exec, SIGKILL,
# calls before the constructor, bad configuration. Runs core_app on the
# TEST-ONLY runtime double under LD_PRELOAD=libhipvis.so.
#   lifecycle.sh BUILD_DIR RUNTIME_DIR
set -u
build=$(cd "$1" && pwd); rtdir=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
app=$build/tests/core/core_app
early=$build/tests/core/core_app_early
lib=$build/libhipvis.so
dump=$build/hipvis-dump
count="python3 $here/trace_count.py $dump"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
pass=0; fail=0
ok()  { pass=$((pass+1)); echo "PASS $1"; }
bad() { fail=$((fail+1)); echo "FAIL $1"; }
traced() { LD_LIBRARY_PATH=$rtdir HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/$1.%p.zst" LD_PRELOAD=$lib "${@:2}"; }
one() { ls "$work"/$1.*.zst 2>/dev/null | head -1; }

# 1. A loop: every call recorded, footer present. 20 x (memcpy+sync) + setup.
traced loop "$app" loop 20 >/dev/null
if $count "$(one loop)" hipMemcpyAsync=20 hipStreamSynchronize=20 hipMalloc=1 hipFree=1 footer; then ok loop; else bad loop; fi
# Traces hold bytes of the program's memory (payloads): owner-only.
if [ "$(stat -c %a "$(one loop)")" = 600 ]; then ok trace-mode-0600; else bad "trace mode $(stat -c %a "$(one loop)")"; fi

# 2. Threads that exit, then new threads: 8 threads x 2 rounds x 50 copies.
traced threads "$app" threads 50 8 >/dev/null
if $count "$(one threads)" hipMemcpyAsync=800 hipStreamCreate=16 footer; then ok threads-exit; else bad threads-exit; fi

# 3. Fork: the child gets its own trace; the parent's holds only its own calls.
traced fork "$app" fork 10 >/dev/null
files=( "$work"/fork.*.zst )
got=""
for f in "${files[@]}"; do
  got="$got $($dump --json "$f" | grep -c '"api":"hipMemcpyAsync"')"
done
# Parent: 10 before + 10 after the fork; child: its own 10, none of the
# parent's pre-fork records.
if [ "$(echo $got | tr ' ' '\n' | sort -n | tr '\n' ' ')" = "10 20 " ]; then ok fork; else bad "fork (copies per trace:$got)"; fi

# 4. Exec: the first image's trace is closed with a footer before exec; the
#    new image (same pid) writes a second file instead of overwriting it.
traced exec "$app" exec 5 >/dev/null
files=( "$work"/exec.* )
if [ "${#files[@]}" -eq 2 ] && $count "${files[0]}" hipMemcpyAsync=5 footer >/dev/null && $count "${files[1]}" hipMemcpyAsync=5 footer >/dev/null; then
  ok exec
else
  bad "exec (${#files[@]} files)"; for f in "${files[@]}"; do $count "$f"; done
fi

# 5. SIGKILL mid-loop: the trace is readable up to the last flush.
LD_LIBRARY_PATH=$rtdir HIPVIS_QUIET=1 HIPVIS_FLUSH_MS=10 HIPVIS_OUTPUT="$work/kill.%p.zst" LD_PRELOAD=$lib \
  "$app" forever > "$work/kill.out" &
pid=$!
for _ in $(seq 1 200); do grep -q "iter 500" "$work/kill.out" 2>/dev/null && break; sleep 0.05; done
sleep 0.2
# Iterations the app reported 200 ms (20 flush periods) before the kill must
# all be in the trace. (Comparing with the last line printed before the kill
# is racy: at ~60k iterations/s one 10 ms flush period alone is ~600
# iterations, more when the writer thread waits for a CPU.)
mark=$(tail -1 "$work/kill.out" | awk '{print $2}')
sleep 0.2
kill -KILL $pid; wait $pid 2>/dev/null
last=$(tail -1 "$work/kill.out" | awk '{print $2}')
f=$(one kill)
# No footer (killed); every complete frame is readable (dump exits 0 or 2 at
# a torn last frame) and holds at least the iterations reported by the mark.
if [ -n "$f" ] && $count "$f" "hipMemcpyAsync>=${mark:-1}" nofooter; then ok "sigkill (app reported $mark iterations 200 ms before the kill, $last at the kill)"; else bad sigkill; fi

# 6. A call made before hipvis's constructor ran (from another library's constructor).
traced early "$early" loop 1 >/dev/null
if $count "$(one early)" hipMalloc=2 footer; then ok early-ctor; else bad early-ctor; fi

# 7. Bad configuration: named variable and accepted values on stderr, the
#    program's own output and exit status unchanged, no trace.
out=$(LD_LIBRARY_PATH=$rtdir HIPVIS_RING_KB=abc HIPVIS_OUTPUT="$work/cfg.%p.zst" LD_PRELOAD=$lib "$app" loop 3 2>"$work/cfg.err"); rc=$?
if [ $rc -eq 0 ] && grep -q 'HIPVIS_RING_KB="abc" is not accepted: expected an integer 16..1048576' "$work/cfg.err" && [ -z "$(one cfg)" ]; then
  ok bad-config
else
  bad "bad-config (rc=$rc)"; cat "$work/cfg.err"
fi

# 7a. One parser for every setting: no blank, no sign; an empty value means
#     the default for every variable (integers and paths alike).
good=1
for v in " 1024" "+1024" "1024 " "0x400"; do
  LD_LIBRARY_PATH=$rtdir HIPVIS_RING_KB="$v" HIPVIS_OUTPUT="$work/cfg2.%p.zst" LD_PRELOAD=$lib "$app" loop 1 2>"$work/cfg2.err" >/dev/null
  grep -q "HIPVIS_RING_KB=\"$v\" is not accepted: expected an integer 16..1048576" "$work/cfg2.err" || { echo "  '$v' accepted"; good=0; }
done
[ -z "$(one cfg2)" ] || good=0
mkdir -p "$work/emptycwd"
( cd "$work/emptycwd" && LD_LIBRARY_PATH=$rtdir HIPVIS_QUIET=1 HIPVIS_OUTPUT= HIPVIS_RING_KB= HIPVIS_SIDECAR_DIR= \
  LD_PRELOAD=$lib "$app" loop 1 >/dev/null 2>"$work/empty.err" )
[ -s "$work/empty.err" ] && { echo "  empty values complained:"; cat "$work/empty.err"; good=0; }
ls "$work/emptycwd"/hipvis.*.zst >/dev/null 2>&1 || { echo "  empty HIPVIS_OUTPUT did not mean the default"; good=0; }
[ $good = 1 ] && ok "settings: ' 1', '+1', '1 ', '0x400' rejected; empty = default everywhere" || bad settings-parser

# 7b. A trace that cannot be created names the variable it came from.
( cd "$work" && LD_LIBRARY_PATH=$rtdir HIPVIS_OUTPUT="relative/missing/t.%p.zst" LD_PRELOAD=$lib "$app" loop 2 >/dev/null 2>"$work/out.err" )
if grep -q 'HIPVIS_OUTPUT="relative/missing/t.%p.zst": cannot create the trace: No such file or directory' "$work/out.err"; then
  ok output-error-names-variable
else
  bad output-error-names-variable; cat "$work/out.err"
fi

# 7c. The command line is in the header (/proc/self/cmdline at set-up, whole
#     arguments, at most 4 KiB: docs/output-files.md); a fork child's and an exec'd
#     image's traces carry theirs; HIPVIS_RECORD_ARGV=0 leaves it out and a
#     bad value is named like every setting.
argv_of() { $dump --json "$1" 2>/dev/null | python3 -c '
import json, sys
h = json.loads(sys.stdin.readline())
print(json.dumps([h["argv"], h["argc"], h["argv_truncated"], h["argv_off"]]))'; }
want() { python3 -c 'import json, sys; print(json.dumps([sys.argv[4:], len(sys.argv) - 4, sys.argv[1] == "1", sys.argv[2] == "1"]))' "$@"; }
good=1
[ "$(argv_of "$(one loop)")" = "$(want 0 0 - "$app" loop 20)" ] || { echo "  loop: $(argv_of "$(one loop)")"; good=0; }
for f in "$work"/fork.*.zst; do
  [ "$(argv_of "$f")" = "$(want 0 0 - "$app" fork 10)" ] || { echo "  fork: $(argv_of "$f")"; good=0; }
done
exec2=$(ls -tr "$work"/exec.* | tail -1)
[ "$(argv_of "$exec2")" = "$(want 0 0 - "$app" loop 5)" ] || { echo "  exec: $(argv_of "$exec2")"; good=0; }
[ $good = 1 ] && ok argv-recorded || bad argv-recorded
# 1500 x "x y" (4 bytes with its NUL): the arguments that fit in 4096 bytes
# with the first three, whole; the rest counted as truncated.
long=(); for i in $(seq 1 1500); do long+=("x y"); done
traced argvlong "$app" loop 1 "${long[@]}" >/dev/null
fit=$(( (4096 - ${#app} - 1 - 5 - 2) / 4 ))
if [ "$(argv_of "$(one argvlong)")" = "$(want 1 0 - "$app" loop 1 "${long[@]:0:$fit}")" ]; then
  ok "argv-truncated (whole arguments, $((fit + 3)) of 1503)"
else
  bad argv-truncated; argv_of "$(one argvlong)" | cut -c1-200
fi
LD_LIBRARY_PATH=$rtdir HIPVIS_QUIET=1 HIPVIS_RECORD_ARGV=0 HIPVIS_OUTPUT="$work/argvoff.%p.zst" LD_PRELOAD=$lib \
  "$app" loop 1 secret-token >/dev/null
if [ "$(argv_of "$(one argvoff)")" = "$(want 0 1 -)" ] && ! $dump --json "$(one argvoff)" | grep -q secret-token; then
  ok argv-off
else
  bad argv-off; argv_of "$(one argvoff)"
fi
out=$(LD_LIBRARY_PATH=$rtdir HIPVIS_RECORD_ARGV=no HIPVIS_OUTPUT="$work/argvbad.%p.zst" LD_PRELOAD=$lib "$app" loop 1 2>"$work/argvbad.err"); rc=$?
if [ $rc -eq 0 ] && grep -q 'HIPVIS_RECORD_ARGV="no" is not accepted: expected an integer 0..1' "$work/argvbad.err" && [ -z "$(one argvbad)" ]; then
  ok argv-bad-value
else
  bad "argv-bad-value (rc=$rc)"; cat "$work/argvbad.err"
fi

# 8. Loads into programs that never touch the runtime: no thread, no file.
HIPVIS_OUTPUT="$work/bash.%p.zst" LD_PRELOAD=$lib bash -c 'true' && [ -z "$(one bash)" ] && ok no-gpu-process || bad no-gpu-process

# 9. Every lifecycle's footer adds up (written + dropped by cause == made),
#    and its calls are the calls made while that file was open.
#    Failed exec: the process goes on into a second file; that footer counts
#    only what happened since (2 x 10 copies + 4 setup calls per copies(10)).
traced execfail "$app" execfail 10 >/dev/null
files=( $(ls -tr "$work"/execfail.*) )
if [ "${#files[@]}" -eq 2 ] && $count "${files[0]}" hipMemcpyAsync=10 footer footer.calls=24 >/dev/null &&
   $count "${files[1]}" hipMemcpyAsync=10 footer footer.calls=24 >/dev/null; then
  ok failed-exec
else
  bad "failed-exec (${#files[@]} files)"; for f in "${files[@]}"; do $count "$f" footer footer.calls=24; done
fi
# stderr of the second file says what its footer says.
LD_LIBRARY_PATH=$rtdir HIPVIS_OUTPUT="$work/execfail2.%p.zst" LD_PRELOAD=$lib "$app" execfail 10 >/dev/null 2>"$work/execfail2.err"
if grep -q ': 24 calls, [0-9]* records written' "$work/execfail2.err" && [ "$(grep -c ': 24 calls' "$work/execfail2.err")" -eq 2 ]; then
  ok failed-exec-stderr
else
  bad failed-exec-stderr; cat "$work/execfail2.err"
fi
traced vfork "$app" vfork 10 >/dev/null
if $count "$(one vfork)" hipMemcpyAsync=20 footer >/dev/null; then ok vfork; else bad vfork; $count "$(one vfork)" hipMemcpyAsync=20 footer; fi
traced cancel "$app" cancel 10 >/dev/null
if $count "$(one cancel)" "hipMemcpyAsync>=21" footer >/dev/null; then ok thread-cancel; else bad thread-cancel; $count "$(one cancel)" footer; fi

# 10. Write errors (here the file size limit; ENOSPC takes the same path):
#     the writer stops writing, says so once on stderr, and the footer counts
#     every record that did not reach the file under write_error; the
#     analyzer reports the loss and exits 1.
( trap '' XFSZ; ulimit -f 8   # KiB: encoded v2 frames are small
  LD_LIBRARY_PATH=$rtdir HIPVIS_FLUSH_MS=5 HIPVIS_OUTPUT="$work/fsize.%p.zst" LD_PRELOAD=$lib "$app" loop 50000 >/dev/null 2>"$work/fsize.err" )
f=$(one fsize)
# The writer keeps room for the footer below the limit (trace_writer.c,
# reserve()): the footer is always there and counts the loss under write_error.
if [ -n "$f" ] && $count "$f" footer "footer.dropped.write_error>=1" >/dev/null &&
   [ "$(grep -c 'failed: File too large; no more records are written' "$work/fsize.err")" -eq 1 ] &&
   { "$build/hipvis-analyze" "$f" >"$work/fsize.an" 2>&1; [ $? -eq 1 ]; } && grep -q 'records-dropped\|trace-truncated' "$work/fsize.an"; then
  ok write-error
else
  bad write-error; cat "$work/fsize.err"; [ -n "$f" ] && $count "$f" footer "footer.dropped.write_error>=1"
fi

# 11. A crash before the first timed flush: the frames forced out by full
#     chunks carry the drop totals (writer_crash runs the real writer thread
#     with a timed flush that never comes and copies the file mid-run), and
#     the analyzer does not call a trace without a footer clean: it exits 1.
mkdir -p "$work/wcrash"
if "$build/tests/core/writer_crash" "$work/wcrash" >/dev/null && $count "$work/wcrash/crash-copy.zst" nofooter "drops>=1" >/dev/null &&
   $count "$(ls "$work"/wcrash/clean.*.zst)" footer "drops>=1" >/dev/null; then
  ok forced-frame-drops
else
  bad forced-frame-drops; $count "$work/wcrash/crash-copy.zst" nofooter "drops>=1"
fi
LD_LIBRARY_PATH=$rtdir HIPVIS_QUIET=1 HIPVIS_OUTPUT="$work/crash.%p.zst" LD_PRELOAD=$lib "$app" crash 20 >/dev/null 2>&1
f=$(one crash)
if [ -n "$f" ] && { "$build/hipvis-analyze" "$f" >"$work/crash.an" 2>&1; [ $? -eq 1 ]; } && grep -q 'trace-truncated' "$work/crash.an"; then
  ok crash-not-clean
else
  bad crash-not-clean; cat "$work/crash.an"
fi

echo "core: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
