# Python stacks read without the GIL (issue 16; docs/names.md). Part of the
# preload library.
PRELOAD_SRCS += $(wildcard src/pyframes/*.c)
# src/preload/module.mk states the library's prerequisites before this
# fragment is read: name these objects as prerequisites here too.
$(LIBHIPVIS): $(call obj,$(wildcard src/pyframes/*.c))
