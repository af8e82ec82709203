/* Coverage (src/analyze/coverage.c) and the verdict that carries it
 * (src/analyze/report/verdict.c): which replays count as checked, the
 * per-replay sums, and that an unchecked replay is never a bare "0 bugs". */
#include <stdlib.h>
#include <string.h>

#include "analyze/coverage.h"
#include "analyze/report/verdict.h"
#include "analyze/rules/rules.h"
#include "common/json.h"
#include "scenarios.h"
#include "tcheck.h"

#define S1 0x1000

/* A kernel node (name id `k`) with the arguments given. */
static struct tb_node kernel(uint32_t k, const struct tb_arg *args, uint32_t nargs, int no_layout)
{
    return (struct tb_node){.type = HV_NODE_KERNEL, .name_id = k, .args = args, .nargs = nargs,
                            .no_layout = (uint8_t)no_layout};
}

void test_coverage_counts(void)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 301, NULL);
    tb_stream_create(&t, S1, 1);
    tb_alloc(&t, 0x10000, 4096, HV_MEM_DEVICE);
    const struct tb_arg meta[] = {{0x10000, 0, HV_ACCESS_READ, HV_ARG_METADATA}};
    const struct tb_arg inferred[] = {{0x10000, 0, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED},
                                      {0x10100, 1, HV_ACCESS_UNKNOWN, HV_ARG_INFERRED}};
    /* A: a metadata kernel: checked. */
    struct tb_node a[] = {kernel(1, meta, 1, 0)};
    tb_instantiate(&t, 0xA0, a, 1, NULL, 0);
    /* B: a kernel the tracer knew no layout of, no argument seen, next to a
     * known one: the replay is unchecked, one node run counted. */
    struct tb_node b[] = {kernel(1, meta, 1, 0), kernel(2, NULL, 0, 1)};
    tb_instantiate(&t, 0xB0, b, 2, NULL, 0);
    /* C: no layout, two pointers inferred from a packed block: unchecked,
     * and the inferred arguments counted. */
    struct tb_node c[] = {kernel(3, inferred, 2, 1)};
    tb_instantiate(&t, 0xC0, c, 1, NULL, 0);
    /* D: a layout from parameter sizes (CUDA), its pointers inferred:
     * every word was scanned, so checked; the inferred ones counted. */
    struct tb_node d[] = {kernel(4, inferred, 2, 0)};
    tb_instantiate(&t, 0xD0, d, 1, NULL, 0);
    /* E: no layout, but an argument from metadata: it had one. */
    struct tb_node e[] = {kernel(5, meta, 1, 1)};
    tb_instantiate(&t, 0xE0, e, 1, NULL, 0);
    for (int i = 0; i < 3; i++) {
        tb_graph_launch(&t, 0xA0, S1);
        tb_graph_launch(&t, 0xB0, S1);
        tb_graph_launch(&t, 0xC0, S1);
        tb_graph_launch(&t, 0xD0, S1);
        tb_graph_launch(&t, 0xE0, S1);
        tb_stream_sync(&t, S1);
    }
    tb_graph_launch(&t, 0xF0, S1);   /* never instantiated in the trace */
    /* B's kernel becomes known (a later module lookup): its replays from now on are checked. */
    struct hv_kernel_sym ks;
    memset(&ks, 0, sizeof ks);
    ks.h.type = HV_REC_KERNEL;
    ks.h.size = sizeof ks;
    ks.func = 0x7000 + 2;
    ks.code_object_hash = 0x1234;
    ks.nargs = 1;
    tb_aux(&t, &ks);
    tb_graph_launch(&t, 0xB0, S1);
    tb_engine_close(&t);

    const struct hv_trace_summary *s = &out.traces[0];
    CHECK_EQ_U(s->replays, 17);
    CHECK_EQ_U(s->replays_checked, 3 + 3 + 3 + 1);    /* A, D, E, then B once known */
    CHECK_EQ_U(s->replays_unknown_layout, 3 + 3);     /* B and C before */
    CHECK_EQ_U(s->unknown_layout_nodes, 3 + 3);       /* one node each */
    CHECK_EQ_U(s->inferred_args, 3 * 2 + 3 * 2);      /* C and D */
    CHECK_EQ_U(s->replays_unknown_exec, 1);
    CHECK_EQ_U(s->replays_no_inventory, 0);
    struct hv_coverage cov;
    hv_coverage_sum(&out, &cov);
    CHECK_EQ_U(hv_coverage_unchecked(&cov), 7);
    CHECK_EQ_U(cov.replays_checked + cov.replays_unknown_layout + cov.replays_unknown_exec + cov.replays_no_inventory,
               cov.replays);
    char why[1024];
    hv_coverage_why(&cov, why, sizeof why);
    CHECK(strstr(why, "6 ran a kernel whose argument layout is unknown") != NULL);
    CHECK(strstr(why, "1 replayed an exec not instantiated in the trace") != NULL);

    /* The verdict: no finding, but unchecked replays: not a bare "0 bugs",
     * and exit 3 unless --no-fail-on-unchecked. */
    CHECK_EQ_U(out.ngroups, 0);
    struct hv_report_opts o = {.fail_on = HV_SEV_WARNING, .fail_on_unchecked = 1};
    struct hv_verdict v;
    hv_verdict_of(&v, &out, &o);
    CHECK(v.analyzed && v.exit_status == HV_EXIT_UNCHECKED && v.bugs == 0);
    char line[2048];
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK(strncmp(line, "0 bugs (0 finding groups) at or above warning found in the 10 of 17 replays checked; "
                        "7 unchecked (6 ran a kernel", 105) == 0);
    o.fail_on_unchecked = 0;
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_CLEAN);
    /* Unreadable input: no bug count at all. */
    struct hv_report_error err = {"missing.zst", "unusable", 0, "No such file or directory"};
    o.errors = &err;
    o.nerrors = 1;
    hv_verdict_of(&v, &out, &o);
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK(!v.analyzed && v.exit_status == HV_EXIT_UNUSABLE);
    CHECK(strcmp(line, "not analyzed (1 input could not be used; first missing.zst: No such file or directory)") == 0);
    hv_findings_free(&out);
}

