/*
 * --diagnose end to end on synthetic trace files: each kind of recorded
 * evidence moves the ranking the way docs/case-study-rocm-hip-3902.md says,
 * through the real hipvis-analyze binary. The traces are shaped like what
 * the tracer records for the decode loop (scenarios.h), plus the evidence
 * records of issue 6 (HV_REC_PAYLOAD, HV_REC_PROBE) and guards.
 */
#include <stdlib.h>
#include <string.h>

#include "dtest.h"

static struct tb t;
static char path_buf[512];

static const char *path(const char *name)
{
    snprintf(path_buf, sizeof path_buf, "%s/%s", d_tmp, name);
    return path_buf;
}

/* hipvis-analyze's stdout for `args` (caller frees). */
static char *analyze(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' --fail-on none %s", d_tool, args);
    FILE *p = popen(cmd, "r");
    if (!p)
        return strdup("");
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0) {
        n += got;
        if (n + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb)
                break;
            buf = nb;
        }
    }
    pclose(p);
    if (buf)
        buf[n] = '\0';
    return buf ? buf : strdup("");
}

static void payload(uint32_t when, uint64_t hash)
{
    struct hv_payload p;
    memset(&p, 0, sizeof p);
    p.h.type = HV_REC_PAYLOAD;
    p.h.size = sizeof p;
    p.src = SC_PINNED;
    p.when = when;
    p.hash = hash;
    tb_aux(&t, &p);
}

/* A probe of SC_BUF's first 8 bytes around the last launch: `bad` is the
 * point whose snapshot differs from the source (HV_PROBE_SOURCE: none). */
static void probe(int bad)
{
    uint64_t buf[(sizeof(struct hv_probe) + 4 * 8) / 8];
    memset(buf, 0, sizeof buf);
    struct hv_probe *p = (struct hv_probe *)buf;
    p->h.type = HV_REC_PROBE;
    p->h.size = sizeof buf;
    p->copy_seq = t.seq - 2;  /* copy, launch, then the sync this follows */
    p->replay_seq = t.seq - 1;
    p->exec = SC_EXEC;
    p->stream = SC_MAIN;
    p->addr = SC_BUF;
    p->src = SC_PINNED;
    p->len = 8;
    p->have = 0xf;
    uint8_t *b = (uint8_t *)(p + 1);
    for (int pt = 0; pt < 4; pt++)
        b[pt * 8 + 4] = 1;  /* element [1] = 1, as copied */
    if (bad != HV_PROBE_SOURCE)
        for (int pt = bad; pt < 4; pt++)
            b[pt * 8 + 4] = 0xe4;  /* ... until something wrote 996's low byte */
    tb_aux(&t, p);
}

enum { SHAPE_LINEAR, SHAPE_TWO_ROOTS };

/* The decode loop: copy, replay, host waits for the step. */
static void trace(const char *name, const char *knobs, int shape, void (*evidence)(int step))
{
    static const struct tb_arg rd[] = {{.value = SC_BUF, .index = 0, .access = HV_ACCESS_READ}};
    struct tb_node n[3] = {{.type = HV_NODE_HOST},
                           {.type = HV_NODE_KERNEL, .name_id = SC_KERNEL_ID, .args = rd, .nargs = 1},
                           {.type = HV_NODE_EMPTY}};
    static const uint32_t fork[] = {0, 2, 1, 2};
    CHECK(tb_file_open(&t, path(name), 31, knobs) == 0);
    tb_string(&t, SC_KERNEL_ID, SC_KERNEL);
    tb_alloc(&t, SC_POOL, SC_POOL_BYTES, HV_MEM_DEVICE);
    tb_alloc(&t, SC_PINNED, 4096, HV_MEM_HOST_PINNED);
    tb_stream_create(&t, SC_MAIN, 0);
    tb_instantiate(&t, SC_EXEC, n, 3, shape == SHAPE_TWO_ROOTS ? fork : NULL, shape == SHAPE_TWO_ROOTS ? 2 : 0);
    for (int i = 0; i < 6; i++) {
        tb_copy(&t, SC_MAIN, SC_BUF, SC_PINNED, SC_BUF_BYTES, HV_DIR_H2D, HV_MEM_HOST_PINNED, 1);
        if (evidence)
            evidence(i * 3);
        tb_graph_launch(&t, SC_EXEC, SC_MAIN);
        if (evidence)
            evidence(i * 3 + 1);
        tb_stream_sync(&t, SC_MAIN);
        if (evidence)
            evidence(i * 3 + 2);
    }
    CHECK(tb_file_close(&t, 1) == 0);
}

