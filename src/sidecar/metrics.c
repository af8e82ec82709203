/* Prometheus textfile output; see sidecar/metrics.h. */
#include "sidecar/metrics.h"
#include "common/safe_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "format/names.h"

/* Label values escape backslash, double quote and newline. */
static void label(FILE *f, const char *v)
{
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '\\' || *v == '"')
            fputc('\\', f);
        if (*v == '\n') {
            fputs("\\n", f);
            continue;
        }
        fputc(*v, f);
    }
    fputc('"', f);
}

static void head(FILE *f, const char *name, const char *type, const char *help)
{
    fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

/* A family of one unlabelled sample: its header and `name value`. */
static void one_u64(FILE *f, const char *name, const char *type, const char *help, uint64_t v)
{
    head(f, name, type, help);
    fprintf(f, "%s %llu\n", name, (unsigned long long)v);
}

/* The same for a fractional value, `prec` digits after the point. */
static void one_f(FILE *f, const char *name, const char *type, const char *help, int prec, double v)
{
    head(f, name, type, help);
    fprintf(f, "%s %.*f\n", name, prec, v);
}

/* "name{pid="..",exe=".."": the caller adds more labels and the value. */
static void proc_labels(FILE *f, const char *name, const struct sc_proc_metrics *p)
{
    fprintf(f, "%s{pid=\"%llu\",exe=", name, (unsigned long long)p->pid);
    label(f, p->exe);
}

/* One counter per process. `off` is the field's offset in the struct, so the
 * per-process families share one loop instead of one copy each. */
static void per_proc(FILE *f, const char *name, const char *help, size_t off, const struct sc_proc_metrics *const *p,
                     size_t np)
{
    head(f, name, "counter", help);
    for (size_t i = 0; i < np; i++) {
        proc_labels(f, name, p[i]);
        fprintf(f, "} %llu\n", (unsigned long long)*(const uint64_t *)((const char *)p[i] + off));
    }
}

static void write_all(FILE *f, const struct sc_node_metrics *n, const struct sc_proc_metrics *const *p, size_t np)
{
    size_t active = 0;
    for (size_t i = 0; i < np; i++)
        active += p[i]->active != 0;
    one_u64(f, "hipvis_sidecar_processes", "gauge", "traced processes being drained now", active);
    head(f, "hipvis_sidecar_segments_skipped_total", "counter", "segments not drained, by reason");
    fprintf(f, "hipvis_sidecar_segments_skipped_total{reason=\"refused\"} %llu\n", (unsigned long long)n->refused);
    fprintf(f, "hipvis_sidecar_segments_skipped_total{reason=\"corrupt\"} %llu\n", (unsigned long long)n->corrupt);
    fprintf(f, "hipvis_sidecar_segments_skipped_total{reason=\"busy\"} %llu\n", (unsigned long long)n->busy);
    one_u64(f, "hipvis_sidecar_trace_files_deleted_total", "counter", "closed trace files deleted by the disk cap",
            n->files_deleted);
    one_u64(f, "hipvis_sidecar_trace_bytes_deleted_total", "counter", "bytes of trace files deleted by the disk cap",
            n->bytes_deleted);
    one_u64(f, "hipvis_sidecar_trace_disk_bytes", "gauge", "bytes of trace files in the output directory",
            n->disk_bytes);
    one_u64(f, "hipvis_sidecar_alerts_total", "counter", "alert lines appended (new finding groups)", n->alerts);
    one_u64(f, "hipvis_sidecar_drain_cycles_total", "counter", "drain cycles run", n->cycles);
    one_f(f, "hipvis_sidecar_cycle_gap_max_seconds", "gauge", "longest time between two drain cycles (keeping up?)", 6,
          (double)n->cycle_gap_max_ns * 1e-9);
    one_f(f, "hipvis_sidecar_cycle_work_max_seconds", "gauge", "longest time the work of one drain cycle took", 6,
          (double)n->cycle_work_max_ns * 1e-9);
    one_f(f, "hipvis_sidecar_ring_fill_max_ratio", "gauge", "fullest a ring was found at a drain (1: it overflowed)",
          4, n->ring_fill_max);
    head(f, "hipvis_sidecar_cpu_seconds_total", "counter", "CPU time of the sidecar");
    fprintf(f, "hipvis_sidecar_cpu_seconds_total{mode=\"user\"} %.6f\n", n->cpu_user_s);
    fprintf(f, "hipvis_sidecar_cpu_seconds_total{mode=\"system\"} %.6f\n", n->cpu_system_s);
    one_u64(f, "hipvis_sidecar_start_time_seconds", "gauge", "when this sidecar started (UNIX time)",
            n->start_realtime_s);

#define PER(name, field, help) per_proc(f, name, help, offsetof(struct sc_proc_metrics, field), p, np)
    PER("hipvis_calls_total", calls, "intercepted calls of the process");
    PER("hipvis_records_made_total", made, "records the process produced");
    PER("hipvis_records_written_total", written, "records written to trace files by this sidecar");
    PER("hipvis_trace_bytes_written_total", bytes, "bytes of trace files written by this sidecar");
    PER("hipvis_trace_files_total", files, "trace files opened by this sidecar");
    PER("hipvis_records_analyzed_total", analyzed, "records fed to the streaming analysis");
    PER("hipvis_records_late_total", late, "records analyzed out of seq order");
    PER("hipvis_launches_undrawn_total", launches_undrawn,
        "eager launches recorded without kernel and arguments (HIPVIS_LAUNCH_EVERY): no rule saw what they touched");
    PER("hipvis_replays_total", replays, "graph replays analyzed");
    PER("hipvis_replays_unchecked_total", replays_unchecked,
        "graph replays not fully checked: a kernel node of unknown argument layout, or an exec without inventory");
    PER("hipvis_kernel_nodes_unknown_layout_total", unknown_layout_nodes,
        "kernel nodes run with an unknown argument layout, summed over replays: their pointers were not seen");
    PER("hipvis_kernel_args_inferred_total", inferred_args,
        "kernel-node arguments known as pointers by inference only, summed over replays");
#undef PER
    head(f, "hipvis_records_dropped_total", "counter", "records not delivered, by cause");
    for (size_t i = 0; i < np; i++)
        for (int k = 0; k < HV_DROP__COUNT; k++) {
            proc_labels(f, "hipvis_records_dropped_total", p[i]);
            uint64_t v = p[i]->dropped[k] + (k == HV_DROP_WRITE_ERROR ? p[i]->write_lost : 0);
            fprintf(f, ",cause=\"%s\"} %llu\n", hv_drop_cause_name((unsigned)k), (unsigned long long)v);
        }
    head(f, "hipvis_finding_groups", "gauge", "distinct finding groups, by rule");
    for (size_t i = 0; i < np; i++)
        for (int r = 0; r < HV_RULE__COUNT; r++) {
            proc_labels(f, "hipvis_finding_groups", p[i]);
            fprintf(f, ",rule=\"%s\"} %llu\n", hv_rule_name(r), (unsigned long long)p[i]->groups[r]);
        }
    /* By the groups' own severity (a rule softens its default where the
     * evidence is only inferred): what an alert on warning/error keys on. */
    head(f, "hipvis_finding_groups_by_severity", "gauge", "distinct finding groups, by severity");
    for (size_t i = 0; i < np; i++)
        for (int s = HV_SEV_INFO; s <= HV_SEV_ERROR; s++) {
            proc_labels(f, "hipvis_finding_groups_by_severity", p[i]);
            fprintf(f, ",severity=\"%s\"} %llu\n", hv_severity_name(s), (unsigned long long)p[i]->groups_sev[s]);
        }
    head(f, "hipvis_findings_total", "counter", "finding occurrences, by rule");
    for (size_t i = 0; i < np; i++)
        for (int r = 0; r < HV_RULE__COUNT; r++) {
            proc_labels(f, "hipvis_findings_total", p[i]);
            fprintf(f, ",rule=\"%s\"} %llu\n", hv_rule_name(r), (unsigned long long)p[i]->occurrences[r]);
        }
}

int sc_metrics_write(const char *path, const struct sc_node_metrics *n, const struct sc_proc_metrics *const *p,
                     size_t np)
{
    /* Rendered in memory, then replaced atomically through a random O_EXCL
     * temporary in the same directory (safe_file.h): a predictable temp
     * name in a shared textfile directory let another user plant a symlink
     * that a root sidecar followed. 0644: the collector reads it as another
     * user; it holds counts only. */
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    if (!f)
        return -errno;
    write_all(f, n, p, np);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        free(doc);
        return -ENOMEM;
    }
    int rc = hv_file_replace(path, doc, len, 0644);
    free(doc);
    if (rc != 0)
        return rc;
    return 0;
}
