/*
 * The launcher's (tools/hipvis.c) ways to what it starts: libhipvis.so
 * beside its binary, and the sibling tools it hands a command to.
 */
#ifndef HIPVIS_CLI_LAUNCH_H
#define HIPVIS_CLI_LAUNCH_H

#include <stddef.h>

/* libhipvis.so next to the binary (the build tree) or in ../lib
 * (installed), as a real path into out: 0, or -1 after saying on stderr,
 * prefixed with prog, that neither has it. */
int hv_launch_find_lib(const char *prog, char *out, size_t cap);

/* Would libhipvis.so trace a program started with this process's
 * environment? The library's own parse of the HIPVIS_* settings
 * (src/tracer/core/config.c, over src/common/envtab.c's table), then
 * HIPVIS_ENABLE and, for a file, whether the trace's directory can be
 * written. 0, or -1 after saying on stderr (prefixed with prog) what keeps
 * tracing off. */
int hv_launch_check_tracing(const char *prog);

/* hipvis NAME ARGS -> execs hipvis-NAME ARGS, the sibling binary first,
 * then PATH. Returns only when that fails: 127 (2 out of memory). */
int hv_launch_forward(const char *name, int argc, char **argv);

/* The same with argv[0] the NAME ("analyze", "dump", "sidecar"). */
int hv_launch_tool(int argc, char **argv);

/* argv[0] "report": hipvis-analyze --html hipvis-report.html ARGS, or ARGS
 * as they are when they name the page. Returns as hv_launch_forward. */
int hv_launch_report(int argc, char **argv);

#endif
