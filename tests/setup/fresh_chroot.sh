#!/usr/bin/env bash
# fresh_chroot.sh - the README's two commands on a fresh Debian 12 system.
#
#   sudo tests/setup/fresh_chroot.sh [--keep] [--dir DIR] [--rev REV] [--rebuild-base]
#
# What it does (root only; needs the network to Debian's mirror; NOT part of
# `make check`):
#   1. base: a pristine `debootstrap --variant=minbase bookworm` tree from the
#      mirror this machine uses, with this machine's apt configuration copied
#      in (enabled sources + the keyrings they name, and the local apt.conf.d
#      files no package owns), so it resolves packages exactly as this machine
#      does. Cached as DIR/base.tar and reused (--rebuild-base makes a new one).
#   2. a fresh tree from base.tar; `git clone` of this checkout's REV (default
#      HEAD) into it, as the user would have got it (git is NOT installed in
#      the tree: the clone is made from outside, like a tarball would be).
#   3. prereq: `apt-get update && apt-get install -y make` (minbase has no
#      make, and `make demo` cannot be typed without it: the one step README
#      names for a machine without make).
#   4. non-root: as an ordinary user, `make demo` must exit non-zero after one
#      line naming the `apt-get install ...` command to run.
#   5. root: `make demo`, then `make check`, nothing else in between.
# Each stage runs in its own mount+pid namespace (own /proc, /sys, /dev with a
# private /dev/shm), with a clean login-like environment. Logs and a summary
# go to DIR/logs/<time>/; the tree is deleted at the end unless --keep.
# Exit 0 only if every stage passed.
set -uo pipefail

dir=${HIPVIS_FRESH_DIR:-/var/tmp/hipvis-fresh}
keep=0 rev=HEAD rebuild=0
while [ $# -gt 0 ]; do
    case $1 in
        --keep) keep=1 ;;
        --dir) dir=$2; shift ;;
        --dir=*) dir=${1#--dir=} ;;
        --rev) rev=$2; shift ;;
        --rev=*) rev=${1#--rev=} ;;
        --rebuild-base) rebuild=1 ;;
        -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "fresh_chroot.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ "$(id -u)" -ne 0 ]; then
    echo "fresh_chroot.sh: needs root (debootstrap, chroot, mounts): sudo $0 $*" >&2
    exit 2
