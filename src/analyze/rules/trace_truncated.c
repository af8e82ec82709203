/*
 * trace-truncated: the trace ends inside a frame or is damaged part-way.
 * The valid prefix was analyzed; hazards after the damage are not reported.
 * A warning, so the default `--fail-on warning` never exits 0 on a cut-short
 * trace while the report still shows what the valid part says.
 * n1 = byte offset where the problem starts, n2 = records delivered before it.
 */
#include "analyze/rules/rules.h"

static void on_finish(struct hv_model *m, const struct hv_input_health *in)
{
    if (in->read_status != 0)
        hv_rule_emit_input(m, HV_RULE_TRACE_TRUNCATED, in->offset, in->records_salvaged, in->what);
}

const struct hv_rule hv_rule_trace_truncated = {
    .id = HV_RULE_TRACE_TRUNCATED,
    .severity = HV_SEV_WARNING,
    .name = "trace-truncated",
    .why = "only the part of the trace before the damage was analyzed; hazards after it are not reported",
    .on_finish = on_finish,
};