/* Everything checked: "M of M replays fully checked", exit 0; an exec
 * instantiated without its nodes is counted as such. */
void test_coverage_all_checked(void)
{
    struct hv_findings out;
    struct tb t;
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 302, NULL);
    tb_stream_create(&t, S1, 1);
    const struct tb_arg meta[] = {{0x10000, 0, HV_ACCESS_READ, HV_ARG_METADATA}};
    struct tb_node a[] = {kernel(1, meta, 1, 0)};
    tb_instantiate(&t, 0xA0, a, 1, NULL, 0);
    tb_graph_launch(&t, 0xA0, S1);
    tb_graph_launch(&t, 0xA0, S1);
    tb_engine_close(&t);
    struct hv_report_opts o = {.fail_on = HV_SEV_WARNING, .fail_on_unchecked = 1};
    struct hv_verdict v;
    hv_verdict_of(&v, &out, &o);
    char line[512];
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK_EQ_U(v.exit_status, HV_EXIT_CLEAN);
    CHECK(strcmp(line, "0 bugs (0 finding groups) at or above warning; 2 of 2 replays fully checked") == 0);
    o.fail_on = HV_SEV_NONE;
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK(strcmp(line, "no verdict (--fail-on none); 2 of 2 replays fully checked") == 0);
    hv_findings_free(&out);

    /* Instantiated without a recorded inventory (the tracer could not walk it). */
    hv_findings_init(&out);
    tb_engine_open(&t, &out, 303, NULL);
    tb_stream_create(&t, S1, 1);
    tb_instantiate_bare(&t, 0xB0);
    tb_graph_launch(&t, 0xA0, S1);   /* never instantiated */
    tb_graph_launch(&t, 0xB0, S1);
    tb_graph_launch(&t, 0xB0, S1);
    tb_engine_close(&t);
    CHECK_EQ_U(out.traces[0].replays_checked, 0);
    CHECK_EQ_U(out.traces[0].replays_no_inventory, 2);
    CHECK_EQ_U(out.traces[0].replays_unknown_exec, 1);
    CHECK_EQ_U(out.traces[0].execs_no_inventory, 1);
    hv_verdict_of(&v, &out, &o);
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK(strstr(line, "0 of 3 replays checked; 3 unchecked (2 replayed an exec instantiated without a recorded node "
                       "inventory; 1 replayed an exec not instantiated in the trace") != NULL);
    hv_findings_free(&out);
}