/* Evidence per step phase (0 after the copy, 1 after the launch, 2 after the sync). */
static void ev_rewrite(int s)
{
    if (s % 3 == 0)
        payload(HV_PAYLOAD_ENQUEUE, 0x1111);
    if (s == 5)
        payload(HV_PAYLOAD_OBSERVED, 0x2222);  /* step 1: the host rewrote the source */
}
static void ev_same_source(int s)
{
    if (s % 3 == 0)
        payload(HV_PAYLOAD_ENQUEUE, 0x1111);
}
static void ev_after_copy(int s)
{
    ev_same_source(s);
    if (s % 3 == 2)
        probe(s == 5 ? HV_PROBE_AFTER_COPY : HV_PROBE_SOURCE);
}
/* The host rewrote the source; the probe saw the rewritten byte (0xe4 at
 * element [1]) right after the copy, or saw the copied bytes throughout. */
static void payload_bytes(uint32_t when, uint64_t hash, uint8_t b4)
{
    uint64_t buf[(sizeof(struct hv_payload) + 8) / 8];
    memset(buf, 0, sizeof buf);
    struct hv_payload *p = (struct hv_payload *)buf;
    p->h.type = HV_REC_PAYLOAD;
    p->h.size = sizeof buf;
    p->src = SC_PINNED;
    p->len = 8;
    p->when = when;
    p->hash = hash;
    ((uint8_t *)(p + 1))[4] = b4;
    tb_aux(&t, p);
}
static void ev_rewrite_reached(int s)
{
    if (s % 3 == 0)
        payload(HV_PAYLOAD_ENQUEUE, 0x1111);
    if (s == 5) {
        payload_bytes(HV_PAYLOAD_OBSERVED, 0x2222, 0xe4);
        probe(HV_PROBE_AFTER_COPY);
    }
}
/* An eager launch HIPVIS_LAUNCH_EVERY did not draw, on another stream,
 * after each copy: a writer no rule can see. */
static void ev_undrawn(int s)
{
    if (s % 3 == 0)
        tb_launch_undrawn(&t, SC_MAIN + 1);
}
/* HIPVIS_HOSTCHECK's counts at exit (after the last step): every copy
 * protected, or one in three not (hostcheck_other). */
static uint64_t hostcheck_other;
static void ev_hostcheck(int s)
{
    if (s != 17)
        return;
    struct hv_hostcheck c;
    memset(&c, 0, sizeof c);
    c.h.type = HV_REC_HOSTCHECK;
    c.h.size = sizeof c;
    c.protected_ops = 6 - hostcheck_other;
    c.skipped_other = hostcheck_other;
    tb_aux(&t, &c);
}
static void ev_probes_match(int s);
static void ev_rewrite_probes_match(int s)
{
    ev_rewrite(s);
    if (s % 3 == 2)
        probe(HV_PROBE_SOURCE);
}
static void ev_probes_match(int s)
{
    ev_same_source(s);
    if (s % 3 == 2)
        probe(HV_PROBE_SOURCE);
}

static int has(const char *out, const char *what)
{
    int ok = strstr(out, what) != NULL;
    if (!ok)
        fprintf(stderr, "  missing in hipvis-analyze output: %s\n", what);
    return ok;
}

static void verdict(const char *name, const char *extra, const char *want, const char *basis)
{
    char args[1024], v[96];
    snprintf(args, sizeof args, "--json --diagnose %s '%s'", extra ? extra : "", path(name));
    char *out = analyze(args);
    snprintf(v, sizeof v, "\"verdict\":\"%s\",\"basis\":\"%s\"", want, basis);
    CHECK(has(out, "\"diagnoses\":[{") && has(out, v));
    free(out);
}

