# The preload library: the tracer's core (src/tracer/core: its contract is
# tracer.h), the record path (src/tracer/record over the rings of src/ring),
# one file per intercepted API family (src/tracer/intercept/*), the features
# (src/tracer/{evidence,guard,names,pyframes}: the core reaches them only
# through their struct hv_feature entries), the trace writer (src/format)
# and code-object parsing.
RECORD_SRCS  += $(wildcard src/tracer/record/*.c) $(wildcard src/ring/*.c)
PRELOAD_SRCS += $(wildcard src/tracer/core/*.c) $(wildcard src/tracer/intercept/hip/*.c)

LIBHIPVIS := $(BUILD)/libhipvis.so
PROGRAMS  += $(LIBHIPVIS)
INSTALL_LIBS += $(LIBHIPVIS)

# -z defs: every symbol must resolve at link time except those we look up
# with dlsym, which proves the library never links a GPU runtime. The
# prerequisites are expanded a second time, after every fragment has been
# read, so that the sources the tracer's other folders add (their fragments
# sort after this one) are all linked.
.SECONDEXPANSION:
$(LIBHIPVIS): $$(call obj,$$(RECORD_SRCS) $$(PRELOAD_SRCS)) $(BUILD)/libhvformat.a $(BUILD)/libhvcodeobj.a
	@mkdir -p $(@D)
	$(CC) -shared -o $@ $(call obj,$(RECORD_SRCS) $(PRELOAD_SRCS)) $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a \
	    $(LDFLAGS) -Wl,-z,defs -Wl,-soname,libhipvis.so -lzstd -lmsgpackc -lelf -ldl -lpthread

# exec.c defines _exit/_Exit, which GCC otherwise treats as builtins whose
# address cannot be taken.
$(call obj,src/tracer/core/exec.c): CFLAGS += -fno-builtin
