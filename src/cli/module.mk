# The one command-line parser (getopt_long) every tool links: option tables,
# --help/--version, "unknown option" messages, shared value parsers.
CLI_SRCS := src/cli/cli.c src/cli/inputs.c src/cli/launch.c src/common/number.c

$(BUILD)/libhvcli.a: $(call obj,$(CLI_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

PROGRAMS += $(BUILD)/libhvcli.a

# hipvis run's job (the launcher only): its environment, the command as a
# child, the traces' end lines. Its own archive, linked ahead of the
# libraries it reads traces through (libhvanalyze, libhvformat).
LAUNCH_SRCS := src/cli/launch_run.c src/cli/launch_child.c src/cli/launch_summary.c

$(BUILD)/libhvlaunch.a: $(call obj,$(LAUNCH_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

PROGRAMS += $(BUILD)/libhvlaunch.a
