/*
 * Trace operands of the tools: a file, a directory (every trace inside,
 * recursively, in name order) or "-" (stdin, copied to a private temporary
 * file first, so that every pass over the trace — analysis, stacks, value
 * search — can read it again).
 */
#ifndef HV_CLI_INPUTS_H
#define HV_CLI_INPUTS_H

#include <stddef.h>

struct hv_input {
    char *path;   /* what to open */
    char *name;   /* what to call it in reports ("<stdin>" for -) */
    int is_tmp;   /* path is our copy of stdin: removed by hv_inputs_free */
};

/* A problem with an operand itself (unreadable directory, no traces in it,
 * stdin not copyable). Problems inside a trace are the reader's to report. */
struct hv_input_error {
    char *name;
    char *what;
};

struct hv_inputs {
    struct hv_input *v;
    size_t n, cap;
    struct hv_input_error *err;
    size_t nerr, caperr;
    int used_stdin;
};

/* Expands one operand into inputs. Returns 0, or -1 after recording an
 * error (and printing it to stderr prefixed with `prog`). */
int hv_inputs_add(struct hv_inputs *in, const char *arg, const char *prog);
/* Removes the copy of stdin and frees everything. */
void hv_inputs_free(struct hv_inputs *in);

#endif
