# The one command-line parser (getopt_long) every tool links: option tables,
# --help/--version, "unknown option" messages, shared value parsers.
CLI_SRCS := src/cli/cli.c src/cli/inputs.c src/cli/launch.c src/common/number.c

$(BUILD)/libhvcli.a: $(call obj,$(CLI_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

PROGRAMS += $(BUILD)/libhvcli.a
