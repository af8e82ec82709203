# Forensics (hipvis-analyze only): --find-value and the symbolized stacks of
# findings. Not part of libhvanalyze.a, which the sidecar links: stacks are
# symbolized with libelf and libdw (file:line).
FORENSICS_SRCS := $(sort $(wildcard src/analyze/forensics/*.c))

$(BUILD)/libhvforensics.a: $(call obj,$(FORENSICS_SRCS))
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

# What a program using it links, after its own objects and before
# libhvanalyze.a / libhvformat.a.
FORENSICS_LINK := $(BUILD)/libhvforensics.a
FORENSICS_LIBS := -ldw -lelf
