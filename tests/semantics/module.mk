# tests/semantics: every docs/semantics.md rule end to end on the runtime
# double, a positive case (the hazard is found) and a negative one (the
# correctly ordered twin is silent); sem_app runs them, semantics.py traces
# and checks. Optimised build only (like tests/e2e).
SEM_T := $(BUILD)/tests/semantics

$(SEM_T)/sem_app: tests/semantics/sem_app.c tests/semantics/r6_memcpy3d.h tests/kernels/khost.h $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -o $@ $< -L$(BUILD)/tests/double -lamdhip64 -ldl

# A versioned runtime entry point for the dlvsym case (the double has no
# symbol versions).
$(SEM_T)/libvsym_shim.so: tests/semantics/vsym_shim.c tests/semantics/vsym_shim.map
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -shared -fPIC -Wl,--version-script=tests/semantics/vsym_shim.map -o $@ $<

# A ROCm 6 face for hipDrvMemcpy3DAsync (the double speaks HIP 5.2's
# HIP_MEMCPY3D): its soname and R0600 export make hipvis read ROCm 6's layout.
$(SEM_T)/r6/libamdhip64.so.7: tests/semantics/r6_shim.c tests/semantics/r6_memcpy3d.h $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(KT_CFLAGS) -shared -fPIC -Wl,-soname,libamdhip64.so.7 -o $@ $< -L$(BUILD)/tests/double -lamdhip64

check-semantics: $(SEM_T)/sem_app $(SEM_T)/libvsym_shim.so $(SEM_T)/r6/libamdhip64.so.7 $(BUILD)/tests/kernels/k950.co $(LIBHIPVIS) $(BUILD)/hipvis-dump \
                 $(BUILD)/hipvis-analyze
	python3 tests/semantics/semantics.py $(BUILD)

CHECKS += check-semantics
