/*
 * rules — the hazard checks. One file per rule; each is a `struct hv_rule`
 * with the hooks it needs. The engine calls the hooks at the points where
 * the model has the facts; a rule reads the model and emits findings through
 * hv_rule_emit(). A rule never prints and never changes the model.
 */
#ifndef HV_ANALYZE_RULES_RULES_H
#define HV_ANALYZE_RULES_RULES_H

#include "analyze/findings.h"
#include "analyze/model/model.h"

enum hv_rule_id {
    HV_RULE_SAME_EPOCH_WRITE = 0,
    HV_RULE_UNORDERED_WRITE,
    HV_RULE_WRITE_DURING_REPLAY,
    HV_RULE_STALE_CAPTURE_POINTER,
    HV_RULE_CONCURRENT_SHARED_REPLAY,
    HV_RULE_TRACE_TRUNCATED,
    HV_RULE_RECORDS_DROPPED,
    HV_RULE_PARALLEL_QUEUE_READ,
    HV_RULE_HOST_SOURCE_REWRITTEN,
    HV_RULE_THREE_POINT_PROBE,
    HV_RULE_RUNTIME_ERRATUM,
    HV_RULE_HOST_ACCESS_IN_FLIGHT,
    HV_RULE__COUNT
};

/* A replay as the hooks see it. */
struct hv_replay_ctx {
    uint32_t exec;               /* index into m->execs */
    struct hv_replay r;
    uint64_t site;               /* exec site x replay stream x api (engine's memo key part) */
};

/* An eager write as the hooks see it. */
struct hv_write_ctx {
    uint64_t lo, hi;
    const struct hv_writer *w;
};

/* An eager kernel launch reading through a pointer argument, as the hooks see it. */
struct hv_read_ctx {
    uint64_t seq, epoch, ts_ns;
    uint64_t stream_id;          /* canonical id */
    uint32_t stream;             /* stream index */
    uint16_t api;
    uint64_t func;               /* kernel function handle */
    uint32_t name_id;
    const struct hv_karg *arg;   /* the argument read through */
    uint64_t lo, hi;             /* the range it is assumed to read (hv_pointer_range) */
};

/* What the engine knows about the input when it finishes. */
struct hv_input_health {
    int      read_status;        /* enum hv_read_status (HV_READ_OK = 0) */
    const char *read_status_name;
    uint64_t offset, records_salvaged;
    const char *what;
    uint64_t dropped, late_records, chunk_gaps;
    uint64_t seq_missing, seq_gaps;  /* calls missing from per-thread sequences (reader-inferred loss) */
    int      has_footer;
};

/* Which writers an overlap rule is about, when that is all its
 * overlap_applies would check: the engine then answers for every such rule
 * inline, once per segment, instead of calling each rule per segment (a
 * decode loop's replay meets a writer segment every step). */
enum hv_overlap_writers {
    HV_OVERLAP_ASK = 0,          /* ask overlap_applies (NULL: every writer) */
    HV_OVERLAP_SAME_STREAM,      /* writers on the replay's own stream */
    HV_OVERLAP_UNORDERED,        /* writers on another stream that nothing orders before the replay */
};

