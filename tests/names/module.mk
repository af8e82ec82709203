# tests/names: names, Python lines and regions end to end (docs/names.md) on
# the HIP runtime test double (TEST-ONLY): tests/apps/ctypes_decode.py names
# cu_seqlens_q through the hipvis Python module and copies and replays; the
# analyzer's text and JSON must name the buffer and both Python lines, on
# every CPython found here (Debian's python3, pyenv 3.11/3.12/3.13 when
# installed; an unsupported one must say "no Python frames"). Optimised build
# only, like check-evidence: the sanitizer build's libhipvis.so cannot be
# preloaded into an uninstrumented interpreter.
NAMES_DEPS := $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze $(BUILD)/hipvis-sidecar \
              $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_kernels-gfx950.hsaco \
              $(BUILD)/tests/apps/decode_kernels-gfx950-nonames.hsaco


# NVTX and roctx marks: marks_app (NVTX v3 from the CUDA toolkit's headers,
# roctx from a TEST-ONLY stub library) on the double. Without the toolkit's
# nvtx3 headers (a fresh Debian 12: no CUDA toolkit) it is built roctx-only
# and the NVTX part is reported SKIPPED (FAIL with HIPVIS_REQUIRE_CUDA=1).
NAMES_T := $(BUILD)/tests/names
MARKS_NVTX := $(if $(wildcard $(CUDA_HOME)/include/nvtx3/nvToolsExt.h),-I$(CUDA_HOME)/include,-DHV_NO_NVTX)
$(NAMES_T)/libroctx64.so: tests/names/roctx_stub.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -Wl,-soname,libroctx64.so -o $@ $< $(LDFLAGS)

$(NAMES_T)/marks_app: tests/names/marks_app.c $(NAMES_T)/libroctx64.so | $(APPS_DOUBLE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(MARKS_NVTX) $(CFLAGS) -o $@ $< $(LDFLAGS) \
	    -L$(dir $(APPS_DOUBLE)) -lamdhip64 -L$(NAMES_T) -lroctx64 -ldl -lpthread

NAMES_DEPS += $(NAMES_T)/marks_app

# After every NAMES_DEPS addition: prerequisites expand when the rule is read.
check-names: $(NAMES_DEPS)
	python3 tests/names/names_e2e.py $(BUILD)

CHECKS += check-names

# Bench: ns per traced call with Python frames on vs off (processes
# alternating; the option is fixed per process). See docs/names.md for the
# instruction count of the hot path (callgrind), the figure that does not
# depend on the machine's load.
bench-names: $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so
	python3 tests/names/bench_pyframes.py $(BUILD)

BENCHES += bench-names
