# Evidence collection of the tracer (docs/evidence.md): the three-point
# probe (probe.c) lives here; it depends on the tracer (src/preload) and is
# called through the hooks declared in src/preload/evidence.h. Part of
# libhipvis.so.
PRELOAD_SRCS += $(wildcard src/evidence/*.c)
