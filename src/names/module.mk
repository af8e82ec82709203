# Names, marks and regions (issue 16; docs/names.md): the public API of
# include/hipvis/hipvis.h, HIPVIS_START gating, NVTX injection and roctx
# interposition. Part of the preload library.
PRELOAD_SRCS += $(wildcard src/names/*.c)
