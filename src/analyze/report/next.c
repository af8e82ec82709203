/* next: what to do about a finding; see next.h. */
#include "analyze/report/next.h"

#include <stdio.h>
#include <string.h>

#include "analyze/errata/errata.h"
#include "analyze/rules/rules.h"
#include "hipvis/trace.h"

const struct hv_trace_summary *hv_trace_of(const struct hv_findings *s, uint64_t pid)
{
    for (size_t i = 0; i < s->ntraces; i++)
        if (s->traces[i].pid == pid)
            return &s->traces[i];
    return NULL;
}

const char *hv_shell_quote(const char *s, char *buf, size_t len)
{
    int plain = *s != '\0';
    for (const char *p = s; *p && plain; p++)
        plain = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,:@%=", *p) != NULL;
    if (plain) {
        snprintf(buf, len, "%s", s);
        return buf;
    }
    /* 'it'\''s': close, escaped quote, reopen. */
    size_t o = 0;
    if (len < 3)
        return "''";
    buf[o++] = '\'';
    for (const char *p = s; *p && o + 6 < len; p++) {
        if (*p == '\'') {
            memcpy(buf + o, "'\\''", 4);
            o += 4;
        } else {
            buf[o++] = *p;
        }
    }
    buf[o++] = '\'';
    buf[o] = '\0';
    return buf;
}

const char *hv_command_text(const struct hv_trace_summary *t, char *buf, size_t len, int *truncated)
{
    *truncated = 0;
    if (!t || !t->argc || !len)
        return NULL;
    size_t o = 0;
    buf[0] = '\0';
    for (uint32_t p = 0; p < t->argv_bytes && p < sizeof t->argv;) {
        const char *a = t->argv + p;
        size_t n = strnlen(a, sizeof t->argv - p);
        /* Quoting at most quadruples an argument ('\'' per quote) plus 2:
         * with that much room hv_shell_quote never cuts it short. */
        if (o + 1 + 4 * n + 3 > len)
            return NULL;
        char *q = buf + o + (o != 0);
        if (o)
            buf[o] = ' ';
        hv_shell_quote(a, q, len - (size_t)(q - buf));
        o = (size_t)(q - buf) + strlen(q);
        p += (uint32_t)n + 1;
    }
    *truncated = (t->argv_flags & HV_ARGV_TRUNCATED) != 0;
    return buf;
}

const char *hv_experiment_command(const struct hv_trace_summary *t, char *buf, size_t len)
{
    static const char head[] = "hipvis experiment -o hv-experiment -- ";
    int cut = 0;
    char exe[1024];
    if (len <= sizeof head)
        return "";
    memcpy(buf, head, sizeof head);
    if (hv_command_text(t, buf + sizeof head - 1, len - (sizeof head - 1), &cut)) {
        if (cut && strlen(buf) + 8 < len)
            strcat(buf, " ARGS...");   /* the rest of a command line over 4 KiB */
        return buf;
    }
    snprintf(buf + sizeof head - 1, len - (sizeof head - 1), "%s ARGS...",
             t && t->exe[0] ? hv_shell_quote(t->exe, exe, sizeof exe) : "PROGRAM");
    return buf;
}

/* Per rule, what to do; hv_next_steps adds the evidence the trace lacks. */
#define EVENT_SYNC_WHY                                                                                 \
    "the host waits for the copy (system-scope fence) before the replay; if the symptom goes away, this " \
    "copy feeds it"
