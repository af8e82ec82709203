# tests/codeobj: the code-object parser against real compiler output.
#
# Inputs are generated here from the sources next to this file (a few
# seconds): hipcc (HIP 5.2, gfx90a + gfx940) fat binary and shared object,
# clang-22 HIP bundles for gfx950 + gfx942 plain and compressed (CCOB v3),
# clang-offload-bundler-22 CCOB v2/v3 of the hipcc objects, and clang-22
# OpenCL code objects for gfx950. llvm-readelf-22 is the reference decoder.
CO_T      := $(BUILD)/tests/codeobj
CO_IN     := $(CO_T)/in
HIPCC     ?= hipcc
CLANG22   ?= clang-22
BUNDLER15 ?= clang-offload-bundler-15
BUNDLER22 ?= clang-offload-bundler-22
READELF22 ?= llvm-readelf-22
OBJCOPY22 ?= llvm-objcopy-22
PYTHON3   ?= python3

CO_HIP_TARGETS := hipv4-amdgcn-amd-amdhsa--gfx90a,hipv4-amdgcn-amd-amdhsa--gfx940
CO_CL_FLAGS    := -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2
# A fixed -cuid keeps the plain and compressed compilations byte-identical
# (the default CUID hashes the command line into a symbol name).
CO_HIP22_FLAGS := -x hip --offload-arch=gfx950 --offload-arch=gfx942 -nogpuinc -nogpulib -O2 \
                  -cuid=hipvis-codeobj-test

CO_INPUTS := $(addprefix $(CO_IN)/,hip.fatbin hip-gfx90a.co hip-gfx940.co hip.ccob2 \
               hip.ccob3 hip22.fatbin hip22.ccob hip22-gfx950.co hip22-gfx942.co \
               cl-gfx950.co scalar-gfx950.co libkernels.so)

$(CO_IN)/hip.o: tests/codeobj/kernels.hip
	@mkdir -p $(@D)
	$(HIPCC) --offload-arch=gfx90a --offload-arch=gfx940 -O2 -fPIC -c $< -o $@
$(CO_IN)/libkernels.so: $(CO_IN)/hip.o
	$(CC) -shared -o $@ $<
$(CO_IN)/hip22.o: tests/codeobj/kernels22.hip
	@mkdir -p $(@D)
	$(CLANG22) $(CO_HIP22_FLAGS) -c $< -o $@
$(CO_IN)/hip22c.o: tests/codeobj/kernels22.hip
	@mkdir -p $(@D)
	$(CLANG22) $(CO_HIP22_FLAGS) --offload-compress -c $< -o $@
$(CO_IN)/hip.fatbin: $(CO_IN)/hip.o
	$(OBJCOPY22) -O binary --only-section=.hip_fatbin $< $@
$(CO_IN)/hip22.fatbin: $(CO_IN)/hip22.o
	$(OBJCOPY22) -O binary --only-section=.hip_fatbin $< $@
$(CO_IN)/hip22.ccob: $(CO_IN)/hip22c.o
	$(OBJCOPY22) -O binary --only-section=.hip_fatbin $< $@
# hipcc 5.2 writes the old 3-part host triple that bundler-22 rejects: the
# HIP 5.2 objects are extracted with bundler-15, which hipcc depends on.
$(CO_IN)/hip-%.co: $(CO_IN)/hip.fatbin
	$(BUNDLER15) --unbundle --type=o --input=$< --targets=hipv4-amdgcn-amd-amdhsa--$* --output=$@
$(CO_IN)/hip22-%.co: $(CO_IN)/hip22.fatbin
	$(BUNDLER22) --unbundle --type=o --input=$< --targets=hipv4-amdgcn-amd-amdhsa--$* --output=$@
$(CO_IN)/hip.ccob%: $(CO_IN)/hip-gfx90a.co $(CO_IN)/hip-gfx940.co
	COMPRESSED_BUNDLE_FORMAT_VERSION=$* $(BUNDLER22) --compress --type=o \
	    --targets=host-x86_64-unknown-linux-gnu-,$(CO_HIP_TARGETS) \
	    --input=/dev/null --input=$(CO_IN)/hip-gfx90a.co --input=$(CO_IN)/hip-gfx940.co --output=$@
