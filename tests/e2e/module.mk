# tests/e2e: the tracer and the analyzer end to end on real programs
# (tests/apps, TEST-ONLY) running on the runtime double and on Debian's real
# libamdhip64.so.5: each analyzer rule the decode loop can trigger, checked
# against what the trace says the program did (hipvis-dump --json), the
# Python/ctypes program, and the real runtime's pass-through. Optimised
# build only (the sanitizer build's libhipvis.so needs the ASan runtime
# first in the process, which python3 and the apps do not have).
# Prerequisites name the double's and the apps' paths: their fragments may
# be included after this one.
E2E_DEPS := $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze \
            $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop $(BUILD)/tests/apps/struct_loop \
            $(BUILD)/tests/apps/decode_kernels-gfx950.hsaco \
            $(if $(wildcard /usr/lib/x86_64-linux-gnu/libamdhip64.so.5),$(BUILD)/tests/apps/passthrough_real)

check-e2e: $(E2E_DEPS)
	python3 tests/e2e/e2e.py $(BUILD)

CHECKS += check-e2e
