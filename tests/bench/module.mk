# Benchmarks print side-by-side ratios measured in one run (make bench).
BENCH_DIR := $(BUILD)/tests/bench

$(BENCH_DIR)/libbenchrt.so: tests/bench/stub_runtime.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -shared -o $@ $< $(LDFLAGS)

$(BENCH_DIR)/bench_intercept: tests/bench/bench_intercept.c tests/bench/bench_util.h $(BENCH_DIR)/libbenchrt.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(BENCH_DIR) -lbenchrt -Wl,-rpath,'$$ORIGIN' -lpthread $(LDFLAGS)

bench-intercept: $(BENCH_DIR)/bench_intercept $(LIBHIPVIS)
	@echo "== without preload (both arms are direct: shows the noise floor)"
	$(BENCH_DIR)/bench_intercept
	@echo "== LD_PRELOAD=$(LIBHIPVIS), core records only (payloads and rewrite check off, stacks off)"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(BENCH_DIR)/bench.%p.zst HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0 \
	    LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(BENCH_DIR)/bench_intercept
	@echo "== LD_PRELOAD=$(LIBHIPVIS), defaults (payloads off; the rewrite check samples pinned async H2D copies)"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(BENCH_DIR)/bench.%p.zst \
	    LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(BENCH_DIR)/bench_intercept
	rm -f $(BENCH_DIR)/bench.*.zst
	@echo "== instructions per call (callgrind; the same on a loaded machine as on a quiet one)"
	@sh tests/bench/instr.sh $(BENCH_DIR)/bench_intercept $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/instr "core records only" \
	    HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0 HIPVIS_STACKS=0
	@sh tests/bench/instr.sh $(BENCH_DIR)/bench_intercept $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/instr defaults
	@echo "== cache lines and pages one traced call touches (valgrind lackey; the same on a loaded machine as on a quiet one)"
	@sh tests/bench/footprint.sh $(BENCH_DIR)/bench_intercept $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/fp "core records only, one hipMemcpyAsync" \
	    HIPVIS_PAYLOAD_BYTES=0 HIPVIS_REWRITE_CHECK_KB=0 HIPVIS_STACKS=0
	@sh tests/bench/footprint.sh $(BENCH_DIR)/bench_intercept $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/fp "defaults, one hipMemcpyAsync"

BENCHES += bench-intercept

# The uniform fake-runtime loop (one hipMemcpyAsync over and over, optionally
# paced): bytes per record on the uniform loop, and the writer's sustained-rate
# check in make bench.
$(BENCH_DIR)/uniform_loop: tests/bench/uniform_loop.c $(BENCH_DIR)/libbenchrt.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -o $@ $< -L$(BENCH_DIR) -lbenchrt -Wl,-rpath,'$$ORIGIN' -lpthread $(LDFLAGS)

test-programs: $(BENCH_DIR)/uniform_loop

# The serving-loop step of issue 12 on the runtime double (1 and 130 streams).
$(BENCH_DIR)/bench_step: $(BUILD)/obj/tests/bench/bench_step.o | $(BUILD)/tests/double/libamdhip64.so
	@mkdir -p $(@D)
	$(CC) -o $@ $< $(LDFLAGS) -L$(BUILD)/tests/double -lamdhip64 -ldl -lm

bench-step: $(BENCH_DIR)/bench_step $(LIBHIPVIS)
	@echo "== bench-step without preload (both arms direct: the noise floor)"
	LD_LIBRARY_PATH=$(BUILD)/tests/double $(BENCH_DIR)/bench_step
	@echo "== bench-step LD_PRELOAD=$(LIBHIPVIS), defaults"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(BENCH_DIR)/step.%p.zst LD_LIBRARY_PATH=$(BUILD)/tests/double \
	    LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(BENCH_DIR)/bench_step
	rm -f $(BENCH_DIR)/step.*.zst
	@echo "== bench-step instructions and L1 misses per step (callgrind; the same on a loaded machine as on a quiet one)"
	@echo "   (three process layouts: the environment's size moves the stack, and with it which L1 sets the"
	@echo "   step's lines share: at 130 streams the added misses moved by several per step from one layout to another)"
	@for pad in 0 700 1500; do \
	    INSTR_CACHE=1 LD_LIBRARY_PATH=$(BUILD)/tests/double sh tests/bench/instr.sh $(BENCH_DIR)/bench_step $(abspath $(LIBHIPVIS)) \
	        $(BENCH_DIR)/instr "defaults, environment +$$pad B" HV_BENCH_ENV_PAD=$$(printf "%$${pad}s" "" | tr " " x) || exit 1; \
	done
	@echo "== bench-step: where the added L1 misses fall (callgrind, one run per arm): hipvis's own lines, or the"
	@echo "   program's and runtime's lines that hipvis's displaced (what grows with 130 streams)"
	@LD_LIBRARY_PATH=$(BUILD)/tests/double sh tests/bench/displaced.sh $(BENCH_DIR)/bench_step $(abspath $(LIBHIPVIS)) \
	    $(BENCH_DIR)/disp defaults
	@echo "== bench-step cache lines, pages and branches taken per step (valgrind lackey; the same on a loaded machine as on a quiet one)"
	@# HIPVIS_REWRITE_FIRST=0 HIPVIS_LAUNCH_FIRST=0: the steady state past the thread's warm-ups, which
	@# lackey's trace of every access cannot run through (bench_step.c WARM_STEPS).
	@HIPVIS_REWRITE_FIRST=0 HIPVIS_LAUNCH_FIRST=0 LD_LIBRARY_PATH=$(BUILD)/tests/double sh tests/bench/footprint.sh $(BENCH_DIR)/bench_step \
	    $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/fp "defaults, one step"