$(CO_IN)/cl-gfx950.co: tests/codeobj/kernels.cl
	@mkdir -p $(@D)
	$(CLANG22) $(CO_CL_FLAGS) -cl-kernel-arg-info $< -o $@
$(CO_IN)/scalar-gfx950.co: tests/codeobj/scalar.cl
	@mkdir -p $(@D)
	$(CLANG22) $(CO_CL_FLAGS) $< -o $@

CO_TEST_SRCS := tests/codeobj/test_main.c tests/codeobj/util.c tests/codeobj/t_hash.c \
                tests/codeobj/t_parse.c tests/codeobj/t_corrupt.c tests/codeobj/t_fuzz.c \
                tests/codeobj/t_wrapper.c
CO_TEST_LIBS := $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a
ifeq ($(HAVE_LLVM),1)
CO_TEST_SRCS += tests/codeobj/t_scalar.c
CO_TEST_LIBS := $(BUILD)/libhvcodeobj-scalar.a $(CO_TEST_LIBS) $(CODEOBJ_SCALAR_LIBS)
endif

# -rdynamic: the dlopen'ed hipcc object must bind its __hipRegister* calls
# to the stand-ins in t_wrapper.c, as it would to the preload library's.
$(CO_T)/test_codeobj: $(call obj,$(CO_TEST_SRCS)) $(filter %.a,$(CO_TEST_LIBS))
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -rdynamic $(call obj,$(CO_TEST_SRCS)) $(CO_TEST_LIBS) $(CODEOBJ_LIBS) -ldl -o $@
$(CO_T)/co_dump: $(call obj,tests/codeobj/co_dump.c tests/codeobj/util.c) $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ $(CODEOBJ_LIBS) -o $@

# meta_check: every kernel and argument equal to llvm-readelf's view, for
# each input kind; the compressed forms must dump exactly like the plain
# ones; and a tampered dump must be caught (the checker can fail).
CO_META = $(CO_T)/co_dump $(1) > $(CO_T)/$(2).dump && \
          $(PYTHON3) tests/codeobj/meta_check.py $(READELF22) $(CO_T)/$(2).dump $(3)
CO_SAME = $(CO_T)/co_dump $(1) | grep -v '^\#' > $(CO_T)/a.txt && \
          $(CO_T)/co_dump $(2) | grep -v '^\#' > $(CO_T)/b.txt && cmp $(CO_T)/a.txt $(CO_T)/b.txt

codeobj-check: $(CO_T)/test_codeobj $(CO_T)/co_dump $(CO_INPUTS)
	$(call CO_META,$(CO_IN)/hip.fatbin,hip,$(CO_IN)/hip-gfx90a.co $(CO_IN)/hip-gfx940.co)
	$(call CO_META,$(CO_IN)/hip22.fatbin,hip22,$(CO_IN)/hip22-gfx950.co $(CO_IN)/hip22-gfx942.co)
	$(call CO_META,$(CO_IN)/cl-gfx950.co,cl,$(CO_IN)/cl-gfx950.co)
	$(call CO_META,$(CO_IN)/scalar-gfx950.co,scalar,$(CO_IN)/scalar-gfx950.co)
	$(call CO_SAME,$(CO_IN)/hip.fatbin,$(CO_IN)/hip.ccob2)
	$(call CO_SAME,$(CO_IN)/hip.fatbin,$(CO_IN)/hip.ccob3)
	$(call CO_SAME,$(CO_IN)/hip22.fatbin,$(CO_IN)/hip22.ccob)
	sed 's/offset=8 size=8/offset=8 size=4/' $(CO_T)/hip.dump > $(CO_T)/tampered.dump
	! $(PYTHON3) tests/codeobj/meta_check.py $(READELF22) $(CO_T)/tampered.dump \
	    $(CO_IN)/hip-gfx90a.co $(CO_IN)/hip-gfx940.co > /dev/null
	$(CO_T)/test_codeobj $(CO_IN)

CHECKS     += codeobj-check
SAN_CHECKS += codeobj-check
