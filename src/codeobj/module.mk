# src/codeobj: AMDGPU code-object parsing (bundles, CCOB, ELF via libelf, msgpack).
#
# libhvcodeobj.a: pure C library for the preload library and the analyzer;
#   its lookups use the common hash map (src/common, in libhvformat.a).
#   Link: $(BUILD)/libhvcodeobj.a $(BUILD)/libhvformat.a $(CODEOBJ_LIBS)
# libhvcodeobj-scalar.a: scalar-vs-vector classification of pointer
#   arguments through LLVM's disassembler. Analyzer only (it loads
#   libLLVM, which has no business inside a traced process, with dlopen on
#   first use), and only when llvm-config-22 exists: HAVE_LLVM=1.
#   Link: $(BUILD)/libhvcodeobj-scalar.a $(BUILD)/libhvcodeobj.a
#         $(BUILD)/libhvformat.a $(CODEOBJ_SCALAR_LIBS) $(CODEOBJ_LIBS)
CODEOBJ_SRCS += src/codeobj/bundle.c src/codeobj/ccob.c \
                src/codeobj/elf.c src/codeobj/err.c src/codeobj/fatbin.c \
                src/codeobj/hash.c src/codeobj/kd.c \
                src/codeobj/mach.c src/codeobj/meta.c src/codeobj/mpcheck.c \
                src/codeobj/parse.c src/codeobj/table.c src/codeobj/unit.c
CODEOBJ_LIBS := -lmsgpackc -lzstd -lelf

$(BUILD)/libhvcodeobj.a: $(call obj,$(CODEOBJ_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

PROGRAMS += $(BUILD)/libhvcodeobj.a

# llvm-config-22 comes with llvm-22, the C API headers and libLLVM-22.so
# with llvm-22-dev: require both.
LLVM_CONFIG ?= llvm-config-22
HAVE_LLVM   ?= $(if $(wildcard $(shell $(LLVM_CONFIG) --includedir 2>/dev/null)/llvm-c/Disassembler.h),1,0)

ifeq ($(HAVE_LLVM),1)
CODEOBJ_SCALAR_SRCS := src/codeobj/insn.c src/codeobj/flow.c src/codeobj/scalar.c
# libLLVM is dlopen'ed on first use (scalar.c), so nothing links it: an
# analyzer that never runs the scalar check never maps LLVM, z3 or ICU.
# The build bakes in where this llvm-config's library is.
LLVM_LIBDIR := $(shell $(LLVM_CONFIG) --libdir 2>/dev/null)
LLVM_SONAME := $(or $(shell readelf -d $(LLVM_LIBDIR)/libLLVM.so 2>/dev/null | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'),libLLVM.so)
CODEOBJ_SCALAR_LIBS :=
$(call obj,src/codeobj/scalar.c): CPPFLAGS_BASE += -I$(shell $(LLVM_CONFIG) --includedir) \
    -DHV_LLVM_LIB='"$(LLVM_LIBDIR)/$(LLVM_SONAME)"' -DHV_LLVM_SONAME='"$(LLVM_SONAME)"'

$(BUILD)/libhvcodeobj-scalar.a: $(call obj,$(CODEOBJ_SCALAR_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

PROGRAMS += $(BUILD)/libhvcodeobj-scalar.a
endif