BENCHES += bench-step

# The same step with a second thread calling the runtime (bench_step
# --helper-us, its head comment): what the second thread costs the first,
# and, against bench-step's 1-stream line, what fencing the clock reads
# costs once a second thread has called.
bench-step-threads: $(BENCH_DIR)/bench_step $(LIBHIPVIS)
	@echo "== bench-step --helper-us 50 without preload (both arms direct: the noise floor, 1 and 2 threads)"
	LD_LIBRARY_PATH=$(BUILD)/tests/double $(BENCH_DIR)/bench_step --helper-us 50
	@echo "== bench-step --helper-us 50, LD_PRELOAD=$(LIBHIPVIS), defaults (every turn fenced)"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(BENCH_DIR)/step2.%p.zst LD_LIBRARY_PATH=$(BUILD)/tests/double \
	    LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(BENCH_DIR)/bench_step --helper-us 50
	@echo "== bench-step, defaults, one calling thread (no fence): its 1-stream line is the unfenced figure"
	HIPVIS_QUIET=1 HIPVIS_OUTPUT=$(BENCH_DIR)/step2.%p.zst LD_LIBRARY_PATH=$(BUILD)/tests/double \
	    LD_PRELOAD=$(abspath $(LIBHIPVIS)) $(BENCH_DIR)/bench_step --rounds 250
	rm -f $(BENCH_DIR)/step2.*.zst

BENCHES += bench-step-threads

# bench_step --helper-us's second thread calls, is traced and follows the
# main thread's arm (a behaviour test, no timing).
check-step-threads: $(BENCH_DIR)/bench_step $(LIBHIPVIS) $(BUILD)/hipvis-dump
	python3 tests/bench/check_step_threads.py $(BUILD)

CHECKS += check-step-threads

# The record floor beside the shipped library (tests/bench/floor.sh): two
# builds of libhipvis made for the measurement only (src/tracer/measure/measure.h
# HV_RECORD_FLOOR), each in a build directory of its own; the sub-make keeps
# them up to date with the sources.
FLOOR_LIB := $(BUILD)-floor/libhipvis.so
FLOOR_NONE_LIB := $(BUILD)-floor-none/libhipvis.so
bench-floor-libs:
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-floor EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_RECORD_FLOOR=1" $(FLOOR_LIB)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-floor-none EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_RECORD_FLOOR=2" $(FLOOR_NONE_LIB)

# The picked build (HV_RECORD_FLOOR=3): the calls of the APIs
# HIPVIS_FLOOR_APIS names at the floor, every other call in full, so that one
# build serves each arm of a comparison by API family (docs/performance.md
# "Method"), e.g. on the GPU, everything but the graph launches:
#   make BUILD=build-floor-pick EXTRA_CFLAGS=-DHV_RECORD_FLOOR=3 build-floor-pick/libhipvis.so
#   P=LIB=build-floor-pick/libhipvis.so
#   ARMS="full:$P fgraph:$P,HIPVIS_FLOOR_APIS=cudaGraphLaunch" bash tests/gpu/ab_arms.sh
FLOOR_PICK_LIB := $(BUILD)-floor-pick/libhipvis.so
# The raw build (HV_RECORD_FLOOR=4): picked the same way, the named calls'
# floor records also holding the wrapper's arguments as passed and nothing
# derived from them (docs/performance.md "Method"):
#   make BUILD=build-floor-raw EXTRA_CFLAGS=-DHV_RECORD_FLOOR=4 build-floor-raw/libhipvis.so
#   ARMS="defaults rawall:LIB=build-floor-raw/libhipvis.so,HIPVIS_FLOOR_APIS=all" bash tests/gpu/ab_arms.sh
FLOOR_RAW_LIB := $(BUILD)-floor-raw/libhipvis.so
# The lean build (measure.h HV_LEAN, every bit): what a call costs
# without its derivations (docs/performance.md "Method"), e.g.
#   make BUILD=build-lean EXTRA_CFLAGS=-DHV_LEAN=7 build-lean/libhipvis.so
#   ARMS="defaults lean:LIB=build-lean/libhipvis.so" bash tests/gpu/ab_arms.sh
LEAN_LIB := $(BUILD)-lean/libhipvis.so
# The reader build (measure.h HV_RECORD_FLOOR=5 with HV_LEAN=5): the named
# calls' arguments and Python sites, the rest as shipped but for the stream
# table and launch-word placement; the calling thread of a design whose
# reader derives the rest, measured before it is built:
#   make BUILD=build-reader EXTRA_CFLAGS="-DHV_RECORD_FLOOR=5 -DHV_LEAN=5" build-reader/libhipvis.so
#   ARMS="defaults reader:LIB=build-reader/libhipvis.so,HIPVIS_FLOOR_APIS=$S" bash tests/gpu/ab_arms.sh
#   (S: the step's copies, graph launches and synchronizes, docs/performance.md)
READER_LIB := $(BUILD)-reader/libhipvis.so
# The demote build (measure.h HV_DEMOTE): each record's lines demoted
# from the core's caches once published (docs/performance.md "Method"):
#   make BUILD=build-demote EXTRA_CFLAGS=-DHV_DEMOTE=1 build-demote/libhipvis.so
#   ARMS="defaults demote:LIB=build-demote/libhipvis.so" bash tests/gpu/ab_arms.sh
DEMOTE_LIB := $(BUILD)-demote/libhipvis.so

