# Python stacks read without the GIL (docs/names.md). Part of the preload
# library.
PRELOAD_SRCS += $(wildcard src/tracer/pyframes/*.c)
