# Sidecar tests (make check-sidecar) and benchmark (make bench-sidecar):
# producers on the TEST-ONLY runtime double under LD_PRELOAD=libhipvis.so
# with HIPVIS_SIDECAR=1, drained by hipvis-sidecar; everything local, in a
# private directory, bounded in time.
SIDECAR_TEST_DIR := $(BUILD)/tests/sidecar

$(SIDECAR_TEST_DIR)/sc_producer: tests/sidecar/sc_producer.c $(DOUBLE_LINK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(DOUBLE_DIR) -lamdhip64 $(LDFLAGS)

$(SIDECAR_TEST_DIR)/sc_rawprod: tests/sidecar/sc_rawprod.c \
        $(call obj,src/tracer/record/collector.c src/ring/ring.c src/ring/clock.c src/ring/shm_layout.c src/tracer/record/shm_transport.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS)

$(SIDECAR_TEST_DIR)/sc_check: tests/sidecar/sc_check.c $(BUILD)/libhvformat.a
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS) -lzstd

$(SIDECAR_TEST_DIR)/sc_segtool: tests/sidecar/sc_segtool.c $(call obj,src/ring/ring.c src/ring/shm_layout.c)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $^ $(LDFLAGS)

SIDECAR_TEST_DEPS := $(LIBHIPVIS) $(BUILD)/hipvis-sidecar $(BUILD)/hipvis $(BUILD)/hipvis-dump $(BUILD)/hipvis-analyze \
                     $(DOUBLE_LIB) $(BUILD)/tests/apps/decode_loop \
                     $(SIDECAR_TEST_DIR)/sc_producer $(SIDECAR_TEST_DIR)/sc_rawprod $(SIDECAR_TEST_DIR)/sc_check \
                     $(SIDECAR_TEST_DIR)/sc_segtool

# Under SAN=1 the producers are sc_rawprod (see its header comment).
check-sidecar: $(SIDECAR_TEST_DEPS)
	tests/sidecar/sidecar.sh $(BUILD) $(if $(filter 1,$(SAN)),raw,preload)

bench-sidecar: $(SIDECAR_TEST_DEPS)
	tests/sidecar/bench.sh $(BUILD)

CHECKS     += check-sidecar
SAN_CHECKS += check-sidecar
BENCHES    += bench-sidecar

# A fresh ring's first lap against its later laps (rings written ahead), both
# transports: make bench-lap.
$(SIDECAR_TEST_DIR)/bench_lap: tests/sidecar/bench_lap.c tests/bench/bench_util.h $(BENCH_DIR)/libbenchrt.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(BENCH_DIR) -lbenchrt -Wl,-rpath,'$$ORIGIN/../bench' -ldl \
	    -lpthread $(LDFLAGS)

bench-lap: $(SIDECAR_TEST_DIR)/bench_lap $(LIBHIPVIS) $(BUILD)/hipvis-sidecar
	tests/sidecar/lap.sh $(BUILD)

BENCHES += bench-lap

# The serving-loop step at the defaults and in sidecar mode, side by side
# (docs/sidecar.md "Cost against the defaults").
bench-sidecar-step: $(BENCH_DIR)/bench_step $(LIBHIPVIS) $(BUILD)/hipvis-sidecar
	tests/sidecar/step.sh $(BUILD)

BENCHES += bench-sidecar-step
