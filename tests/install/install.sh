#!/usr/bin/env bash
# install.sh BUILD - `make install` into a scratch DESTDIR, then what a user
# of the installed tree relies on: every installed header has the library
# that implements it (a program built from the installed reader.h and
# libhipvis-reader.a alone reads a trace), libhipvis.so is stripped but
# still exports its interposers, and hipvis-analyze does not pull
# libLLVM / z3 / ICU at start (readelf -d, and the loader's own log) while
# --diagnose still loads LLVM when it needs the disassembler.
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(pwd)
tmp=$(mktemp -d /tmp/hipvis-install.XXXXXX)
dest=$tmp/dest
prefix=/usr/local
p=$dest$prefix
pass=0 fail=0
check() {  # check RC WHAT [DETAIL]
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "  ok   $2"; else fail=$((fail + 1)); echo "  FAIL $2${3:+: $3}"; fi
}
ok() { "$@" >/dev/null 2>&1 && echo 0 || echo 1; }

make --no-print-directory -C "$root" BUILD="$build" DESTDIR="$dest" PREFIX="$prefix" install >"$tmp/install.log" 2>&1
check $? "make install DESTDIR=... PREFIX=$prefix" "$(tail -5 "$tmp/install.log")"

# Headers: each compiles on its own, from the installed tree only.
for h in "$p"/include/hipvis/*.h; do
    echo "#include <hipvis/$(basename "$h")>" >"$tmp/h.c"
    check "$(ok cc -std=c11 -Wall -Werror -fsyntax-only -I"$p/include" "$tmp/h.c")" \
        "installed header $(basename "$h") compiles alone"
done
# reader.h comes with its library.
if [ -f "$p/include/hipvis/reader.h" ]; then
    check "$(ok cc -std=c11 -I"$p/include" "$root/tests/install/count_records.c" "$p/lib/libhipvis-reader.a" -lzstd \
        -o "$tmp/count_records")" "a program using the installed reader.h links against the installed libhipvis-reader.a"
fi

trace=$tmp/t.zst
LD_LIBRARY_PATH=$build/tests/double HIPVIS_QUIET=1 HIPVIS_OUTPUT=$trace LD_PRELOAD=$p/lib/libhipvis.so \
    "$build/tests/apps/decode_loop" --steps 20 >/dev/null 2>&1
check "$([ -s "$trace" ] && echo 0 || echo 1)" "the installed (stripped) libhipvis.so traces the decode loop"
if [ -x "$tmp/count_records" ]; then
    n=$("$tmp/count_records" "$trace")
    d=$("$p/bin/hipvis-dump" "$trace" | grep -c '^#[0-9]')
    check "$([ -n "$n" ] && [ "$n" -gt 0 ] && [ "$n" = "$d" ] && echo 0 || echo 1)" \
        "... and that program reads it: $n records, as hipvis-dump" "count=$n dump=$d"
fi

# Stripped, still interposing.
secs=$(readelf -S "$p/lib/libhipvis.so")
check "$(grep -qE '\.symtab|\.debug_' <<<"$secs" && echo 1 || echo 0)" "libhipvis.so is stripped (no .symtab, no .debug_*)"
dyn=$(readelf --dyn-syms "$p/lib/libhipvis.so")
check "$(grep -qw hipMemcpyAsync <<<"$dyn" && echo 0 || echo 1)" \
    "... and still exports its interposers (hipMemcpyAsync)"

# The analyzer starts without LLVM.
needed=$(readelf -d "$p/bin/hipvis-analyze" | grep NEEDED)
check "$(grep -qiE 'llvm|z3|icu|stdc\+\+' <<<"$needed" && echo 1 || echo 0)" \
    "hipvis-analyze needs no libLLVM / z3 / ICU / libstdc++ (readelf -d)" "$needed"
LD_DEBUG=files "$p/bin/hipvis-analyze" --fail-on=none "$trace" >/dev/null 2>"$tmp/ld.log"
check "$(grep -q 'libLLVM' "$tmp/ld.log" && echo 1 || echo 0)" "... nor loads it for an ordinary analysis (LD_DEBUG=files)"
if [ -f "$build/libhvcodeobj-scalar.a" ] && [ -f "$build/tests/apps/decode_kernels-gfx950.hsaco" ]; then
    LD_DEBUG=files "$p/bin/hipvis-analyze" --fail-on=none --diagnose \
        --code-object "$build/tests/apps/decode_kernels-gfx950.hsaco" "$trace" >"$tmp/diag.txt" 2>"$tmp/ld.log"
    check "$(grep -q 'file=libLLVM\|libLLVM.so' "$tmp/ld.log" && ! grep -q 'exposure unavailable' "$tmp/diag.txt" &&
             echo 0 || echo 1)" "--diagnose loads libLLVM (dlopen) for the scalar-exposure check"
fi

for m in hipvis hipvis-analyze hipvis-dump hipvis-sidecar; do
    check "$([ -s "$p/share/man/man1/$m.1" ] && echo 0 || echo 1)" "man page $m.1 installed"
done

# Bash completion: one file, installed under each tool's name; it completes
# every option of each installed tool's --help, and values by placeholder.
comp=$p/share/bash-completion/completions
for t in hipvis hipvis-analyze hipvis-dump hipvis-sidecar; do
    check "$([ -f "$comp/$t" ] && echo 0 || echo 1)" "bash completion for $t installed ($comp/$t)"
done
offer() { PATH=$p/bin:$PATH bash --norc --noprofile "$root/tests/install/complete.sh" "$comp/hipvis" "$@" 2>&1; }
# has "WHAT" "WANTED..." -- WORD...: every WANTED word is offered.
has() {
    local what=$1 w missing=; shift
    local want=()
    while [ "$1" != -- ]; do want+=("$1"); shift; done
    shift
    local got
    got=" $(offer "$@" | tr '\n' ' ') "
    for w in "${want[@]}"; do case "$got" in *" $w "*) ;; *) missing+=" $w" ;; esac; done
    check "$([ -z "$missing" ] && echo 0 || echo 1)" "completion: $what" "missing$missing; offered:$got"
}
for argv in hipvis-analyze hipvis-dump hipvis-sidecar "hipvis run" "hipvis experiment"; do
    read -ra a <<<"$argv"
    opts=$("$p/bin/${a[0]}" "${a[@]:1}" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z][a-z0-9-]*' |
           grep -oE -- '-(-[a-z][a-z0-9-]*|[a-zA-Z])' | sort -u)
    # shellcheck disable=SC2086
    has "$argv - offers its --help's $(wc -w <<<"$opts") options" $opts -- "${a[@]}" -
done
cmds=$("$p/bin/hipvis" --help | sed -n '/^commands:/,$ s/^  \([a-z][a-z-]*\) .*/\1/p')
# shellcheck disable=SC2086
has "hipvis offers its commands ($(echo $cmds))" $cmds -- hipvis ""
has "hipvis analyze --js -> --json" --json -- hipvis analyze --js
has "hipvis-analyze --fail-on offers the levels" error warning info none -- hipvis-analyze --fail-on ""
has "hipvis-analyze --fail-on=w (split at =) -> warning" warning -- hipvis-analyze --fail-on = w
has "hipvis-analyze --clock offers its clocks" monotonic realtime offset= base= torch= -- hipvis-analyze --clock ""
rules=$(sed -n -e 's/.*\.name *= *"\([a-z0-9-]*\)".*/\1/p' \
             -e 's/.*HV_RULE( *[A-Z0-9_]*, *[A-Z0-9_]*, *"\([a-z0-9-]*\)".*/\1/p' "$root"/src/analyze/rules/*.c | sort)
got=$(offer hipvis-analyze --disable "" | sort)
check "$([ -n "$rules" ] && [ "$rules" = "$got" ] && echo 0 || echo 1)" \
    "hipvis-analyze --disable offers exactly the rules of src/analyze/rules" "rules: $(echo $rules); offered: $(echo $got)"
got=$(offer hipvis-sidecar --disable "" | sort)
check "$([ "$rules" = "$got" ] && echo 0 || echo 1)" "hipvis-sidecar --disable offers them too"
arms=$("$p/bin/hipvis" experiment --help | sed -n '/^arms/,$ s/^  \([a-z][a-z0-9-]*\)  .*/\1/p')
# shellcheck disable=SC2086
has "hipvis experiment --arms offers its $(wc -w <<<"$arms") arms" $arms -- hipvis experiment --arms ""
has "hipvis experiment --arms baseline,pr -> baseline,probe" baseline,probe -- hipvis experiment --arms baseline,pr
mkdir -p "$tmp/cdir.d"
has "hipvis-sidecar --dir completes directories" "$tmp/cdir.d" -- hipvis-sidecar --dir "$tmp/cdir"
has "hipvis-dump completes trace files" "$trace" -- hipvis-dump "${trace%.zst}"
has "hipvis run -o DIR -- completes the command" hipvis-dump -- hipvis run -o "$tmp" -- hipvis-du
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
    # bash-completion finds the installed files by the command's name, and
    # hands a traced command line to that command's own completion.
    lazy() { HV_BASH_COMPLETION=$bc XDG_DATA_DIRS=$p/share offer "$@"; }
    for t in hipvis-analyze hipvis-dump hipvis-sidecar hipvis; do
        got=$(lazy "$t" --vers | tr '\n' ' ')
        check "$([ "$got" = "--version " ] && echo 0 || echo 1)" \
            "bash-completion loads $t's completion from PREFIX/share (XDG_DATA_DIRS)" "$got"
    done
    got=$(lazy hipvis run -- hipvis-dump --ra | tr '\n' ' ')
    check "$([ "$got" = "--raw " ] && echo 0 || echo 1)" "hipvis run -- hipvis-dump --ra -> --raw (bash-completion)" "$got"
else
    echo "  (bash-completion not installed: its loader is not exercised)"
fi

# The Python package: make install's copy finds PREFIX/bin's analyzer.
out=$(cd "$tmp" && env -u HIPVIS_ANALYZE PATH=/usr/bin:/bin PYTHONPATH="$p/share/hipvis/python" python3 -c \
    'import hipvis, hipvis._tools as t; print(t.analyzer()); print(hipvis.analyze("'"$trace"'").traces[0].records)' 2>&1)
check "$([ "$(head -1 <<<"$out")" = "$p/bin/hipvis-analyze" ] && [ "$(tail -1 <<<"$out")" -gt 0 ] 2>/dev/null &&
         echo 0 || echo 1)" "the installed Python package runs the installed hipvis-analyze (PREFIX/bin)" "$out"

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && rm -rf "$tmp"
[ "$fail" -eq 0 ]
