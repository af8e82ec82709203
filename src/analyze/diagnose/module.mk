# --diagnose (hipvis-analyze only): ranked hypotheses per same-epoch-write
# group, and the scalar-load exposure of their readers. Not part of
# libhvanalyze.a, which the sidecar links: this pulls in the code-object
# parser and, with HAVE_LLVM=1, libLLVM.
DIAG_SRCS := $(sort $(wildcard src/analyze/diagnose/*.c))

$(BUILD)/libhvdiagnose.a: $(call obj,$(DIAG_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# What a program using it links, after its own objects and before
# libhvanalyze.a / libhvformat.a. Recursive (=): HAVE_LLVM is settled by
# src/codeobj/module.mk, which is read after this fragment.
DIAG_LINK = $(BUILD)/libhvdiagnose.a $(if $(filter 1,$(HAVE_LLVM)),$(BUILD)/libhvcodeobj-scalar.a) \
            $(BUILD)/libhvcodeobj.a
DIAG_LIBS = $(if $(filter 1,$(HAVE_LLVM)),$(CODEOBJ_SCALAR_LIBS)) $(CODEOBJ_LIBS)

# The classifier is called only when it is built (recipes expand late, so
# HAVE_LLVM is known here; the pattern rule's flags are fixed too early).
$(call obj,src/analyze/diagnose/scalar_exposure.c): src/analyze/diagnose/scalar_exposure.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(if $(filter 1,$(HAVE_LLVM)),-DHV_HAVE_SCALAR=1) $(CFLAGS) -MMD -MP -c $< -o $@

# The same library without the LLVM classifier (scalar exposure reported as
# unavailable): for programs that must not depend on libLLVM (the launcher's
# `hipvis experiment`) and to test that the analyzer works without it.
$(BUILD)/obj/src/analyze/diagnose/scalar_exposure_nollvm.o: src/analyze/diagnose/scalar_exposure.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_BASE) $(CFLAGS) -c $< -o $@

$(BUILD)/libhvdiagnose-nollvm.a: $(call obj,$(filter-out %/scalar_exposure.c,$(DIAG_SRCS))) \
                                 $(BUILD)/obj/src/analyze/diagnose/scalar_exposure_nollvm.o
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

DIAG_LINK_NOLLVM = $(BUILD)/libhvdiagnose-nollvm.a $(BUILD)/libhvcodeobj.a
DIAG_LIBS_NOLLVM = $(CODEOBJ_LIBS)