bench-floor: $(BENCH_DIR)/bench_intercept $(BENCH_DIR)/bench_step $(LIBHIPVIS) bench-floor-libs
	@echo "== bench-floor: the shipped library, the floor build and the no-record build (measure.h HV_RECORD_FLOOR)"
	@sh tests/bench/floor.sh $(BENCH_DIR) $(abspath $(LIBHIPVIS)) $(abspath $(FLOOR_LIB)) $(abspath $(FLOOR_NONE_LIB)) \
	    $(BUILD)/tests/double $(BENCH_DIR)/floor

.PHONY: bench-floor bench-floor-libs
BENCHES += bench-floor

# The floor builds record what their figures say they do (not a timing test).
check-floor: bench-floor-libs $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/tests/apps/decode_loop \
             $(BUILD)/tests/double/libamdhip64.so
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-floor-pick EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_RECORD_FLOOR=3" \
	    $(FLOOR_PICK_LIB)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-floor-raw EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_RECORD_FLOOR=4" \
	    $(FLOOR_RAW_LIB)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-lean EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_LEAN=255" $(LEAN_LIB)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-reader EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_RECORD_FLOOR=5 -DHV_LEAN=5" \
	    $(READER_LIB)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)-demote EXTRA_CFLAGS="$(EXTRA_CFLAGS) -DHV_DEMOTE=1" $(DEMOTE_LIB)
	python3 tests/bench/check_floor.py $(BUILD)

CHECKS += check-floor

# hipvis_measure_features_off (src/tracer/core/switch.c), the switch of cost.py ab
# --feature-arms, turns off what it says for the steps it says (not a timing test).
check-features-off: $(LIBHIPVIS) $(BUILD)/hipvis-dump $(BUILD)/tests/double/libamdhip64.so
	python3 tests/bench/check_features_off.py $(BUILD)

CHECKS += check-features-off

# bench-intercept's LTTng-UST arm: built only where liblttng-ust-dev is
# installed, run by lttng_arm.sh only where lttng-tools is (make check never
# needs either).
LTTNG_UST_H := $(wildcard /usr/include/lttng/tracepoint.h /usr/include/*/lttng/tracepoint.h)
$(BENCH_DIR)/bench_intercept_lttng: tests/bench/bench_intercept.c tests/bench/bench_tp.h $(BENCH_DIR)/libbenchrt.so
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) -Itests/bench -DHV_BENCH_LTTNG $(CFLAGS) -o $@ $< -L$(BENCH_DIR) -lbenchrt \
	    -Wl,-rpath,'$$ORIGIN' -llttng-ust -ldl -lpthread $(LDFLAGS)

bench-intercept-lttng: $(LIBHIPVIS) $(if $(LTTNG_UST_H),$(BENCH_DIR)/bench_intercept_lttng)
	@echo "== bench-intercept threads with the LTTng-UST arm (LD_PRELOAD=$(LIBHIPVIS), defaults, LTTng session on)"
	@sh tests/bench/lttng_arm.sh $(BENCH_DIR)/bench_intercept_lttng $(abspath $(LIBHIPVIS)) $(BENCH_DIR)/lttng

BENCHES += bench-intercept-lttng

# written + dropped == made under ring pressure (an accounting test, no timing).
check-writer-loss: $(BENCH_DIR)/uniform_loop $(LIBHIPVIS) $(BUILD)/hipvis-dump
	python3 tests/format/check_writer_loss.py $(BUILD)

CHECKS += check-writer-loss

# LTTng-UST events for babeltrace2's counter in bench-format (when liblttng-ust-dev is installed).
ifneq ($(LTTNG_UST_H),)
$(BENCH_DIR)/lttng_loop: tests/bench/lttng_loop.c tests/bench/lttng_tp.h
	@mkdir -p $(@D)
	$(CC) -std=gnu11 -O2 -Itests/bench -o $@ $< -llttng-ust -ldl
bench-format: $(BENCH_DIR)/lttng_loop
endif
