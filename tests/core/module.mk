# Core tracer tests: ring accounting, configuration, and the preload
# library end to end (on the runtime double and on Debian's real runtime).
CORE_TEST_DIR := $(BUILD)/tests/core

$(CORE_TEST_DIR)/ring_stress: tests/core/ring_stress.c $(call obj,src/ring/ring.c src/tracer/record/collector.c src/ring/clock.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lpthread

# The writer's spare ring made a slice at a time, drained between slices.
$(CORE_TEST_DIR)/ring_prep: tests/core/ring_prep.c $(call obj,src/ring/ring.c src/tracer/record/collector.c src/ring/clock.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lpthread

check-ring: $(CORE_TEST_DIR)/ring_stress $(CORE_TEST_DIR)/ring_prep
	$(CORE_TEST_DIR)/ring_stress
	$(CORE_TEST_DIR)/ring_prep

CHECKS     += check-ring
SAN_CHECKS += check-ring

# The allocation map's per-thread memo answers as the map does.
$(CORE_TEST_DIR)/allocmap_memo: tests/core/allocmap_memo.c $(call obj,src/tracer/core/allocmap.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lpthread

check-allocmap: $(CORE_TEST_DIR)/allocmap_memo
	$(CORE_TEST_DIR)/allocmap_memo

CHECKS     += check-allocmap
SAN_CHECKS += check-allocmap

# Lifecycle tests need the runtime double (tests/runtime-double) and the dump tool.
# Its variables are defined by a fragment included after this one, so
# prerequisites (expanded when read) name the double's path themselves;
# recipes may use $(DOUBLE_DIR) (expanded when run). -lamdhip64 needs the
# libamdhip64.so link, which depends on the library.
CORE_DOUBLE := $(BUILD)/tests/double/libamdhip64.so
$(CORE_TEST_DIR)/core_app: tests/core/core_app.c $(CORE_DOUBLE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(DOUBLE_DIR) -lamdhip64 -lpthread $(LDFLAGS)

$(CORE_TEST_DIR)/libearly.so: tests/core/early_ctor.c $(CORE_DOUBLE)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -shared -o $@ $< -L$(DOUBLE_DIR) -lamdhip64 $(LDFLAGS)

$(CORE_TEST_DIR)/core_app_early: tests/core/core_app.c $(CORE_TEST_DIR)/libearly.so
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(CORE_TEST_DIR) -Wl,--no-as-needed -learly -Wl,--as-needed -Wl,-rpath,'$$ORIGIN' \
	    -L$(DOUBLE_DIR) -lamdhip64 -lpthread $(LDFLAGS)

# The real writer thread in a test process (a crash before the first timed flush).
$(CORE_TEST_DIR)/writer_crash: tests/core/writer_crash.c $(call obj,src/tracer/record/writer_thread.c src/ring/ring.c src/tracer/record/collector.c src/ring/clock.c) $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lzstd -lpthread

check-lifecycle: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze $(CORE_TEST_DIR)/core_app $(CORE_TEST_DIR)/core_app_early $(CORE_TEST_DIR)/writer_crash
	tests/core/lifecycle.sh $(BUILD) $(DOUBLE_DIR)

CHECKS += check-lifecycle
