# Evidence collection of the tracer (docs/evidence.md): the hooks the
# record fillers call (evidence.h, ev_hooks.c), payloads and the host-source
# rewrite check (payload.c, srchash.c, hostmem.c), caller stacks (stacks.c)
# and the three-point probe (probe.c). It depends on the tracer's core
# (core/tracer.h: the thread context, rings, allocation map); the core
# reaches it only through its feature entry (ev_hooks.c). Part of
# libhipvis.so.
PRELOAD_SRCS += $(wildcard src/tracer/evidence/*.c)

# XXH3's AVX2 build (srchash_int.h): this object alone may use AVX2; srchash.c
# calls it only where the CPU has it.
ifeq ($(shell uname -m),x86_64)
$(BUILD)/obj/src/tracer/evidence/srchash_avx2.o: CFLAGS += -mavx2
else
PRELOAD_SRCS := $(filter-out src/tracer/evidence/srchash_avx2.c,$(PRELOAD_SRCS))
endif
