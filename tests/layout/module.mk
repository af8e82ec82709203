# The include graph of src/ keeps the library's layout (no build needed):
# no include cycle in the tracer's files or folders, a core that includes
# no feature, private headers (*_int.h) kept in their folder, a shared base
# (src/format, src/common, src/ring) that includes nothing above it, and
# file names under src/tracer unique in src/.
.PHONY: check-layout
check-layout:
	python3 tests/layout/check_layout.py --selftest src

CHECKS += check-layout
