#!/usr/bin/env bash
# setup.sh - the set-up step of `make demo` / `make check` (.ci/run --deps),
# on stubs: dpkg-query reports chosen packages missing, apt-get only logs,
# id says root or not. Checks: as root the missing packages are installed
# (apt-get update, then install -y, non-interactive); not root, one line
# names the exact command and nothing is installed, and make stops before
# building; nothing missing, nothing happens; .ci/run still ends in
# `make check`. A real unprivileged user (setpriv, when run as root) gets
# the same one line.
#
#   setup.sh            (from the repository root)
set -uo pipefail
root=$(pwd)
tmp=$(mktemp -d /tmp/hipvis-setup.XXXXXX)
chmod 755 "$tmp"
pass=0 fail=0
check() {  # check COND_RC WHAT [DETAIL]
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "  ok   $2"; else fail=$((fail + 1)); echo "  FAIL $2${3:+: $3}"; fi
}

stub=$tmp/stub
mkdir -p "$stub"
cat >"$stub/dpkg-query" <<'S'
#!/bin/sh
# -W -f=FORMAT PKG...: installed ones as "name:install ok installed", except
# $STUB_MISSING; exits 1 when any is missing, as the real one does (a fresh
# machine's normal case: .ci/run once died of it under set -e and pipefail).
shift 2
rc=0
for p in "$@"; do
  case " $STUB_MISSING " in *" $p "*) echo "dpkg-query: no packages found matching $p" >&2; rc=1 ;;
  *) echo "$p:install ok installed" ;; esac
done
exit $rc
S
cat >"$stub/apt-get" <<'S'
#!/bin/sh
echo "apt-get $* DEBIAN_FRONTEND=$DEBIAN_FRONTEND" >>"$STUB_LOG"
S
cat >"$stub/id" <<'S'
#!/bin/sh
echo "$STUB_UID"
S
cat >"$stub/make" <<'S'
#!/bin/sh
echo "make $*" >>"$STUB_LOG"
S
chmod 755 "$stub"/*
export STUB_LOG=$tmp/log

deps() {  # deps UID MISSING [ARGS...]: runs .ci/run with the stubs first on PATH
    local uid=$1 missing=$2
    shift 2
    : >"$STUB_LOG"
    STUB_UID=$uid STUB_MISSING=$missing PATH="$stub:$PATH" bash "$root/.ci/run" "$@" >"$tmp/out" 2>"$tmp/err"
}

echo "setup: .ci/run --deps on stubs"
deps 1000 "libzstd-dev llvm-22-dev" --deps
rc=$?
want="as root run: apt-get update && apt-get install -y libzstd-dev llvm-22-dev"
check $([ $rc -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qF "$want" "$tmp/err" && echo 0 || echo 1) \
    "not root, two packages missing: exit 1, one line naming the exact command" "rc=$rc $(cat "$tmp/err")"
check $([ ! -s "$STUB_LOG" ] && echo 0 || echo 1) "... and nothing installed" "$(cat "$STUB_LOG")"

deps 0 "libzstd-dev llvm-22-dev" --deps
rc=$?
check $([ $rc -eq 0 ] && [ "$(sed -n 1p "$STUB_LOG")" = "apt-get update -qq DEBIAN_FRONTEND=noninteractive" ] &&
        [ "$(sed -n 2p "$STUB_LOG")" = "apt-get install -y -qq libzstd-dev llvm-22-dev DEBIAN_FRONTEND=noninteractive" ] &&
        [ "$(wc -l <"$STUB_LOG")" -eq 2 ] && echo 0 || echo 1) \
    "root: apt-get update, then install -y of exactly the missing packages, non-interactive" "rc=$rc $(cat "$STUB_LOG")"

deps 1000 "" --deps
rc=$?
check $([ $rc -eq 0 ] && [ ! -s "$tmp/err" ] && [ ! -s "$STUB_LOG" ] && echo 0 || echo 1) \
    "nothing missing: silent, exit 0, no apt-get" "rc=$rc $(cat "$tmp/err")"

deps 0 ""
rc=$?
check $([ $rc -eq 0 ] && [ "$(cat "$STUB_LOG")" = "make check" ] && echo 0 || echo 1) \
    ".ci/run (CI): ends in the README's test command, make check" "rc=$rc $(cat "$STUB_LOG")"

echo "setup: make demo / make check run it first"
# The stub make is for .ci/run's last line: call the real one by path, on
# its own: under `make -jN check` the outer make's jobserver flags would make
# it print a warning line of its own on stderr, which these checks count.
real_make="env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL $(command -v make)"
for goal in demo check; do
    : >"$STUB_LOG"
    STUB_UID=1000 STUB_MISSING=libamdhip64-dev PATH="$stub:$PATH" $real_make -n -C "$root" --no-print-directory "$goal" \
        >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check $([ $rc -ne 0 ] && grep -qF "apt-get update && apt-get install -y libamdhip64-dev" "$tmp/err" &&
            [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] && echo 0 || echo 1) \
        "make $goal, not root, a package missing: one line naming the command, make stops before building" "rc=$rc $(cat "$tmp/err")"
done
: >"$STUB_LOG"
STUB_UID=0 STUB_MISSING=libamdhip64-dev PATH="$stub:$PATH" $real_make -n -C "$root" --no-print-directory demo \
    >"$tmp/out" 2>"$tmp/err"
rc=$?
check $([ $rc -eq 0 ] && grep -q "^apt-get install -y -qq libamdhip64-dev" "$STUB_LOG" && echo 0 || echo 1) \
    "make demo as root: installs the missing package, then goes on" "rc=$rc $(cat "$STUB_LOG") $(tail -3 "$tmp/err")"

if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
    echo "setup: a real unprivileged user (setpriv --reuid=nobody)"
    nostub=$tmp/nostub
    mkdir -p "$nostub"
    cp "$stub/dpkg-query" "$nostub/"
    : >"$STUB_LOG"
    chmod 666 "$STUB_LOG"
    # A copy nobody can read: the checkout may sit under /root (mode 0700).
    mkdir -p "$tmp/repo/.ci" && cp "$root/.ci/run" "$tmp/repo/.ci/run" && chmod -R a+rX "$tmp/repo"
    STUB_MISSING=hipcc PATH="$nostub:$stub-none:$PATH" setpriv --reuid=nobody --regid=nogroup --clear-groups \
        bash "$tmp/repo/.ci/run" --deps >"$tmp/out" 2>"$tmp/err"
    rc=$?
    check $([ $rc -eq 1 ] && grep -qF "as root run: apt-get update && apt-get install -y hipcc" "$tmp/err" && echo 0 || echo 1) \
        "nobody, hipcc missing: exit 1 and the exact apt-get line" "rc=$rc $(cat "$tmp/err")"
fi

echo "setup: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && rm -rf "$tmp"
[ "$fail" -eq 0 ]
