/* The rule table. Adding a rule: one file with its struct hv_rule (HV_RULE), one
 * enum value in rules.h, one line here. */
#include <stdio.h>
#include <string.h>

#include "analyze/rules/rules.h"

extern const struct hv_rule hv_rule_same_epoch_write, hv_rule_unordered_write, hv_rule_write_during_replay,
    hv_rule_stale_capture_pointer, hv_rule_concurrent_shared_replay, hv_rule_trace_truncated,
    hv_rule_records_dropped, hv_rule_parallel_queue_read,
    hv_rule_host_source_rewritten, hv_rule_three_point_probe, hv_rule_runtime_erratum,
    hv_rule_host_access_in_flight;

const struct hv_rule *const hv_rules[HV_RULE__COUNT] = {
    [HV_RULE_SAME_EPOCH_WRITE] = &hv_rule_same_epoch_write,
    [HV_RULE_UNORDERED_WRITE] = &hv_rule_unordered_write,
    [HV_RULE_WRITE_DURING_REPLAY] = &hv_rule_write_during_replay,
    [HV_RULE_STALE_CAPTURE_POINTER] = &hv_rule_stale_capture_pointer,
    [HV_RULE_CONCURRENT_SHARED_REPLAY] = &hv_rule_concurrent_shared_replay,
    [HV_RULE_TRACE_TRUNCATED] = &hv_rule_trace_truncated,
    [HV_RULE_RECORDS_DROPPED] = &hv_rule_records_dropped,
    [HV_RULE_PARALLEL_QUEUE_READ] = &hv_rule_parallel_queue_read,
    [HV_RULE_HOST_SOURCE_REWRITTEN] = &hv_rule_host_source_rewritten,
    [HV_RULE_THREE_POINT_PROBE] = &hv_rule_three_point_probe,
    [HV_RULE_RUNTIME_ERRATUM] = &hv_rule_runtime_erratum,
    [HV_RULE_HOST_ACCESS_IN_FLIGHT] = &hv_rule_host_access_in_flight,
};

const struct hv_rule *hv_rule_by_name(const char *name)
{
    for (int i = 0; i < HV_RULE__COUNT; i++)
        if (strcmp(hv_rules[i]->name, name) == 0)
            return hv_rules[i];
    return NULL;
}

int hv_rule_disable(uint32_t *disabled, const char *name, const char *prog)
{
    const struct hv_rule *r = hv_rule_by_name(name);
    if (!r) {
        fprintf(stderr, "%s: --disable: no rule '%s'\n", prog, name);
        return -2;
    }
    *disabled |= 1u << r->id;
    return 0;
}

const char *hv_rule_name(int id)
{
    return id >= 0 && id < HV_RULE__COUNT ? hv_rules[id]->name : "?";
}

const char *hv_rule_why(int id)
{
    return id >= 0 && id < HV_RULE__COUNT ? hv_rules[id]->why : "";
}