fi
repo=$(git -C "$(dirname "$0")" rev-parse --show-toplevel) || exit 2
commit=$(git -C "$repo" rev-parse --verify "$rev^{commit}") || { echo "fresh_chroot.sh: no commit '$rev' in $repo" >&2; exit 2; }
mkdir -p "$dir" || exit 2
stamp=$(date -u +%Y%m%dT%H%M%SZ)
logs=$dir/logs/$stamp
mkdir -p "$logs"
root=$dir/root-$stamp
summary=$logs/summary.txt
say() { echo "fresh: $*" | tee -a "$summary"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.0f", b - a }'; }

# --- 1. the pristine base -------------------------------------------------
mirror() {  # the first bookworm main archive this machine's apt uses
    local m
    m=$(awk '/^URIs:/ { u = $2 } /^Suites:/ && / bookworm( |$)/ && u { print u; exit }' \
            /etc/apt/sources.list.d/*.sources 2>/dev/null)
    [ -n "$m" ] || m=$(grep -hsE '^deb +(\[[^]]*\] +)?[a-z]+://[^ ]+ +bookworm +' \
            /etc/apt/sources.list /etc/apt/sources.list.d/*.list | head -1 | sed -E 's/^deb +(\[[^]]*\] +)?([^ ]+).*/\2/')
    echo "${m:-http://deb.debian.org/debian}"
}
make_base() {
    local b=$dir/base-root m
    m=$(mirror)
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >>"$logs/base.log" 2>&1 || return 1
    rm -rf "$b"
    say "base: debootstrap --variant=minbase bookworm from $m (log: $logs/base.log)"
    debootstrap --variant=minbase bookworm "$b" "$m" >>"$logs/base.log" 2>&1 || return 1
    # This machine's apt configuration: enabled sources, the keyrings they
    # name, local apt.conf.d / preferences.d files (owned by no package).
    rm -f "$b/etc/apt/sources.list"
    local f k
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -s "$f" ] || continue
        mkdir -p "$b$(dirname "$f")" && cp -p "$f" "$b$f"
        echo "copied $f" >>"$logs/base.log"
        for k in $(sed -nE 's/.*[Ss]igned-[Bb]y(:|=) *([^] ]+).*/\2/p' "$f"); do
            [ -f "$k" ] && [ ! -e "$b$k" ] && mkdir -p "$b$(dirname "$k")" && cp -p "$k" "$b$k" &&
                echo "copied keyring $k" >>"$logs/base.log"
        done
    done
    for f in /etc/apt/apt.conf.d/* /etc/apt/preferences.d/* /etc/apt/trusted.gpg.d/*; do
        [ -f "$f" ] || continue
        [ -e "$b$f" ] && continue
        dpkg -S "$f" >/dev/null 2>&1 && continue
        cp -p "$f" "$b$f" && echo "copied $f" >>"$logs/base.log"
    done
    rm -f "$b"/var/cache/apt/archives/*.deb
    tar -C "$b" -cf "$dir/base.tar.new" . && mv "$dir/base.tar.new" "$dir/base.tar" && rm -rf "$b"
}
if [ "$rebuild" = 1 ] || [ ! -s "$dir/base.tar" ]; then
    make_base || { say "FAIL: could not make the base (tail of $logs/base.log:)"; tail -20 "$logs/base.log"; exit 1; }
else
    say "base: cached $dir/base.tar ($(date -u -r "$dir/base.tar" +%FT%TZ)); --rebuild-base for a new one"
fi

# --- 2. a fresh tree and the clone ----------------------------------------
mkdir -p "$root" && tar -C "$root" -xf "$dir/base.tar" || { say "FAIL: cannot unpack base.tar"; exit 1; }
cp -L /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
cleanup() {
    if [ "$keep" = 1 ]; then echo "fresh: kept $root"; else rm -rf --one-file-system "$root"; fi
}
trap cleanup EXIT
# An ordinary user for the non-root stage (passwd is in minbase).
chroot "$root" useradd -m -s /bin/bash hv >/dev/null 2>&1
for home in /root /home/hv; do
    git clone -q --no-hardlinks "$repo" "$root$home/hipvis" && git -C "$root$home/hipvis" checkout -q "$commit" ||
        { say "FAIL: git clone into $home"; exit 1; }
done
chroot "$root" chown -R hv:hv /home/hv/hipvis
say "clone: $(git -C "$repo" log -1 --format='%h %cd %s' --date=iso "$commit" | cut -c1-110)"

# run_in NAME USER CMD: CMD in the chroot, in a new mount+pid namespace, with
# a login-like environment; output to $logs/NAME.log; sets rc and dur.
# first_cc FILE: copies stdin to stdout; the time of the first compiler line
# goes to FILE (what came before it in `make demo` is the apt-get set-up).
first_cc() {
    local l seen=0
    while IFS= read -r l; do
        printf '%s\n' "$l"
        if [ $seen = 0 ] && [[ $l == "cc "* ]]; then seen=1; now >"$1"; fi
    done
}
run_in() {
    local name=$1 user=$2 cmd=$3 home=/root t0
    [ "$user" = root ] || home=/home/$user
    t0=$(now)
    rm -f "$logs/$name.cc"
    {
        echo "# $(date -u +%FT%TZ) [$user] $cmd"
        unshare --mount --pid --fork --propagation private bash -c '
            r=$1 user=$2 home=$3 cmd=$4
            mount --rbind /dev "$r/dev" && mount -t tmpfs -o mode=1777 tmpfs "$r/dev/shm" &&
            mount -t proc proc "$r/proc" && mount -t sysfs sysfs "$r/sys" || exit 97
            exec chroot "$r" /usr/bin/env -i HOME="$home" USER="$user" LOGNAME="$user" SHELL=/bin/bash \
                TERM=dumb PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
                setpriv --reuid="$user" --regid="$user" --init-groups bash -c "cd \$HOME/hipvis 2>/dev/null; $cmd"
        ' - "$root" "$user" "$home" "$cmd" </dev/null 2>&1
    } | first_cc "$logs/$name.cc" >"$logs/$name.log"
    rc=${PIPESTATUS[0]}
    echo "# exit $rc" >>"$logs/$name.log"
    dur=$(secs "$t0" "$(now)")
    setup_s=?
    [ -s "$logs/$name.cc" ] && setup_s=$(secs "$t0" "$(cat "$logs/$name.cc")")
}
pass=0 fail=0
result() {  # result NAME OK(0/1) WHAT
    if [ "$2" = 0 ]; then pass=$((pass + 1)); say "PASS $1: $3"
    else fail=$((fail + 1)); say "FAIL $1: $3"; sed 's/^/    | /' <(tail -25 "$logs/$1.log") | tee -a "$summary"; fi
}

# --- 3. make, the one preliminary step ------------------------------------
run_in prereq root 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq make'
result prereq $([ $rc = 0 ] && echo 0 || echo 1) "apt-get install make: exit $rc, ${dur}s"

# --- 4. not root: one line naming apt-get, then stop ----------------------
run_in demo-nonroot hv 'make demo'
lines=$(grep -vc '^#' "$logs/demo-nonroot.log")
ok=$([ $rc -ne 0 ] && grep -q 'apt-get update && apt-get install -y ' "$logs/demo-nonroot.log" &&
     [ ! -e "$root/home/hv/hipvis/build" ] && echo 0 || echo 1)
result demo-nonroot "$ok" "make demo as user hv: exit $rc, ${dur}s, $lines line(s) of output, names apt-get and builds nothing"
grep -v '^#' "$logs/demo-nonroot.log" | sed 's/^/    > /' | head -5 | tee -a "$summary"

# --- 5. root: make demo, then make check ----------------------------------
run_in demo root 'make demo'
ok=$([ $rc = 0 ] && grep -q '^demo: trace ' "$logs/demo.log" && echo 0 || echo 1)
result demo "$ok" "make demo as root: exit $rc, ${dur}s (of which ${setup_s}s set-up: apt-get installing the packages, until the first compile)"
demo_s=$dur
run_in check root 'make check'
ok=$([ $rc = 0 ] && grep -q 'make check: all suites passed' "$logs/check.log" && echo 0 || echo 1)
result check "$ok" "make check as root: exit $rc, ${dur}s"
say "tail of make demo:"; grep -v '^#' "$logs/demo.log" | tail -8 | sed 's/^/    | /' | tee -a "$summary"
say "tail of make check:"; grep -v '^#' "$logs/check.log" | tail -8 | sed 's/^/    | /' | tee -a "$summary"
grep -h 'SKIPPED' "$logs/check.log" 2>/dev/null | sort -u | sed 's/^ */    skipped: /' | tee -a "$summary"
say "durations: make demo ${demo_s}s, make check ${dur}s; load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$fail" = 0 ]; then say "PASS ($pass stages) on $(git -C "$repo" log -1 --format=%h "$commit"); logs: $logs"; exit 0; fi
say "FAIL ($fail of $((pass + fail)) stages) on $(git -C "$repo" log -1 --format=%h "$commit"); logs: $logs"
exit 1
