# The preload library: constructor/config/real symbols (src/preload), the
# record path (src/record), one file per intercepted API family
# (src/intercept/*), the trace writer (src/format) and code-object parsing.
RECORD_SRCS  += $(wildcard src/record/*.c)
PRELOAD_SRCS += $(wildcard src/preload/*.c) $(wildcard src/intercept/hip/*.c)

LIBHIPVIS := $(BUILD)/libhipvis.so
PROGRAMS  += $(LIBHIPVIS)
INSTALL_LIBS += $(LIBHIPVIS)

# -z defs: every symbol must resolve at link time except those we look up
# with dlsym, which proves the library never links a GPU runtime.
$(LIBHIPVIS): $(call obj,$(RECORD_SRCS) $(PRELOAD_SRCS)) $(BUILD)/libhvformat.a $(BUILD)/libhvcodeobj.a
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(call obj,$(RECORD_SRCS) $(PRELOAD_SRCS)) $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a \
	    $(LDFLAGS) -Wl,-z,defs -Wl,-soname,libhipvis.so -lzstd -lmsgpackc -ldl -lpthread

# exec.c defines _exit/_Exit, which GCC otherwise treats as builtins whose
# address cannot be taken.
$(call obj,src/preload/exec.c): CFLAGS += -fno-builtin
