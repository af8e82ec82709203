/*
 * trace-truncated: the trace ends inside a frame or is damaged part-way.
 * The valid prefix was analyzed; hazards after the damage are not reported.
 * A warning, so the default `--fail-on warning` never exits 0 on a cut-short
 * trace while the report still shows what the valid part says.
 * n1 = byte offset where the problem starts, n2 = records delivered before it.
 *
 * A trace without a footer is cut short too, even when it ends on a frame
 * boundary: the process died (crash, kill) or is still running, and what was
 * in its rings and open chunk then is lost without a count — only the footer
 * accounts for it. n1 = bytes read, n2 = records read.
 */
#include "analyze/rules/rules.h"

static void on_finish(struct hv_model *m, const struct hv_input_health *in)
{
    if (in->read_status != 0)
        hv_rule_emit_input(m, HV_RULE_TRACE_TRUNCATED, in->offset, in->records_salvaged, in->what);
    else if (!in->has_footer)
        hv_rule_emit_input(m, HV_RULE_TRACE_TRUNCATED, in->offset, in->records_salvaged,
                           "no footer: the process ended without closing the trace (crash, kill) or is still "
                           "running; records it had not written yet are lost and not counted");
}

const struct hv_rule hv_rule_trace_truncated =
    HV_RULE(HV_RULE_TRACE_TRUNCATED, HV_SEV_WARNING, "trace-truncated",
            "only the part of the trace before the damage was analyzed; hazards after it are not reported",
            .on_finish = on_finish);
