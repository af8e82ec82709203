# Evidence collection of the tracer (docs/evidence.md): the hooks the
# record fillers call (evidence.h, evidence.c), payloads and the host-source
# rewrite check (payload.c, xxh64.c), caller stacks (stacks.c) and the
# three-point probe (probe.c). It depends on the tracer (src/preload: the
# thread context, rings, allocation map); the tracer reaches it only through
# evidence.h's hooks. Part of libhipvis.so.
PRELOAD_SRCS += $(wildcard src/evidence/*.c)