/* The host-access check's counts record as the tracer writes it at exit
 * (cumulative: a later one holds the totals). */
static void hostcheck_counts(struct tb *t, uint64_t prot, uint64_t managed, uint64_t full, uint64_t other,
                             uint64_t lost)
{
    struct hv_hostcheck r;
    memset(&r, 0, sizeof r);
    r.h.type = HV_REC_HOSTCHECK;
    r.h.size = sizeof r;
    r.protected_ops = prot;
    r.skipped_managed = managed;
    r.skipped_full = full;
    r.skipped_other = other;
    r.accesses = 0;
    r.lost = lost;
    tb_aux(t, &r);
}

/* A short trace of one async pinned copy, with the check on (flags) and
 * the counts given (counts 0: no counts record). */
static void hostcheck_trace(struct hv_findings *out, uint64_t pid, uint32_t flags, int counts, uint64_t prot,
                            uint64_t managed, uint64_t full, uint64_t other, uint64_t lost)
{
    struct tb t;
    tb_header_flags = flags;
    tb_engine_open(&t, out, pid, NULL);
    tb_header_flags = 0;
    tb_stream_create(&t, S1, 1);
    tb_alloc(&t, 0x10000, 4096, HV_MEM_DEVICE);
    tb_alloc(&t, 0x50000, 4096, HV_MEM_HOST_PINNED);
    tb_copy(&t, S1, 0x50000, 0x10000, 4096, HV_DIR_D2H, HV_MEM_DEVICE, 1);
    if (counts > 1)   /* an earlier, smaller record of the same counts */
        hostcheck_counts(&t, prot / 2, managed / 2, 0, 0, 0);
    tb_stream_sync(&t, S1);
    if (counts)
        hostcheck_counts(&t, prot, managed, full, other, lost);
    tb_engine_close(&t);
}

/* JSON of the coverage object of s, into a string the caller frees. */
static char *coverage_json(const struct hv_findings *s)
{
    struct hv_coverage c;
    hv_coverage_sum(s, &c);
    struct hv_json w;
    hv_json_init_buf(&w, 0);
    hv_json_obj(&w);
    hv_coverage_json(&w, &c);
    hv_json_obj_end(&w);
    return hv_json_take(&w, NULL);
}

/* What the host-access check could not protect: carried from its counts
 * record into the summary, summed, said under the verdict, in the JSON
 * coverage object and in the exit status; null where it did not run or
 * left no counts. */