static const struct hv_next by_rule[HV_RULE__COUNT] = {
    [HV_RULE_SAME_EPOCH_WRITE] = {.diagnose = 1, .experiment = 1, .guard = "event-sync", .guard_why = EVENT_SYNC_WHY},
    [HV_RULE_THREE_POINT_PROBE] = {.diagnose = 1, .experiment = 1, .guard = "event-sync", .guard_why = EVENT_SYNC_WHY},
    [HV_RULE_PARALLEL_QUEUE_READ] = {
        .diagnose = 1, .experiment = 1, .guard = "event-sync-nofence",
        .guard_why = "orders the host after the copy without the system fence: if that alone removes the "
                     "symptom, ordering (H1) is the cause",
        .rerun = "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0",
        .rerun_why = "the classic executor makes parallel queues wait for the launch stream"},
    [HV_RULE_UNORDERED_WRITE] = {
        .experiment = 1, .guard = "stream-sync",
        .guard_why = "the host waits for the launch stream before each flagged replay",
        .fix = "record an event on the writing stream after the write and hipStreamWaitEvent/"
               "cudaStreamWaitEvent on the reading stream before the read"},
    [HV_RULE_WRITE_DURING_REPLAY] = {
        .fix = "wait for the replay (an event recorded after it, waited on by the writing stream or the host) "
               "before writing the buffer, or write a second buffer"},
    [HV_RULE_STALE_CAPTURE_POINTER] = {
        .fix = "keep the buffer alive while the graph exec is used, or update the node "
               "(hipGraphExecKernelNodeSetParams / cudaGraphExecUpdate) or re-instantiate after re-allocating"},
    [HV_RULE_CONCURRENT_SHARED_REPLAY] = {
        .fix = "order the two replays (an event between their streams) or give each graph its own buffer"},
    [HV_RULE_HOST_SOURCE_REWRITTEN] = {
        .experiment = 1, .guard = "copy-sync",
        .guard_why = "the host waits for each pinned H2D copy before the copy call returns, so the source "
                     "cannot be rewritten while the copy is pending",
        .fix = "double-buffer the pinned source, or wait for an event recorded after the copy before "
               "rewriting it"},
    [HV_RULE_RECORDS_DROPPED] = {
        .rerun = "HIPVIS_RING_KB=8192",
        .rerun_why = "larger per-thread rings drop less under bursts (see the footer's drop causes: "
                     "hipvis-dump --json TRACE | tail -1)"},
    [HV_RULE_TRACE_TRUNCATED] = {
        .fix = "the process ended before the tracer finished the file (crash, SIGKILL, _exit): findings "
               "cover the prefix; rerun to a clean exit for the rest"},
    [HV_RULE_HOST_ACCESS_IN_FLIGHT] = {
        .experiment = 1,
        .fix = "synchronize the op's stream (hipStreamSynchronize / cudaStreamSynchronize), or record an event "
               "after the op and wait for it (hipEventSynchronize / cudaEventSynchronize), before the host "
               "touches the buffer; or give each in-flight step its own pinned buffer"},
};

void hv_next_steps(const struct hv_finding *f, const struct hv_trace_summary *t, struct hv_next *n)
{
    memset(n, 0, sizeof *n);
    if (f->rule < HV_RULE__COUNT)
        *n = by_rule[f->rule];
    if (f->rule == HV_RULE_RUNTIME_ERRATUM && (f->n1 & 0xff) < hv_nerrata) {
        /* The erratum's own workaround and experiment arm. */
        const struct hv_erratum *e = &hv_errata[f->n1 & 0xff];
        n->diagnose = 1;
        n->experiment = e->arm != NULL;
        n->rerun = e->arm_env;
        n->rerun_why = e->arm_note;
        n->fix = e->workaround;
    }
    if (f->rule == HV_RULE_HOST_ACCESS_IN_FLIGHT && f->a.dir == HV_DIR_H2D) {
        n->guard = "copy-sync HIPVIS_GUARD_WHEN=always";
        n->guard_why = "the host waits for each pinned H2D copy before the copy call returns: if the "
                       "symptom goes away, this race feeds it";
    }
    int probes = t && (t->flags & HV_HDR_PROBES);
    int stacks = t && (t->flags & HV_HDR_STACKS);
    if (t && !probes && f->rule == HV_RULE_SAME_EPOCH_WRITE) {
        n->rerun = "HIPVIS_PROBE=auto";
        n->rerun_why = "snapshots the buffer after the copy, before and after the replay: shows whether "
                       "the graph really read a stale value";
    }
    const struct hv_fside *p = hv_finding_inferred(f);
    if (p && (p->deref == HV_DEREF_UNCHECKED || p->deref == HV_DEREF_NO_CODE || p->deref == HV_DEREF_NOT_STORED)) {
        n->code_object = 1;
        n->confirm_why = "FILE: the kernel's code object (a .hsaco, an offload bundle, or the binary that embeds "
                         "it): confirms the inferred pointer from the kernel's own loads";
        if (p->deref == HV_DEREF_NOT_STORED) {
            n->store = "HIPVIS_CODEOBJ_MB=1024";
            n->store_why = "a larger code-object budget keeps the kernel's code object in the trace, and the "
                           "analysis confirms the pointer from it";
        }
    }
    /* A host access carries its own stack: HIPVIS_STACKS adds only the op's. */
    if (!n->rerun && t && !stacks && f->rule != HV_RULE_TRACE_TRUNCATED && f->rule != HV_RULE_RECORDS_DROPPED &&
        f->rule != HV_RULE_HOST_ACCESS_IN_FLIGHT) {
        n->rerun = "HIPVIS_STACKS=1";
        n->rerun_why = "records the caller stack of each write and replay, so the report names the code";
    }
}
