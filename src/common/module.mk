# The common base: what every side of hipvis (the in-process tracer, the
# format reader and writer, the tools) builds on and which knows none of them:
# number parsing for settings and options, safe file creation, the one hash
# map and the interned strings on it, the one JSON writer, the growth
# macro, the arena (memory that never moves), clocks and pages, and the
# one table of HIPVIS_* environment variables (envtab).
# Part of libhvformat, which the preload library and every tool link (listed
# before src/format/module.mk reads FORMAT_SRCS: fragments are included
# sorted).
FORMAT_SRCS += src/common/number.c src/common/safe_file.c src/common/u64map.c src/common/json.c \
               src/common/envtab.c src/common/strset.c src/common/arena.c
