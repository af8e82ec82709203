# tests/kernels: exact kernel arguments, graph shapes and stored code objects,
# end to end through the preload library, from real compiler output:
#   - kfat_app: a HIP program built by Debian's hipcc (gfx90a + gfx940), whose
#     fat binary registers at start-up on the real runtime (no device) and on
#     the runtime double (where it also launches);
#   - k950.co: gfx950 code object from clang-22 / lld-22 (kernels950.cl),
#     loaded with hipModuleLoadData by kmod_app (params / extra / Triton-style
#     launches, a fork/join graph), ktriton_app (runtime only reached through
#     dlopen + dlsym) and kgpa_app (hipGetProcAddress, gpa_shim.c);
#   - kccob_app: tests/codeobj's clang-22 bundle, plain and compressed (CCOB);
#   - kbad_app: bad code objects made by mkbad.py; kunload_app: a fat binary
#     unloaded while its code object is being stored.
# llvm-readelf-22 is the reference (check_kernels.py); run.sh runs each
# program with and without the tracer and prints `kernels: N passed, M failed`.
KT        := $(BUILD)/tests/kernels
KT_DBL    := $(BUILD)/tests/double
KT_CFLAGS := -Iinclude -Isrc -D_GNU_SOURCE -std=c11 -Wall -Wextra -Werror -g -O1
KT_APPS   := $(addprefix $(KT)/,kmod_app ktriton_app kgpa_app kbad_app kccob_app kunload_app kfat_app co_extract)
KT_INPUTS := $(addprefix $(KT)/,k950.co bad/fat_bad.bundle kfat.hash) $(CO_IN)/libkernels.so \
             $(CO_IN)/hip22-gfx950.co $(CO_IN)/hip22-gfx942.co

$(KT)/k950.co: tests/kernels/kernels950.cl
	@mkdir -p $(@D)
	$(CLANG22) -x cl -cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx950 -nogpulib -O2 -cl-kernel-arg-info \
	    -fuse-ld=lld $< -o $@

$(KT)/bad/fat_bad.bundle: $(KT)/k950.co tests/kernels/mkbad.py
	@mkdir -p $(@D)
	$(PYTHON3) tests/kernels/mkbad.py $< $(@D)

$(KT)/kmod_app: tests/kernels/kmod_app.c tests/kernels/khost.h $(KT_DBL)/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -o $@ $< -L$(KT_DBL) -lamdhip64 -ldl

# Links no GPU runtime: it opens one itself, as Triton does.
$(KT)/ktriton_app: tests/kernels/ktriton_app.c tests/kernels/khost.h
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -o $@ $< -ldl

$(KT)/libgpa_shim.so: tests/kernels/gpa_shim.c
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -shared -fPIC -o $@ $< -ldl

$(KT)/kgpa_app: tests/kernels/kgpa_app.c tests/kernels/khost.h $(KT)/libgpa_shim.so $(KT_DBL)/libamdhip64.so
	$(CC) $(KT_CFLAGS) -o $@ $< -L$(KT) -lgpa_shim -Wl,-rpath,'$$ORIGIN' -L$(KT_DBL) -lamdhip64 -ldl

$(KT)/kbad_app: tests/kernels/kbad_app.c tests/kernels/kbad_fatbin.S $(KT)/bad/fat_bad.bundle $(KT_DBL)/libamdhip64.so
	$(CC) $(KT_CFLAGS) -DKBAD_FATBIN='"$(KT)/bad/fat_bad.bundle"' -o $@ $< tests/kernels/kbad_fatbin.S \
	    -L$(KT_DBL) -lamdhip64

$(KT)/kccob_app: tests/kernels/kccob_app.c tests/kernels/kccob_fatbin.S $(CO_IN)/hip22.fatbin $(CO_IN)/hip22.ccob \
                 $(KT_DBL)/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -DKCCOB_PLAIN='"$(CO_IN)/hip22.fatbin"' -DKCCOB_COMP='"$(CO_IN)/hip22.ccob"' -o $@ $< \
	    tests/kernels/kccob_fatbin.S -L$(KT_DBL) -lamdhip64

$(KT)/kunload_app: tests/kernels/kunload_app.c $(KT_DBL)/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -o $@ $< -L$(KT_DBL) -lamdhip64 -ldl

$(KT)/kfat_app: tests/kernels/kfat_app.hip tests/codeobj/kernels.hip
	@mkdir -p $(@D)
	$(HIPCC) --offload-arch=gfx90a --offload-arch=gfx940 -O2 $< -o $@

# The program's own code objects, for llvm-readelf and their hashes.
$(KT)/kfat.hash: $(KT)/kfat_app $(KT)/co_extract
	$(OBJCOPY22) -O binary --only-section=.hip_fatbin $< $(KT)/kfat.fatbin
	for a in gfx90a gfx940; do $(BUNDLER15) --unbundle --type=o --input=$(KT)/kfat.fatbin \
	    --targets=hipv4-amdgcn-amd-amdhsa--$$a --output=$(KT)/kfat-$$a.co || exit 1; done
	$(KT)/co_extract --hash $(KT)/kfat-gfx90a.co $(KT)/kfat-gfx940.co > $@

$(KT)/co_extract: tests/kernels/co_extract.c $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a $(CODEOBJ_LIBS)

check-kernels: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(KT_APPS) $(KT_INPUTS)
	tests/kernels/run.sh $(BUILD) $(CO_IN)

# Not in SAN_CHECKS: the sanitizer build of libhipvis.so cannot be
# preloaded (its dlsym interposer runs before the ASan runtime is set up).
CHECKS += check-kernels
