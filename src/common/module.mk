# The common base: what every side of hipvis (the in-process tracer, the
# format reader and writer, the tools) builds on and which knows none of them:
# number parsing for settings and options, safe file creation, the one hash
# map, the one JSON writer, the growth macro, clocks and pages.
# Part of libhvformat, which the preload library and every tool link (listed
# before src/format/module.mk reads FORMAT_SRCS: fragments are included
# sorted).
FORMAT_SRCS += src/common/number.c src/common/safe_file.c src/common/u64map.c src/common/json.c
