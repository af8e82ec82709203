# tests/python: the Python package (python/, docs/python.md) installed with
# pip into a clean venv of Debian's python3 (offline: the system's
# setuptools and wheel), then used: hipvis.analyze() on the demo's trace,
# typed objects, the schema check, python -m hipvis run, and one version
# across the package, its metadata, the Makefile and the C tools.
check-python: $(BUILD)/hipvis-analyze $(BUILD)/hipvis $(BUILD)/hipvis-dump $(BUILD)/libhipvis.so \
              $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop
	bash tests/python/python.sh $(BUILD) $(HIPVIS_VERSION)

CHECKS += check-python
