# tests/config: one configuration path. The HIPVIS_* table
# (src/common/envtab.c) and the tracer's parser over it, unit-tested
# (sanitized too), then end to end: every name the code and the scripts use
# is in the table, the tracer reads the environment only in its config
# module, `hipvis run --help-env` lists the table, unknown names are named
# once with the nearest one, bad values still name the accepted ones.
CONFIG_T := $(BUILD)/tests/config

$(CONFIG_T)/t_config: $(call obj,tests/config/t_config.c src/tracer/core/config.c) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^

TEST_PROGRAMS += $(CONFIG_T)/t_config
test-programs: $(CONFIG_T)/t_config

check-config-units: $(CONFIG_T)/t_config
	$(CONFIG_T)/t_config

check-config: check-config-units $(BUILD)/hipvis $(LIBHIPVIS) $(BUILD)/tests/double/libamdhip64.so \
              $(BUILD)/tests/apps/decode_loop
	python3 tests/config/config.py $(BUILD)

CHECKS     += check-config
SAN_CHECKS += check-config-units
