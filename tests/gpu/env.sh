# Sourced by the device scripts (clock.sh, ab_arms.sh): the repository root,
# OUT (what comes back), a private work directory removed at exit, and
# libpath: .devlibs/ when the host lacks one of the libraries libhipvis and
# the tools link (run_all.sh says how to fill it).
root=$(cd "$(dirname "${BASH_SOURCE[1]}")/../.." && pwd)
OUT=${OUT:-$root/gpu-out}
mkdir -p "$OUT"
work=$(mktemp -d /tmp/hvgpu.XXXXXX)
trap 'rm -rf "$work"' EXIT
libpath=
for so in libzstd.so.1 libmsgpackc.so.2 libdw.so.1; do
    ldconfig -p | grep -q "$so" || libpath=$root/.devlibs
done
