#!/usr/bin/env bash
# python.sh BUILD VERSION - make check-python: the Python package as a user
# gets it.
#
# `make demo`'s script writes BUILD/demo/decode_loop.zst; a clean venv of
# Debian's python3 (--system-site-packages: its setuptools and wheel, no
# network) gets `pip install --no-build-isolation --no-index ./python`; from
# the checkout, with no hipvis tool on PATH, that venv's python runs
#   import hipvis; r = hipvis.analyze('build/demo/decode_loop.zst'); print(r.findings[0].rule)
# and tests/python/test_api.py checks the typed objects, the tool search,
# the schema check and python -m hipvis run. VERSION (the Makefile's
# HIPVIS_VERSION) must be the package's __version__, its installed
# metadata's and the C tools' --version.
set -u
build=$(cd "${1:-build}" && pwd)
want_version=${2:?usage: python.sh BUILD VERSION}
root=$(pwd)
# Debian's interpreter: the one python3-venv, python3-setuptools and
# python3-wheel are for (a python3 earlier on PATH may be another build).
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3)
tmp=$(mktemp -d /tmp/hipvis-python.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() {  # check RC WHAT [DETAIL]
    if [ "$1" -eq 0 ]; then pass=$((pass + 1)); echo "  ok   $2"; else fail=$((fail + 1)); echo "  FAIL $2${3:+: $3}"; fi
}

# The demo's trace, by the demo's own script (what `make demo` runs).
bash tests/demo/demo.sh "$build" >"$tmp/demo.log" 2>&1
check $? "make demo's script wrote $build/demo/decode_loop.zst" "$(tail -3 "$tmp/demo.log")"

"$py" -m venv --system-site-packages "$tmp/venv" >"$tmp/venv.log" 2>&1
check $? "$py -m venv --system-site-packages" "$(tail -3 "$tmp/venv.log")"
vpy=$tmp/venv/bin/python
"$tmp/venv/bin/pip" install --no-build-isolation --no-index ./python >"$tmp/pip.log" 2>&1
check $? "pip install --no-build-isolation --no-index ./python (offline)" "$(tail -5 "$tmp/pip.log")"
where=$(cd / && "$vpy" -c 'import hipvis; print(hipvis.__file__)' 2>&1)
check "$(case "$where" in "$tmp/venv/"*) echo 0 ;; *) echo 1 ;; esac)" "import hipvis: the venv's copy" "$where"

# From the checkout, no hipvis tool on PATH: the analyzer of the checkout
# the package was built from.
if [ "$build" = "$root/build" ]; then
    out=$(env -u HIPVIS_ANALYZE PATH=/usr/bin:/bin "$vpy" -c \
        "import hipvis; r = hipvis.analyze('build/demo/decode_loop.zst'); print(r.findings[0].rule)" 2>&1)
    check "$([ "$out" = same-epoch-write ] && echo 0 || echo 1)" \
        "hipvis.analyze('build/demo/decode_loop.zst').findings[0].rule == same-epoch-write" "$out"
else
    echo "  (BUILD is $build, not the checkout's build/: the checkout search is not exercised)"
fi

# One version everywhere.
pkg=$("$vpy" -c 'import hipvis; print(hipvis.__version__)')
meta=$("$vpy" -c 'import importlib.metadata as m; print(m.version("hipvis"))')
tools=$(for t in hipvis-analyze hipvis-dump hipvis; do "$build/$t" --version | awk '{print $2}'; done | sort -u)
check "$([ "$pkg" = "$want_version" ] && [ "$meta" = "$want_version" ] && [ "$tools" = "$want_version" ] &&
         echo 0 || echo 1)" "one version: __version__, pip metadata, HIPVIS_VERSION, the C tools' --version" \
    "package $pkg, metadata $meta, Makefile $want_version, tools $tools"

# The rest, in Python, from the checkout with the venv's package.
env -u HIPVIS_ANALYZE PATH=/usr/bin:/bin HVPY_BUILD="$build" \
    "$vpy" tests/python/test_api.py
n=$?
fail=$((fail + n))

echo "python: $pass shell checks passed, $fail failed"
[ "$fail" -eq 0 ]
