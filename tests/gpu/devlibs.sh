# Sourced by the device scripts after they set $root (the repository):
# sets libpath to $root/.devlibs when the host lacks one of the libraries
# libhipvis and the tools link (libzstd, libmsgpackc, libelf, libdw; run_all.sh says
# how to fill .devlibs), empty otherwise. The one copy of that test.
libpath=
for so in libzstd.so.1 libmsgpackc.so.2 libelf.so.1 libdw.so.1; do
    ldconfig -p | grep -q "$so" || libpath=$root/.devlibs
done
