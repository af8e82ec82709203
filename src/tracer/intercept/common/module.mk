# Runtime-neutral record fillers and the graph walk, shared by the HIP and
# CUDA front ends (src/tracer/intercept/hip, src/tracer/intercept/cuda).
PRELOAD_SRCS += $(wildcard src/tracer/intercept/common/*.c)
