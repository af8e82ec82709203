# The CUDA front end (runtime and driver API) of the preload library. It is
# compiled against the toolkit's headers (CUDA_HOME, default /usr/local/cuda)
# and links no CUDA library. Without the headers (Debian 12 main has no CUDA
# toolkit) the library is built without it, loudly, and `check-cuda`
# (tests/cuda) says SKIPPED, or fails with HIPVIS_REQUIRE_CUDA=1 (CI).
CUDA_HOME ?= /usr/local/cuda
HAVE_CUDA ?= $(if $(wildcard $(CUDA_HOME)/include/cuda.h),1,0)

ifeq ($(HAVE_CUDA),1)
CUDA_SRCS := $(wildcard src/tracer/intercept/cuda/*.c)
PRELOAD_SRCS += $(CUDA_SRCS)
$(call obj,$(CUDA_SRCS)): CPPFLAGS_BASE += -I$(CUDA_HOME)/include
else
$(warning hipvis: $(CUDA_HOME)/include/cuda.h not found: building without the CUDA front end (check-cuda: SKIPPED))
endif
