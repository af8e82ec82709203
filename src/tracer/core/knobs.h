/*
 * The runtime knobs of the traced process's environment, for the trace
 * header (hv_file_header.knobs): what the analyzer needs to tell how the
 * runtime scheduled the work (graph executor and queue count, copy
 * engines, cache flushes) and which published runtime erratum that
 * schedule can hit.
 */
#ifndef HIPVIS_KNOBS_H
#define HIPVIS_KNOBS_H

#include <stddef.h>

/* Fills buf with "NAME=value;..." for every variable of the environment
 * whose name starts with DEBUG_HIP_, DEBUG_CLR_, AMD_, HSA_ or GPU_, and
 * the CUDA / NCCL ones that order work. The scheduling knobs the analyzer
 * reads come first, so a crowded environment never pushes them out; a
 * variable that does not fit is left out. Returns 1 when one was, else 0. */
int hv_knobs_fill(char *buf, size_t len);

#endif