struct hv_rule {
    uint16_t id;                 /* enum hv_rule_id */
    uint8_t  severity;           /* default severity */
    uint8_t  overlap_writers;    /* enum hv_overlap_writers */
    const char *name;
    const char *why;             /* one line: why a GPU engineer should care */
    /* Overlap rules are asked twice. First, once per (replay, last-writer
     * segment it reads): does the rule apply to this writer at all? The
     * answer may only depend on the writer and the replay, never on which
     * argument range overlaps, so the engine can remember which groups it
     * produced and count repeats without rebuilding them (engine_join.c).
     * Then, for each argument range `rg` of the exec that reads [lo, hi) of
     * the segment: emit exactly one finding (hv_rule_emit), or decline
     * (hv_rule_decline) when the answer for that range is "none" — it too
     * may depend only on the writer, the replay site and the range.
     * overlap_writers, when set, is the first question's answer. */
    int (*overlap_applies)(const struct hv_model *m, const struct hv_replay_ctx *rp, const struct hv_writer *w);
    void (*on_overlap)(struct hv_model *m, const struct hv_replay_ctx *rp, const struct hv_arange *rg,
                       uint64_t lo, uint64_t hi, const struct hv_writer *w);
    /* A replay is about to be enqueued (before it becomes the exec's last). */
    void (*on_replay)(struct hv_model *m, const struct hv_replay_ctx *rp);
    /* An eager write is about to be applied (before it becomes the last
     * writer) while some exec's last replay on another stream may still be
     * running (on m->pending): a write with no replay pending, or only
     * replays on its own stream (program order puts the write after them),
     * is not offered. */
    void (*on_write)(struct hv_model *m, const struct hv_write_ctx *wr);
    /* An eager kernel launch reads [lo, hi) of a last-writer segment whose
     * write the host has not observed complete (engine_reads.c). */
    void (*on_launch_read)(struct hv_model *m, const struct hv_read_ctx *rd, uint64_t lo, uint64_t hi,
                           const struct hv_writer *w);
    /* The trace ended. */
    void (*on_finish)(struct hv_model *m, const struct hv_input_health *in);
    /* An auxiliary evidence record (HV_REC_PAYLOAD, HV_REC_PROBE) after the
     * model applied the call it follows; `cur` is that call (same seq), or
     * NULL when the record follows none. */
    void (*on_aux)(struct hv_model *m, const struct hv_call *cur, const struct hv_rec_header *rec);
    /* Frees what the rule kept in m->rule_state[id] (engine teardown). */
    void (*free_state)(void *state);
};

/* A rule's descriptor: its id, default severity, name and why, then the
 * hooks it needs as designated initializers (.on_replay = on_replay). */
#define HV_RULE(rule_id, default_severity, rule_name, rule_why, ...)                            \
    { .id = rule_id, .severity = default_severity, .name = rule_name, .why = rule_why, __VA_ARGS__ }

/* Every rule, indexed by id. */
extern const struct hv_rule *const hv_rules[HV_RULE__COUNT];
const struct hv_rule *hv_rule_by_name(const char *name);
/* --disable NAME of the tools: sets the rule's bit in *disabled; -2 after
 * "PROG: --disable: no rule 'NAME'" on stderr (an hv_cli_fn's answer). */
int hv_rule_disable(uint32_t *disabled, const char *name, const char *prog);
const char *hv_rule_name(int id);
const char *hv_rule_why(int id);

/* ---- helpers shared by the rules (common.c) ---- */

/* Does an argument with this access read its buffer? Unknown counts as read. */
static inline int hv_access_reads(uint8_t access)
{
    return access != HV_ACCESS_WRITE;
}
/* ... write it? Unknown counts as "may write" (*maybe set). */
int hv_access_writes(uint8_t access, int *maybe);
/* One severity step down, for a hazard that is only possible (an unknown
 * access may or may not write). An inferred pointer is not one: it keeps the
 * rule's severity and the report marks it (docs/analysis.md). */
int hv_sev_soften(int sev);

void hv_side_writer(const struct hv_model *m, struct hv_fside *s, const struct hv_writer *w);
void hv_side_replay(const struct hv_model *m, struct hv_fside *s, uint32_t exec, const struct hv_replay *r,
                    const struct hv_arange *rg);
void hv_side_launch(const struct hv_model *m, struct hv_fside *s, const struct hv_read_ctx *rd);
/* Starts a finding of rule id at its default severity for the affected
 * range [lo, hi), with the allocation that holds it. */
void hv_finding_start(const struct hv_model *m, struct hv_finding *f, int rule, uint64_t lo, uint64_t hi);
/* An overlap rule's finding: the writer w the earlier side, the replay
 * reading [lo, hi) of its write through rg the later, n1 the write's size. */
void hv_finding_write_replay(const struct hv_model *m, struct hv_finding *f, int rule, const struct hv_replay_ctx *rp,
                             const struct hv_arange *rg, uint64_t lo, uint64_t hi, const struct hv_writer *w);
void hv_rule_emit(struct hv_model *m, const struct hv_finding *f);
/* on_overlap found nothing to report for this range (remembered by the memo). */
#define HV_RULE_DECLINED (SIZE_MAX - 1)
static inline void hv_rule_decline(struct hv_model *m) { m->last_group = HV_RULE_DECLINED; }
/* A finding about the input itself (no ops, no range). */
void hv_rule_emit_input(struct hv_model *m, int rule, uint64_t n1, uint64_t n2, const char *note);

#endif
