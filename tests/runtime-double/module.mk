# tests/runtime-double: TEST-ONLY HIP runtime test double.
#
# Builds $(BUILD)/tests/double/libamdhip64.so.5 (soname libamdhip64.so.5, plus
# the libamdhip64.so link): the HIP API on host memory, for end-to-end tests
# without an AMD GPU. Never installed and not part of `all`; tests select it
# (or the real runtime) with LD_LIBRARY_PATH. No symbol-version script on
# purpose: an unversioned library satisfies the real runtime's versioned
# references (hipMemcpyAsync@hip_4.2 ...). The sources mark the HIP API with
# default visibility themselves (CFLAGS has -fvisibility=hidden).
#
#   make check-double        unit tests, decode-loop fault models, symbol checks
#   make check-double-tsan   thread-mode runs under ThreadSanitizer

DOUBLE_DIR   := $(BUILD)/tests/double
DOUBLE_LIB   := $(DOUBLE_DIR)/libamdhip64.so.5
DOUBLE_LINK  := $(DOUBLE_DIR)/libamdhip64.so
DOUBLE_TEST  := $(DOUBLE_DIR)/test_double
DOUBLE_SRCS  := tests/runtime-double/double_core.c tests/runtime-double/double_memory.c \
                tests/runtime-double/double_kernel.c tests/runtime-double/double_graph.c
DOUBLE_HDRS  := tests/runtime-double/hipdouble.h tests/runtime-double/double_int.h

TEST_PROGRAMS += $(DOUBLE_LIB) $(DOUBLE_LINK) $(DOUBLE_TEST)

$(DOUBLE_LIB): $(call obj,$(DOUBLE_SRCS))
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,libamdhip64.so.5 -o $@ $^ $(LDFLAGS) -lpthread

$(DOUBLE_LINK): $(DOUBLE_LIB)
	ln -sf libamdhip64.so.5 $@

$(DOUBLE_TEST): $(call obj,tests/runtime-double/test_double.c) $(DOUBLE_LINK)
	$(CC) -o $@ $< $(LDFLAGS) -L$(DOUBLE_DIR) -lamdhip64 -lpthread

# Everything the double's checks run; tests/apps adds its programs here too.
.PHONY: test-programs check-double-tsan
test-programs: $(DOUBLE_LIB) $(DOUBLE_LINK) $(DOUBLE_TEST)

check-double: test-programs
	@sh tests/runtime-double/check_double.sh $(BUILD) $(SAN)

# ThreadSanitizer build of the double, its unit tests and the decode loop,
# run in HIPDOUBLE_EXEC=thread (race-free scenarios only).
DOUBLE_TSAN_DIR   := $(BUILD)/tests/double-tsan
DOUBLE_TSAN_FLAGS := $(CPPFLAGS_BASE) $(CFLAGS_BASE) -O1 -fsanitize=thread

$(DOUBLE_TSAN_DIR)/libamdhip64.so.5: $(DOUBLE_SRCS) $(DOUBLE_HDRS)
	@mkdir -p $(@D)
	$(CC) $(DOUBLE_TSAN_FLAGS) -shared -Wl,-soname,libamdhip64.so.5 -o $@ $(DOUBLE_SRCS) -lpthread
	ln -sf libamdhip64.so.5 $(@D)/libamdhip64.so

$(DOUBLE_TSAN_DIR)/test_double: tests/runtime-double/test_double.c $(DOUBLE_TSAN_DIR)/libamdhip64.so.5
	$(CC) $(DOUBLE_TSAN_FLAGS) -o $@ $< -L$(DOUBLE_TSAN_DIR) -lamdhip64 -lpthread

$(DOUBLE_TSAN_DIR)/decode_loop: tests/apps/decode_loop.c $(APPS_DIR)/decode_fatbin.o $(DOUBLE_TSAN_DIR)/libamdhip64.so.5
	$(CC) $(DOUBLE_TSAN_FLAGS) -o $@ $< $(APPS_DIR)/decode_fatbin.o -L$(DOUBLE_TSAN_DIR) -lamdhip64 -lpthread -ldl

check-double-tsan: $(DOUBLE_TSAN_DIR)/test_double $(DOUBLE_TSAN_DIR)/decode_loop
	@sh tests/runtime-double/check_double.sh $(BUILD) tsan

CHECKS     += check-double
ifneq ($(SAN),1)
CHECKS     += check-double-tsan
endif
SAN_CHECKS += check-double
