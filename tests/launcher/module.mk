# tests/launcher: `hipvis run` as users expect it (src/cli/launch_run.c) on
# the HIP runtime test double: NVTX ranges recorded with no
# NVTX_INJECTION64_PATH set by hand, roctx and hipvis regions too; the end
# lines (one per trace, from its footer; none under --quiet); the command's
# exit status and death by signal mirrored, signals sent to the launcher
# passed on once (a terminal's Ctrl-C not twice); --delay / --duration
# windows, counted from the launch for every process of the job.
# Optimised build only, like check-names: the sanitizer build's library
# cannot be preloaded into the uninstrumented python3 and sh it runs.
LAUNCHER_T := $(BUILD)/tests/launcher

$(LAUNCHER_T)/paced_app: tests/launcher/paced_app.c | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64

TEST_PROGRAMS += $(LAUNCHER_T)/paced_app
test-programs: $(LAUNCHER_T)/paced_app

# marks_app's rule is tests/names/module.mk's (read after this file).
check-launcher: $(BUILD)/hipvis $(BUILD)/hipvis-dump $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so \
                $(BUILD)/tests/apps/decode_loop $(LAUNCHER_T)/paced_app $(BUILD)/tests/names/marks_app
	python3 tests/launcher/launcher.py $(BUILD)

CHECKS += check-launcher