void test_coverage_hostcheck(void)
{
    struct hv_findings out;
    hv_findings_init(&out);
    hostcheck_trace(&out, 401, HV_HDR_HOSTCHECK, 2, 6, 2, 1, 1, 3);
    hostcheck_trace(&out, 402, HV_HDR_HOSTCHECK, 1, 4, 0, 0, 0, 0);
    const struct hv_hostcheck_cov *a = &out.traces[0].hostcheck, *b = &out.traces[1].hostcheck;
    CHECK(a->traces == 1 && a->traces_counted == 1 && a->protected_ops == 6 && a->skipped_managed == 2 &&
          a->skipped_full == 1 && a->skipped_other == 1 && a->lost == 3);
    CHECK(b->traces == 1 && b->traces_counted == 1 && b->protected_ops == 4 && !hv_hostcheck_unchecked(b));
    struct hv_coverage cov;
    hv_coverage_sum(&out, &cov);
    CHECK_EQ_U(cov.hostcheck.traces, 2);
    CHECK_EQ_U(cov.hostcheck.protected_ops, 10);
    CHECK_EQ_U(hv_hostcheck_unprotected(&cov.hostcheck), 4);
    CHECK_EQ_U(hv_hostcheck_unchecked(&cov.hostcheck), 7);
    char why[1024];
    hv_coverage_hostcheck_why(&cov.hostcheck, why, sizeof why);
    static const char want[] = "4 of 14 in-flight operations not protected (2 managed, 1 table full, 1 other, "
                               "0 graph), 3 accesses lost: a host access to the unprotected ones is not seen, and the lost ones "
                               "are not reported; managed memory is protected only where the CPU has protection keys";
    CHECK(strncmp(why, want, sizeof want - 1) == 0);
    CHECK(strstr(why, "; the table of in-flight ranges was full") && strstr(why, "; registered memory on ROCm") &&
          strstr(why, "; the queue of accesses was full"));
    /* The rule's info note of the first trace says the same, from the same counts. */
    const struct hv_group *g = tb_group(&out, HV_RULE_HOST_ACCESS_IN_FLIGHT);
    CHECK(g && g->f.severity == HV_SEV_INFO && g->f.pid == 401 && g->f.note &&
          strstr(g->f.note, "4 of 10 in-flight operations not protected (2 managed, 1 table full, 1 other, "
                            "0 graph), 3 accesses lost"));
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_HOST_ACCESS_IN_FLIGHT), 1);

    /* No finding at or above warning, but gaps: not a bare "0 bugs", exit 3
     * unless --no-fail-on-unchecked. */
    struct hv_report_opts o = {.fail_on = HV_SEV_WARNING, .fail_on_unchecked = 1};
    struct hv_verdict v;
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_UNCHECKED);
    char line[2048];
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK(strcmp(line, "0 bugs (0 finding groups) at or above warning; host-access check: 4 of 14 in-flight "
                       "operations not protected, 3 accesses lost") == 0);
    o.fail_on_unchecked = 0;
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_CLEAN);
    char *js = coverage_json(&out);
    CHECK(js && strstr(js, "\"hostcheck\":{\"traces\":2,\"traces_counted\":2,\"operations\":14,\"protected_ops\":10,"
                           "\"unprotected_ops\":4,\"skipped_managed\":2,\"skipped_full\":1,\"skipped_other\":1,"
                           "\"skipped_graph\":0,\"accesses\":0,\"lost\":3}"));
    free(js);
    hv_findings_free(&out);

    /* Only lost accesses: still unchecked. */
    hv_findings_init(&out);
    hostcheck_trace(&out, 403, HV_HDR_HOSTCHECK, 1, 5, 0, 0, 0, 1);
    hv_coverage_sum(&out, &cov);
    hv_coverage_hostcheck_why(&cov.hostcheck, why, sizeof why);
    CHECK(strcmp(why, "0 of 5 in-flight operations not protected (0 managed, 0 table full, 0 other, 0 graph), 1 "
                      "access lost: each lost one was a host access to in-flight memory, not reported; the queue of accesses was "
                      "full: fix the accesses reported and trace again") == 0);
    o.fail_on_unchecked = 1;
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_UNCHECKED);
    hv_findings_free(&out);

    /* Everything protected: nothing to say, exit 0. */
    hv_findings_init(&out);
    hostcheck_trace(&out, 404, HV_HDR_HOSTCHECK, 1, 3, 0, 0, 0, 0);
    hv_verdict_of(&v, &out, &o);
    hv_verdict_line(&v, &o, line, sizeof line);
    CHECK_EQ_U(v.exit_status, HV_EXIT_CLEAN);
    CHECK(strcmp(line, "0 bugs (0 finding groups) at or above warning") == 0);
    CHECK_EQ_U(tb_count_rule(&out, HV_RULE_HOST_ACCESS_IN_FLIGHT), 0);
    hv_findings_free(&out);

    /* The check ran but left no counts (the process never reached exit):
     * the counts are null, not 0. */
    hv_findings_init(&out);
    hostcheck_trace(&out, 405, HV_HDR_HOSTCHECK, 0, 0, 0, 0, 0, 0);
    CHECK(out.traces[0].hostcheck.traces == 1 && out.traces[0].hostcheck.traces_counted == 0);
    js = coverage_json(&out);
    CHECK(js && strstr(js, "\"hostcheck\":{\"traces\":1,\"traces_counted\":0,\"operations\":null,"
                           "\"protected_ops\":null,"));
    free(js);
    hv_findings_free(&out);

    /* Without the check: no hostcheck object, nothing counted. */
    hv_findings_init(&out);
    hostcheck_trace(&out, 406, 0, 0, 0, 0, 0, 0, 0);
    CHECK_EQ_U(out.traces[0].hostcheck.traces, 0);
    js = coverage_json(&out);
    CHECK(js && strstr(js, "\"hostcheck\":null"));
    free(js);
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_CLEAN);
    hv_findings_free(&out);
}

