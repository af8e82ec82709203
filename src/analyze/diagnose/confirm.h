/*
 * confirm — pointer arguments the trace only inferred, checked against the
 * kernel's own code.
 *
 * Without a layout (an image the tracer could not decode), and inside a
 * by-value argument (Composable Kernel's argument structs, PyTorch's
 * TensorIterator config), a pointer is only a word of the arguments equal
 * to an address in a tracked allocation: origin "inferred". Its findings
 * keep their rule's severity; this pass says whether the kernel really uses
 * the word as an address. After the analysis, for each trace with a finding
 * on an inferred word, the trace is read again for its code objects
 * (HV_REC_CODEOBJ) and kernel records, and with the --code-object files the
 * dataflow of codeobj/scalar.h (hv_co_scalar_words) tells whether the
 * kernel loads the word from its kernarg segment and then loads, stores or
 * atomically updates memory through it:
 *  - yes: the side's origin becomes HV_ARG_CONFIRMED (deref SEEN);
 *  - no: it stays inferred (deref NOT_SEEN: the linear pass saw no such use;
 *    the word may be passed on, or used past a call);
 *  - the word is argument N of a params array and the kernel takes fewer
 *    arguments: it was read past the array's end (deref NO_ARG) and the
 *    finding drops to info;
 *  - no code object or no disassembler: deref says which, for the report's
 *    "next" step.
 * Groups without an inferred side are not touched and no trace is read
 * again when there is none.
 */
#ifndef HV_ANALYZE_DIAGNOSE_CONFIRM_H
#define HV_ANALYZE_DIAGNOSE_CONFIRM_H

#include "analyze/findings.h"

struct hv_sx;

/* Checks every inferred side of s's groups against the kernels of `code`
 * (the --code-object files: scalar_exposure.h) and of the traces; each
 * trace's objects leave `code` again after its groups. `traces` are the
 * files the groups came from (their headers' pids match the groups').
 * Returns the number of sides confirmed (0 when `code` is NULL). */
size_t hv_confirm_findings(struct hv_sx *code, struct hv_findings *s, const char *const *traces, int ntraces);

#endif