void test_verdicts(void)
{
    char co[600];
    char *out;
    snprintf(co, sizeof co, "--code-object '%s'", d_hsaco);

    /* A rewritten source alone is not the symptom: the copy may have run
     * before the rewrite (the host saw completion later). */
    trace("rewrite.zst", NULL, SHAPE_LINEAR, ev_rewrite);
    verdict("rewrite.zst", NULL, "undetermined", "none");
    trace("rewrite-matched.zst", NULL, SHAPE_LINEAR, ev_rewrite_probes_match);
    verdict("rewrite-matched.zst", NULL, "undetermined", "none");
    snprintf(co, sizeof co, "--json --diagnose '%s'", path("rewrite-matched.zst"));
    char *o2 = analyze(co);
    const char *hr = strstr(o2, "\"hypothesis\":\"host-race\"");
    CHECK(hr && strstr(hr, "\"status\":\"excluded\"") && strstr(hr, "\"status\":\"excluded\"") - hr < 48);
    free(o2);
    trace("rewrite-reached.zst", NULL, SHAPE_LINEAR, ev_rewrite_reached);
    verdict("rewrite-reached.zst", NULL, "host-race", "observed");

    trace("after-copy.zst", NULL, SHAPE_LINEAR, ev_after_copy);
    verdict("after-copy.zst", co, "H2", "observed");

    /* Predictions (placement, a scalar load) order the open hypotheses but
     * never make a verdict. */
    trace("fork.zst", NULL, SHAPE_TWO_ROOTS, ev_probes_match);
    verdict("fork.zst", co, "undetermined", "none");
    trace("linear.zst", NULL, SHAPE_LINEAR, ev_same_source);
    if (strstr(d_tool, "nollvm") == NULL)
        verdict("linear.zst", co, "undetermined", "none");
    verdict("linear.zst", NULL, "undetermined", "none");

    /* No other writer was recorded: evidence against a second writer only
     * when every eager launch carried its arguments; with launches that
     * HIPVIS_LAUNCH_EVERY did not draw it excludes nothing, and says so. */
    snprintf(co, sizeof co, "--diagnose '%s'", path("linear.zst"));
    out = analyze(co);
    CHECK(has(out, "no other recorded writer reaches this buffer unordered: only the copy writes it"));
    free(out);
    trace("undrawn.zst", NULL, SHAPE_LINEAR, ev_undrawn);
    verdict("undrawn.zst", NULL, "undetermined", "none");
    snprintf(co, sizeof co, "--diagnose '%s'", path("undrawn.zst"));
    out = analyze(co);
    CHECK(has(out, "but 6 eager launches were recorded without their arguments") &&
          has(out, "is not excluded (HIPVIS_LAUNCH_EVERY=1") && strstr(out, "only the copy writes it") == NULL &&
          has(out, "coverage: 6 of 6 launches were recorded without their kernel and arguments"));
    free(out);

    /* HIPVIS_HOSTCHECK saw no write to the source while a copy was in
     * flight: against the host race only when it protected every in-flight
     * operation; one it did not protect leaves the host race open. */
    tb_header_flags = HV_HDR_HOSTCHECK;
    trace("hostcheck.zst", NULL, SHAPE_LINEAR, ev_hostcheck);
    hostcheck_other = 2;
    trace("hostcheck-gaps.zst", NULL, SHAPE_LINEAR, ev_hostcheck);
    hostcheck_other = 0;
    tb_header_flags = 0;
    snprintf(co, sizeof co, "--diagnose '%s'", path("hostcheck.zst"));
    out = analyze(co);
    CHECK(has(out, "HIPVIS_HOSTCHECK saw no host write to pinned source") && strstr(out, "a host write is not excluded") == NULL);
    free(out);
    snprintf(co, sizeof co, "--diagnose '%s'", path("hostcheck-gaps.zst"));
    out = analyze(co);
    CHECK(has(out, "HIPVIS_HOSTCHECK saw no host write to pinned source") &&
          has(out, "but it did not protect 2 of 6 in-flight operations and lost 0 accesses: a host write is not "
                   "excluded") &&
          has(out, "coverage: host-access check: 2 of 6 in-flight operations not protected"));
    free(out);

    /* One graph queue refutes H1 for the two-root graph. */
    trace("one-queue.zst", "DEBUG_HIP_FORCE_GRAPH_QUEUES=1;", SHAPE_TWO_ROOTS, NULL);
    snprintf(co, sizeof co, "--json --diagnose '%s'", path("one-queue.zst"));
    out = analyze(co);
    CHECK(has(out, "\"verdict\":\"undetermined\"") && has(out, "one graph queue"));
    free(out);
}

/* No same-epoch-write, no verdict: the host waits between copy and replay,
 * or a guard did (its epoch record is what the host observed). */
static void ev_guard(int s)
{
    if (s % 3 != 0)
        return;
    struct hv_guard g;
    memset(&g, 0, sizeof g);
    g.h.type = HV_REC_GUARD;
    g.h.size = sizeof g;
    g.exec = SC_EXEC;
    g.stream = SC_MAIN;
    g.copy_seq = t.seq;
    g.completed_seq = t.seq;
    g.mode = HV_GUARD_STREAM_SYNC;
    tb_aux(&t, &g);
    struct hv_epoch e;
    memset(&e, 0, sizeof e);
    e.h.type = HV_REC_EPOCH;
    e.h.size = sizeof e;
    e.stream = SC_MAIN;
    e.epoch = 100 + (uint64_t)s;
    e.completed_seq = t.seq;
    tb_aux(&t, &e);
}

void test_no_verdict(void)
{
    CHECK(tb_file_open(&t, path("clean.zst"), 32, NULL) == 0);
    sc_setup(&t);
    sc_decode_loop(&t, SC_MAIN, 4, 1);
    CHECK(tb_file_close(&t, 1) == 0);
    char args[700];
    snprintf(args, sizeof args, "--json --diagnose '%s'", path("clean.zst"));
    char *out = analyze(args);
    CHECK(has(out, "\"diagnoses\":[]") && has(out, "\"findings\":[]"));
    free(out);
    snprintf(args, sizeof args, "--diagnose '%s'", path("clean.zst"));
    out = analyze(args);
    CHECK(has(out, "diagnose: no verdict"));
    free(out);

    trace("guarded.zst", NULL, SHAPE_TWO_ROOTS, ev_guard);
    snprintf(args, sizeof args, "--json --diagnose '%s'", path("guarded.zst"));
    out = analyze(args);
    CHECK(has(out, "\"diagnoses\":[]") && has(out, "\"findings\":[]"));
    free(out);
}
