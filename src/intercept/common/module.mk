# Runtime-neutral record fillers and the graph walk, shared by the HIP and
# CUDA front ends (src/intercept/hip, src/intercept/cuda).
PRELOAD_SRCS += $(wildcard src/intercept/common/*.c)
