# tests/cuda: the CUDA front end without a GPU. The runtime pass-through
# test runs against the toolkit's real libcudart.so.13 (every call fails
# with no driver; the codes must pass through unchanged and be recorded);
# the driver test runs on a TEST-ONLY stand-in driver (fake_libcuda.c) to
# check kernel layouts, pointer arguments, the cuGetProcAddress
# substitution and the graph walk. Needs NVIDIA's CUDA toolkit (CUDA_HOME,
# see src/tracer/intercept/cuda/module.mk), which Debian 12 main does not ship: on a
# fresh machine without it check-cuda says SKIPPED (never silently: `make
# check`'s last line repeats it); with HIPVIS_REQUIRE_CUDA=1 (.ci/run sets it:
# CI's machines have the toolkit) a missing toolkit FAILS.
CUDA_T := $(BUILD)/tests/cuda
CUDA_TEST_CFLAGS := -std=c11 -Wall -Wextra -Werror -g -I$(CUDA_HOME)/include

ifeq ($(HAVE_CUDA),1)
$(CUDA_T)/rt_passthrough: tests/cuda/rt_passthrough.c tests/cuda/rt_calls_ptds.c tests/cuda/rt_calls.h
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -Wno-deprecated-declarations -o $@ tests/cuda/rt_passthrough.c tests/cuda/rt_calls_ptds.c \
	    -L$(CUDA_HOME)/lib64 -lcudart -Wl,-rpath,$(CUDA_HOME)/lib64

$(CUDA_T)/drv_passthrough: tests/cuda/drv_passthrough.c
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -o $@ $< -ldl

# -Bsymbolic: like the real driver, its lookups return its own functions,
# not whatever the preload library interposes under the same name.
$(CUDA_T)/fake/libcuda.so.1: tests/cuda/fake_libcuda.c
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -shared -fPIC -fvisibility=hidden -Wl,-soname,libcuda.so.1 -Wl,-Bsymbolic -o $@ $<

$(CUDA_T)/karg_learn: tests/cuda/karg_learn.c tests/cuda/iter_k.h $(CUDA_T)/fake/libcuda.so.1
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -o $@ $< -L$(CUDA_T)/fake -l:libcuda.so.1 -Wl,-rpath,'$$ORIGIN/fake'

$(CUDA_T)/stack_shim.so: tests/cuda/stack_shim.c
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -shared -fPIC -o $@ $< -ldl

check-cuda: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(CUDA_T)/rt_passthrough $(CUDA_T)/drv_passthrough \
            $(CUDA_T)/fake/libcuda.so.1 $(CUDA_T)/karg_learn $(CUDA_T)/stack_shim.so
	@if ! readelf -d $(LIBHIPVIS) | grep -q 'NEEDED' || readelf -d $(LIBHIPVIS) | grep -Eq 'NEEDED.*(cuda|amdhip)'; then \
	    echo "check-cuda: FAIL: $(LIBHIPVIS) links a GPU runtime"; exit 1; fi
	tests/cuda/run_check.sh $(CUDA_T) $(LIBHIPVIS) $(BUILD)/hipvis-dump

# The eager-launch cost of issue 12 (PyTorch's reduce kernels: one 1 KiB
# by-value parameter scanned for pointers), on the stand-in driver.
$(CUDA_T)/bench_launch: tests/cuda/bench_launch.c tests/cuda/iter_k.h tests/bench/bench_util.h $(CUDA_T)/fake/libcuda.so.1
	@mkdir -p $(@D)
	$(CC) $(CUDA_TEST_CFLAGS) -Iinclude -Isrc -O2 -o $@ $< -L$(CUDA_T)/fake -l:libcuda.so.1 -Wl,-rpath,'$$ORIGIN/fake' -ldl

bench-launch: $(CUDA_T)/bench_launch $(LIBHIPVIS)
	@echo "== bench-launch without preload (both arms direct: the noise floor)"
	$(CUDA_T)/bench_launch
	@echo "== bench-launch LD_PRELOAD=$(LIBHIPVIS), defaults"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(CUDA_T)/launch.%p.zst LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(CUDA_T)/bench_launch
	rm -f $(CUDA_T)/launch.*.zst

BENCHES += bench-launch
test-programs: $(CUDA_T)/bench_launch
else
bench-launch:
	@echo "bench-launch: SKIPPED: no CUDA toolkit ($(CUDA_HOME)/include/cuda.h): it runs on the CUDA stand-in driver"
BENCHES += bench-launch
ifeq ($(HIPVIS_REQUIRE_CUDA),1)
check-cuda:
	@echo "check-cuda: FAIL: the CUDA toolkit is missing ($(CUDA_HOME)/include/cuda.h) and HIPVIS_REQUIRE_CUDA=1:"
	@echo "check-cuda: the CUDA front end was not built and cannot be tested (set CUDA_HOME)"
	@false
else
check-cuda:
	@echo "check-cuda: SKIPPED: no CUDA toolkit ($(CUDA_HOME)/include/cuda.h; not in Debian 12 main):"
	@echo "check-cuda: libhipvis.so was built without the CUDA front end (set CUDA_HOME to build and test it)"
endif
endif

CHECKS += check-cuda
