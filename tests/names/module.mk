# tests/names: names, Python lines and regions end to end (docs/names.md) on
# the HIP runtime test double (TEST-ONLY): tests/apps/ctypes_decode.py names
# cu_seqlens_q through the hipvis Python module and copies and replays; the
# analyzer's text and JSON must name the buffer and both Python lines, on
# every CPython found here (Debian's python3, pyenv 3.11/3.12/3.13 when
# installed; an unsupported one must say "no Python frames"). Optimised build
# only, like check-evidence: the sanitizer build's libhipvis.so cannot be
# preloaded into an uninstrumented interpreter.
NAMES_DEPS := $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze \
              $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_kernels-gfx950.hsaco

check-names: $(NAMES_DEPS)
	python3 tests/names/names_e2e.py $(BUILD)

CHECKS += check-names
