/*
 * records-dropped: the tracer could not deliver some records (ring full,
 * write errors), chunks are missing, or records arrived too late for the
 * reader's reorder window. Any of them can hide the write, sync or event
 * wait a finding depends on — or the absence of one. n1 = how many.
 */
#include "analyze/rules/rules.h"

static void on_finish(struct hv_model *m, const struct hv_input_health *in)
{
    if (in->dropped)
        hv_rule_emit_input(m, HV_RULE_RECORDS_DROPPED, in->dropped, 0,
                           "records dropped by the tracer (ring full, write errors)");
    if (in->chunk_gaps)
        hv_rule_emit_input(m, HV_RULE_RECORDS_DROPPED, in->chunk_gaps, 0, "chunks missing from the file (index gaps)");
    if (in->seq_missing)
        hv_rule_emit_input(m, HV_RULE_RECORDS_DROPPED, in->seq_missing, in->seq_gaps,
                           "calls missing from threads' sequence numbers (lost before reaching the file; n2 = gaps)");
    if (in->late_records)
        hv_rule_emit_input(m, HV_RULE_RECORDS_DROPPED, in->late_records, 0,
                           "records arrived after the reader's reorder window and were analyzed out of order");
}

const struct hv_rule hv_rule_records_dropped =
    HV_RULE(HV_RULE_RECORDS_DROPPED, HV_SEV_WARNING, "records-dropped",
            "missing records can hide a write, a sync or an event wait that a finding depends on",
            .on_finish = on_finish);
