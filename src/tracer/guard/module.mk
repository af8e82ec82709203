# Guard modes (HIPVIS_GUARD): synchronization patterns applied before a
# flagged graph launch or at a pinned copy (docs/case-study-rocm-hip-3902.md
# section 7). Part of libhipvis.so; depends on the tracer's core
# (core/tracer.h), which does not depend on it: the record fillers
# (src/tracer/intercept) call it.
PRELOAD_SRCS += $(wildcard src/tracer/guard/*.c)
