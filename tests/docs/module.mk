# tests/docs: README and the man pages name every HIPVIS_* variable the code
# reads and every option the tools accept; docs/triage.md covers every rule.
check-docs: $(BUILD)/hipvis $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump $(BUILD)/hipvis-sidecar
	python3 tests/docs/docs.py $(BUILD)

CHECKS += check-docs
