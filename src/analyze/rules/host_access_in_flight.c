/*
 * host-access-in-flight: the host touched memory an async operation was
 * still reading or writing (HIPVIS_HOSTCHECK; docs/hostcheck.md).
 *
 * With the check on, the tracer revokes the host's access to the pages of
 * a pinned (or, asked for, managed) range while the op that reads or
 * writes it is in flight, and gives them back at the first host
 * observation of its completion (docs/semantics.md). A host access in
 * between faults once and becomes an HV_REC_HOST_ACCESS record: the
 * address, read or write, the faulting thread's native pcs and Python
 * frames, and the op (its call is the record's seq). The tracer saw the
 * race happen, so this rule only reports it: a read of a D2H destination
 * sees bytes the copy may not have written yet; a write to an H2D source
 * may or may not reach the copy; any access to a memset's or kernel's
 * range races the device.
 *
 * Operations the check could not protect and accesses its queue lost
 * (HV_REC_HOSTCHECK, counted into the trace's summary by coverage.c, which
 * words them for the verdict's coverage line as well) are reported once,
 * as info.
 */
#include <inttypes.h>
#include <stdio.h>

#include "analyze/coverage.h"
#include "analyze/rules/rules.h"

static const char *str(const struct hv_model *m, uint32_t id)
{
    const char *s = id && m->hooks.string ? m->hooks.string(m->hooks.string_ctx, id) : NULL;
    return s ? s : "?";
}

/* What the access did to what the op does, for the finding's note, into
 * buf: `replay`, the op is a node of a graph replay (its call a graph
 * launch), else an eager call. */
static const char *what(uint8_t kind, uint8_t access, int replay, char *buf, size_t cap)
{
    int w = access == HV_ACCESS_WRITE;
    const char *copy = replay ? "a memcpy node of an in-flight graph replay" : "an in-flight async copy";
    const char *memset = replay ? "a memset node of an in-flight graph replay" : "an in-flight async memset";
    const char *kernel = replay ? "a kernel node of an in-flight graph replay" : "an in-flight kernel";
    const char *done = replay ? "the replay" : kind == HV_HC_COPY_DST || kind == HV_HC_COPY_SRC ? "the copy"
                                             : kind == HV_HC_MEMSET                            ? "the memset"
                                                                                                : "the kernel";
    switch (kind) {
    case HV_HC_COPY_DST:
        snprintf(buf, cap, "the host %s memory %s writes (its destination) before it observed %s complete%s",
                 w ? "wrote" : "read", copy, done, w ? "" : ": the bytes read may predate the copy");
        break;
    case HV_HC_COPY_SRC:
        snprintf(buf, cap,
                 "the host wrote the source of %s before it observed %s complete: the copy may send the new bytes "
                 "or the old ones",
                 copy, done);
        break;
    case HV_HC_MEMSET:
        snprintf(buf, cap, "the host %s memory %s writes before it observed %s complete", w ? "wrote" : "read",
                 memset, done);
        break;
    case HV_HC_KERNEL_WRITE:
        snprintf(buf, cap, "the host touched managed memory %s writes before it observed %s complete", kernel, done);
        break;
    default:
        snprintf(buf, cap,
                 "the host touched managed memory %s takes as an argument before it observed %s complete (the "
                 "argument's access is not known: the kernel may only read it)",
                 kernel, done);
        break;
    }
    return buf;
}

