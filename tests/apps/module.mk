# tests/apps: TEST-ONLY programs written against the HIP runtime API.
#
# Linked against the test double's directory with -lamdhip64 and no rpath:
# tests pick the runtime (double or real) with LD_LIBRARY_PATH. When the real
# runtime is installed, passthrough_real is the same program linked against
# it, to check that its versioned references (hipMemcpyAsync@hip_4.2 ...)
# bind to the double. Never installed.

APPS_DIR      := $(BUILD)/tests/apps
APPS_DOUBLE   := $(BUILD)/tests/double/libamdhip64.so
REAL_HIP_LIB  ?= $(wildcard /usr/lib/x86_64-linux-gnu/libamdhip64.so.5)
# passthrough_real only runs in the optimised build's checks
APPS_BINS     := $(APPS_DIR)/decode_loop $(APPS_DIR)/struct_loop $(APPS_DIR)/passthrough \
                 $(if $(and $(REAL_HIP_LIB),$(filter-out 1,$(SAN))),$(APPS_DIR)/passthrough_real)

TEST_PROGRAMS += $(APPS_BINS)

$(APPS_DIR)/passthrough: $(APPS_DIR)/%: $(BUILD)/obj/tests/apps/%.o | $(APPS_DOUBLE)
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(dir $(APPS_DOUBLE)) -lamdhip64 -lpthread -ldl

# decode_loop carries real device code, as a hipcc-built program does:
# decode_kernels.hip compiled by clang-22 for gfx950 (device only, no HIP
# headers or device libraries), the offload bundle embedded by
# decode_fatbin.S in .hip_fatbin and registered through the "HIPF" wrapper.
# The bare code object (.hsaco) is what ctypes_decode.py loads with
# hipModuleLoadData, as Triton does. No clang-22: the build stops here.
# -fhip-kernel-arg-name keeps the argument names (qo_indptr) in the code
# object's metadata, so findings can name buffers by them (docs/names.md);
# the -nonames object is the same code without them (clang's default),
# what the fallback is tested on.
CLANG22        ?= clang-22
APPS_GPU_ARCH  := gfx950
APPS_HIP_FLAGS0:= -x hip --offload-arch=$(APPS_GPU_ARCH) --cuda-device-only -nogpulib -nogpuinc \
                  -O2 -cuid=hipvis-decode-kernels
APPS_HIP_FLAGS := $(APPS_HIP_FLAGS0) -fhip-kernel-arg-name
APPS_FATBIN    := $(APPS_DIR)/decode_kernels.hipfb
APPS_HSACO     := $(APPS_DIR)/decode_kernels-$(APPS_GPU_ARCH).hsaco
APPS_HSACO_NONAMES := $(APPS_DIR)/decode_kernels-$(APPS_GPU_ARCH)-nonames.hsaco
APPS_NEED_CLANG22 = @command -v $(CLANG22) >/dev/null 2>&1 || { \
	echo "error: $(CLANG22) not found; tests/apps/decode_kernels.hip needs it" \
	     "(Debian: apt-get install clang-22 lld-22, see .ci/run)" >&2; exit 1; }

$(APPS_FATBIN): tests/apps/decode_kernels.hip tests/apps/module.mk
	$(APPS_NEED_CLANG22)
	@mkdir -p $(@D)
	$(CLANG22) $(APPS_HIP_FLAGS) --gpu-bundle-output -c $< -o $@
$(APPS_HSACO): tests/apps/decode_kernels.hip tests/apps/module.mk
	$(APPS_NEED_CLANG22)
	@mkdir -p $(@D)
	$(CLANG22) $(APPS_HIP_FLAGS) --no-gpu-bundle-output -c $< -o $@
$(APPS_HSACO_NONAMES): tests/apps/decode_kernels.hip
	$(APPS_NEED_CLANG22)
	@mkdir -p $(@D)
	$(CLANG22) $(APPS_HIP_FLAGS0) --no-gpu-bundle-output -c $< -o $@
$(APPS_DIR)/decode_fatbin.o: tests/apps/decode_fatbin.S $(APPS_FATBIN)
	$(CC) -DDECODE_FATBIN='"$(abspath $(APPS_FATBIN))"' -c $< -o $@

$(APPS_DIR)/decode_loop: $(BUILD)/obj/tests/apps/decode_loop.o $(APPS_DIR)/decode_fatbin.o | $(APPS_DOUBLE) $(APPS_HSACO)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) -L$(dir $(APPS_DOUBLE)) -lamdhip64 -lpthread -ldl

# struct_loop: decode_loop's hazard with the reader's pointer inside a
# by-value struct (struct_kernels.hip), embedded and registered the same way.
APPS_STRUCT_FATBIN := $(APPS_DIR)/struct_kernels.hipfb
APPS_STRUCT_HSACO  := $(APPS_DIR)/struct_kernels-$(APPS_GPU_ARCH).hsaco
$(APPS_STRUCT_FATBIN): tests/apps/struct_kernels.hip tests/apps/module.mk
	$(APPS_NEED_CLANG22)
	@mkdir -p $(@D)
	$(CLANG22) $(subst hipvis-decode-kernels,hipvis-struct-kernels,$(APPS_HIP_FLAGS)) --gpu-bundle-output -c $< -o $@
$(APPS_STRUCT_HSACO): tests/apps/struct_kernels.hip tests/apps/module.mk
	$(APPS_NEED_CLANG22)
	@mkdir -p $(@D)
	$(CLANG22) $(subst hipvis-decode-kernels,hipvis-struct-kernels,$(APPS_HIP_FLAGS)) --no-gpu-bundle-output -c $< -o $@
$(APPS_DIR)/struct_fatbin.o: tests/apps/decode_fatbin.S $(APPS_STRUCT_FATBIN)
	$(CC) -DDECODE_FATBIN='"$(abspath $(APPS_STRUCT_FATBIN))"' -DFATBIN_SYMBOL=hv_struct_fatbin -c $< -o $@
$(APPS_DIR)/struct_loop: $(BUILD)/obj/tests/apps/struct_loop.o $(APPS_DIR)/struct_fatbin.o | $(APPS_DOUBLE) $(APPS_STRUCT_HSACO)
	@mkdir -p $(@D)
	$(CC) -o $@ $^ $(LDFLAGS) -L$(dir $(APPS_DOUBLE)) -lamdhip64 -lpthread -ldl

$(APPS_DIR)/passthrough_real: $(BUILD)/obj/tests/apps/passthrough.o
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) $(REAL_HIP_LIB) -ldl

test-programs: $(APPS_BINS) $(APPS_HSACO_NONAMES)
