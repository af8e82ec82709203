/* Kernel launches: eager launches are readers/writers of their pointer
 * arguments; launches on a capturing stream become graph nodes. */
#include "tracer/names/marks.h"
#include "tracer/pyframes/sites.h"
#include "tracer/intercept/common/intercept.h"
#include "tracer/core/costore.h"
#include "tracer/evidence/evidence.h"
#include "tracer/hostcheck/hostcheck.h"
#include "tracer/core/kargs.h"

void hv_emit_kernel_sym(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *info, uint64_t module,
                        uint64_t code_object_hash)
{
    struct hv_kernel_sym *rec = hv_aux_begin(t, HV_REC_KERNEL, sizeof *rec, seq);
    if (!rec)
        return;
    rec->func = info->func;
    rec->module = module;
    rec->code_object_hash = code_object_hash;
    rec->name_id = info->name_id;
    rec->kernarg_bytes = info->kernarg_bytes;
    rec->nargs = info->nargs;
    hv_aux_commit(t, rec);
}

void hv_emit_karg_names(struct hv_thread_ctx *t, uint64_t seq, const struct hv_kernel_info *info,
                        uint64_t code_object_hash, const char *const *names)
{
    uint32_t n = info->nargs, named = 0;
    for (uint32_t i = 0; names && i < n; i++)
        named += names[i] && names[i][0];
    if (!named)
        return;
    /* Strings first: each HV_REC_STRING must precede the record naming it. */
    uint32_t ids[HV_MAX_KERNEL_ARGS];
    for (uint32_t i = 0; i < n; i++)
        ids[i] = names[i] && names[i][0] ? hv_string_id(t, names[i], seq) : 0;
    struct hv_karg_names *rec =
        hv_aux_begin(t, HV_REC_KARG_NAMES, (uint32_t)(sizeof *rec + (size_t)n * sizeof(struct hv_karg_name)), seq);
    if (!rec)
        return;
    rec->func = info->func;
    rec->code_object_hash = code_object_hash;
    rec->name_id = info->name_id;
    rec->count = n;
    struct hv_karg_name *a = (struct hv_karg_name *)(rec + 1);
    for (uint32_t i = 0; i < n; i++)
        a[i] = (struct hv_karg_name){info->args[i].offset, info->args[i].size, (uint16_t)i,
                                     info->args[i].kind == HV_ARGK_POINTER ? HV_KARG_POINTER : HV_KARG_BY_VALUE, 0,
                                     ids[i]};
    hv_aux_commit(t, rec);
}

void hv_trace_launch(struct hv_thread_ctx *t, uint16_t api, int32_t r, struct hv_sref s,
                     const struct hv_launch_desc *l)
{
    /* HIPVIS_START: a launch outside the window is not recorded, unless it
     * is the one that makes a kernel known (its HV_REC_KERNEL is state). */
    if (!l->announce && hv_data_skip(t, s.id))
        return;
    /* The CUDA front end looks the kernel up itself (l->known, timed there
     * as the same part); the other front ends leave it to this lookup. */
    const struct hv_kernel_info *k = l->kernel;
    if (!l->known && !l->unsampled && !(HV_LEAN & 64))
        HV_ST_PART(HV_ST_PART_LAUNCH_KERNEL, k = hv_kernels_find(l->func));
    struct hv_call *c;
    HV_ST_PART(HV_ST_PART_LAUNCH_CALL, c = hv_begin_on(t, api, r, (HV_LEAN & 128) ? HV_NO_STREAM : s, NULL));
    /* After hv_begin_on, which knows whether the stream is capturing: a
     * captured launch becomes a graph node and is scanned in full. */
    struct hv_karg args[HV_MAX_KARGS];
    int n = 0;
    if (!(HV_LEAN & 16) && !l->unsampled)
        HV_ST_PART(HV_ST_PART_LAUNCH_SCAN, n = hv_kargs_collect(k, l->params, l->kblock, l->kblock_bytes, args, HV_MAX_KARGS,
                                                            !(c->flags & HV_CALL_CAPTURING), t->launch_memo));
    struct hv_launch_args *a = &c->a.launch;
    a->func = l->func;
    memcpy(a->grid, l->grid, sizeof a->grid);
    memcpy(a->block, l->block, sizeof a->block);
    a->shmem = (uint32_t)l->shmem;
    a->kernarg_bytes = l->kblock ? (uint32_t)l->kblock_bytes : (k ? k->kernarg_bytes : 0);
    a->name_id = k ? k->name_id : 0;
    a->nptr = (uint16_t)n;
    a->form = l->kblock ? HV_LAUNCH_EXTRA : l->form;
    a->captured = (c->flags & HV_CALL_CAPTURING) != 0;
    a->event_start = l->ev_start;
    a->event_stop = l->ev_stop;
    uint64_t seq = c->h.seq;
    if (l->unsampled) {
        /* Not drawn (HIPVIS_LAUNCH_EVERY): the launch itself, no kernel,
         * pointer arguments, stack, Python site or code-object check. */
        c->flags |= HV_CALL_UNSAMPLED;
        hv_call_commit(t, c);
        return;
    }
    if (hv_ev(HV_EV_HOSTCHECK))
        hv_hc_launch(t, c, args, n);
    HV_ST_PART(HV_ST_PART_LAUNCH_REC, {
        hv_call_commit(t, c);
        hv_ev_stack(t, seq);
        if (l->announce)
            hv_emit_kernel_sym(t, seq, l->announce, 0, 0);
        if (!(HV_LEAN & 8))
            hv_kargs_emit(t, seq, 0, l->func, a->name_id, args, n);
    });
    if (HV_LEAN & 32)
        return;
    hv_py_site(t, seq, HV_PY_AT_LAUNCH, l->func);
    if (r == 0)
        HV_ST_PART(HV_ST_PART_LAUNCH_CODEOBJ, hv_costore_touch(t, seq, k)); /* first run of its code object: store it */
}
