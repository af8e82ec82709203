/*
 * What the files of src/tracer/names share and nothing outside it uses.
 */
#ifndef HV_TRACER_NAMES_NAMES_INT_H
#define HV_TRACER_NAMES_NAMES_INT_H

#include <stdint.h>

#include "tracer/names/marks.h"

/* A mark from inside a traced call (marks.c): regions.c's RECORD_ON and
 * RECORD_OFF, with the count of data calls skipped so far. */
void hv_mark_in_call(struct hv_thread_ctx *t, unsigned kind, unsigned source, uint64_t skipped);

#endif
