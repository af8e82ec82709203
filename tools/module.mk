# Thin command-line front ends; each links the libraries it uses.

# hipvis-dump: trace -> text / JSON lines
$(BUILD)/hipvis-dump: $(call obj,tools/hipvis-dump.c) $(BUILD)/libhvcli.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd
PROGRAMS     += $(BUILD)/hipvis-dump
INSTALL_BINS += $(BUILD)/hipvis-dump

# hipvis-analyze: traces -> findings (text / JSON / Perfetto); its body is
# src/analyze/cmd (libhvanalyzecmd.a)
# (--diagnose: src/analyze/diagnose/module.mk; libLLVM only with HAVE_LLVM=1)
# (--find-value, stacks of findings: src/analyze/forensics/module.mk; libelf)
$(BUILD)/hipvis-analyze: $(call obj,tools/hipvis-analyze.c) $(BUILD)/libhvanalyzecmd.a $(BUILD)/libhvcli.a $(DIAG_LINK) \
                         $(FORENSICS_LINK) $(BUILD)/libhvanalyze.a $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd $(REPORT_LIBS) $(DIAG_LIBS) $(FORENSICS_LIBS)
PROGRAMS     += $(BUILD)/hipvis-analyze
INSTALL_BINS += $(BUILD)/hipvis-analyze

# hipvis-sidecar: drains shared-memory segments into traces, streaming rules,
# alerts, Prometheus counters (docs/sidecar.md)
$(BUILD)/hipvis-sidecar: $(call obj,tools/hipvis-sidecar.c) $(BUILD)/libhvcli.a $(BUILD)/libhvsidecar.a $(BUILD)/libhvanalyze.a \
                         $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ -lzstd
PROGRAMS     += $(BUILD)/hipvis-sidecar
INSTALL_BINS += $(BUILD)/hipvis-sidecar

# hipvis: the launcher (run / experiment / sidecar / analyze / dump);
# experiment reads its runs' traces in process (src/experiment/module.mk),
# run the footers of its traces (src/cli/module.mk, libhvlaunch) and checks
# the HIPVIS_* settings with the library's own parser (config.c) before it
# starts the command.
$(BUILD)/hipvis: $(call obj,tools/hipvis.c src/tracer/core/config.c) $(BUILD)/libhvlaunch.a $(EXPERIMENT_LINK) \
                 $(BUILD)/libhvcli.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $^ $(EXPERIMENT_LIBS)
PROGRAMS     += $(BUILD)/hipvis
INSTALL_BINS += $(BUILD)/hipvis

INSTALL_MANS += docs/man/hipvis.1 docs/man/hipvis-sidecar.1 docs/man/hipvis-analyze.1 docs/man/hipvis-dump.1
