# tests/cli: every binary's command line (src/cli), end to end: --help and
# --version, unknown options, --opt=value, --fail-on=none, analyze over a
# directory and stdin, --json "errors", non-ASCII paths; a table of every
# unusable input and every launch that could not be traced (exit status, no
# "0 bugs"), and replays the analysis could not check (exit 3, the verdict
# says why; ctypes_decode.py on the runtime double).
CLI_DEPS := $(BUILD)/hipvis $(BUILD)/hipvis-analyze $(BUILD)/hipvis-dump $(BUILD)/hipvis-sidecar $(LIBHIPVIS) \
            $(BUILD)/tests/double/libamdhip64.so $(BUILD)/tests/apps/decode_loop

check-cli: $(CLI_DEPS)
	python3 tests/cli/cli.py $(BUILD)

CHECKS += check-cli
