# The host-access check (HIPVIS_HOSTCHECK; docs/hostcheck.md): in-flight
# ranges protected with mprotect, the SIGSEGV handler that records a host
# access to one, and the program's sigaction/signal kept chained behind it.
# Host functions run through a trampoline that gives their stream's pages
# back. Part of the preload library; the tracer reaches it through the hooks of
# hostcheck.h only.
PRELOAD_SRCS += $(wildcard src/tracer/hostcheck/*.c)