static void on_access(struct hv_model *m, const struct hv_host_access *r)
{
    struct hv_finding f;
    char detail[1024];
    uint64_t hi = r->op_lo + r->op_bytes;
    hv_finding_start(m, &f, HV_RULE_HOST_ACCESS_IN_FLIGHT, r->op_lo, hi > r->op_lo ? hi : r->op_lo + 1);
    /* Reading what a kernel may only read is no race: softened. */
    if (r->op_kind == HV_HC_KERNEL_ARG && r->access != HV_ACCESS_WRITE)
        f.severity = HV_SEV_WARNING;
    int copy = r->op_kind == HV_HC_COPY_DST || r->op_kind == HV_HC_COPY_SRC;
    f.a.kind = copy ? HV_SIDE_COPY : r->op_kind == HV_HC_MEMSET ? HV_SIDE_MEMSET : HV_SIDE_KERNEL;
    f.a.api = r->op_api;
    f.a.stream = r->op_stream;
    f.a.seq = r->h.seq;
    f.a.epoch = HV_EPOCH_UNKNOWN;
    f.a.bytes = r->op_bytes;
    if (r->op_kind == HV_HC_COPY_SRC) {
        f.a.dir = HV_DIR_H2D;
        f.a.src = r->op_lo;
        f.a.src_mem = r->op_mem;
        f.a.dst_mem = HV_MEM_UNKNOWN;
    } else {
        f.a.dir = copy ? HV_DIR_D2H : HV_DIR_UNKNOWN;
        f.a.dst = r->op_lo;
        f.a.dst_mem = r->op_mem;
        f.a.value = r->op_lo;
    }
    f.b.kind = HV_SIDE_HOST;
    f.b.seq = r->h.seq;   /* groups by the op; the access's own frames are in the record */
    f.b.access = r->access;
    f.b.value = r->addr;
    f.b.ts_ns = r->access_ts;
    f.b.epoch = HV_EPOCH_UNKNOWN;
    const uint64_t *pc = (const uint64_t *)(const void *)(r + 1);
    f.b.func = r->nframes ? pc[0] : 0;
    f.n1 = r->addr - r->op_lo;   /* offset of the access into the op's range */
    f.n2 = r->access_tid;
    int replay = hv_api_kind(r->op_api) == HV_K_GRAPH_LAUNCH;
    char note[320];
    f.note = what(r->op_kind, r->access, replay, note, sizeof note);
    int used = snprintf(detail, sizeof detail, "%s of 0x%" PRIx64 " (+%" PRIu64 ") by thread %" PRIu32 "%s",
                        r->access == HV_ACCESS_WRITE ? "write" : r->access == HV_ACCESS_READ ? "read" : "access",
                        r->addr, r->addr - r->op_lo, r->access_tid,
                        (r->flags & HV_HC_IN_CALL) ? " inside a runtime call" : "");
    const struct hv_pyframe *py = (const struct hv_pyframe *)(const void *)(pc + r->nframes);
    for (uint32_t i = 0; i < r->npy && used > 0 && (size_t)used < sizeof detail; i++)
        used += snprintf(detail + used, sizeof detail - (size_t)used, "%s%s:%d in %s", i ? " < " : "; python ",
                         str(m, py[i].file_id), py[i].line, str(m, py[i].func_id));
    if (used > 0 && (size_t)used < sizeof detail)
        snprintf(detail + used, sizeof detail - (size_t)used,
                 "; missing: a host observation of stream 0x%" PRIx64 " past the %s (its stream's synchronize, "
                 "or an event recorded after it and synchronized) before this access",
                 r->op_stream,
                 replay ? "graph replay" : copy ? "copy" : r->op_kind == HV_HC_MEMSET ? "memset" : "kernel");
    f.detail = detail;
    hv_rule_emit(m, &f);
}

static void on_aux(struct hv_model *m, const struct hv_call *cur, const struct hv_rec_header *rec)
{
    (void)cur;
    const struct hv_host_access *r = (const struct hv_host_access *)(const void *)rec;
    /* The counts come from the trace: the tail must be in the record. */
    if (rec->type != HV_REC_HOST_ACCESS || rec->size < sizeof *r ||
        8ull * r->nframes + sizeof(struct hv_pyframe) * (uint64_t)r->npy > rec->size - sizeof *r)
        return;
    on_access(m, r);
}

static void on_finish(struct hv_model *m, const struct hv_input_health *in)
{
    (void)in;
    const struct hv_hostcheck_cov *c = m->sum ? &m->sum->hostcheck : NULL;
    if (!c || !hv_hostcheck_unchecked(c))
        return;
    char note[1024], why[sizeof note - 32];   /* the store keeps its own copy of the note */
    hv_coverage_hostcheck_why(c, why, sizeof why);
    snprintf(note, sizeof note, "the host-access check: %s", why);
    struct hv_finding f;
    hv_finding_start(m, &f, HV_RULE_HOST_ACCESS_IN_FLIGHT, 0, 0);
    f.severity = HV_SEV_INFO;
    f.a.kind = HV_SIDE_TRACE;
    f.n1 = hv_hostcheck_unprotected(c);
    f.n2 = c->lost;
    f.note = note;
    hv_rule_emit(m, &f);
}

const struct hv_rule hv_rule_host_access_in_flight = {
    .id = HV_RULE_HOST_ACCESS_IN_FLIGHT,
    .severity = HV_SEV_ERROR,
    .name = "host-access-in-flight",
    .why = "the host touched pinned (or managed) memory while an async copy, memset or kernel (eager, or a node "
           "of a graph replay) still read or wrote it: what it read may predate the device's write, and what it "
           "wrote may or may not reach the device (a host/device data race the program's output depends on)",
    .on_aux = on_aux,
    .on_finish = on_finish,
};
