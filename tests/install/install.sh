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

echo "install: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && rm -rf "$tmp"
[ "$fail" -eq 0 ]