/* Graph replays' host sides the check could not protect (skipped_graph)
 * count as unprotected operations, with their reason; a counts record of an
 * older writer (88 bytes, before skipped_graph) reads as 0 of them. */
void test_coverage_hostcheck_graph(void)
{
    struct hv_findings out;
    hv_findings_init(&out);
    struct tb t;
    tb_header_flags = HV_HDR_HOSTCHECK;
    tb_engine_open(&t, &out, 411, NULL);
    tb_header_flags = 0;
    struct hv_hostcheck r;
    memset(&r, 0, sizeof r);
    r.h.type = HV_REC_HOSTCHECK;
    r.h.size = sizeof r;
    r.protected_ops = 3;
    r.skipped_graph = 2;
    tb_aux(&t, &r);
    tb_engine_close(&t);
    const struct hv_hostcheck_cov *a = &out.traces[0].hostcheck;
    CHECK(a->traces_counted == 1 && a->protected_ops == 3 && a->skipped_graph == 2);
    CHECK_EQ_U(hv_hostcheck_unprotected(a), 2);
    char why[1024];
    hv_coverage_hostcheck_why(a, why, sizeof why);
    CHECK(strncmp(why, "2 of 5 in-flight operations not protected (0 managed, 0 table full, 0 other, 2 graph), 0 "
                       "accesses lost: a host access to them is not seen; graph replays: an exec instantiated before "
                       "tracing",
                  strlen("2 of 5 in-flight operations not protected (0 managed, 0 table full, 0 other, 2 graph), 0 "
                         "accesses lost: a host access to them is not seen; graph replays: an exec instantiated "
                         "before tracing")) == 0);
    char *js = coverage_json(&out);
    CHECK(js && strstr(js, "\"unprotected_ops\":2,\"skipped_managed\":0,\"skipped_full\":0,\"skipped_other\":0,"
                           "\"skipped_graph\":2,\"accesses\":0,\"lost\":0}"));
    free(js);
    struct hv_report_opts o = {.fail_on = HV_SEV_WARNING, .fail_on_unchecked = 1};
    struct hv_verdict v;
    hv_verdict_of(&v, &out, &o);
    CHECK_EQ_U(v.exit_status, HV_EXIT_UNCHECKED);
    hv_findings_free(&out);

    /* An older writer's record: 88 bytes, no skipped_graph. */
    hv_findings_init(&out);
    tb_header_flags = HV_HDR_HOSTCHECK;
    tb_engine_open(&t, &out, 412, NULL);
    tb_header_flags = 0;
    _Alignas(8) unsigned char old[sizeof r];
    memset(old, 0xEE, sizeof old);   /* what lies past the record must not be read */
    memset(&r, 0, sizeof r);
    r.h.type = HV_REC_HOSTCHECK;
    r.h.size = 88;
    r.protected_ops = 4;
    r.skipped_other = 1;
    memcpy(old, &r, 88);
    tb_aux(&t, old);
    tb_engine_close(&t);
    a = &out.traces[0].hostcheck;
    CHECK(a->traces_counted == 1 && a->protected_ops == 4 && a->skipped_other == 1 && a->skipped_graph == 0);
    hv_findings_free(&out);
}
