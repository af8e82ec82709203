/*
 * diag_report: --diagnose output. Text after the findings; JSON as the
 * `diagnoses` array of the --json document (schema in docs/analysis.md).
 * A decode loop gives one group per exec (batch size) with the same
 * evidence: the text report folds diagnoses that differ only in the exec.
 */
#include <inttypes.h>
#include <string.h>

#include "analyze/diagnose/diag_int.h"
#include "analyze/report/describe.h"
#include "analyze/report/report.h"
#include "analyze/rules/rules.h"

static const char *basis(const struct dx_diag *d)
{
    return d->verdict < 0 ? "none" : "observed";
}

/* The next-run text of h with the group's buffer for "ADDR:LEN". */
static const char *next_run(const struct dx_diag *d, int h, char *buf, size_t len)
{
    const char *t = dx_hyp_next_run(h), *at = strstr(t, "ADDR:LEN");
    if (!at)
        return t;
    snprintf(buf, len, "%.*s0x%" PRIx64 ":%" PRIu64 "%s", (int)(at - t), t, d->f.lo, d->f.hi - d->f.lo, at + 8);
    return buf;
}

/* Measured fixes (removes) of h whose guard also removed the symptom of
 * every other open hypothesis: what helps whichever of them it is. */
static int removes_all_open(const struct dx_diag *d, const struct dx_fix *f)
{
    if (f->result != DX_FIX_REMOVES)
        return 0;
    for (int i = 0; i < HV_HYP__N; i++) {
        int h = d->order[i], n, hit = 0;
        if (d->status[h] == DX_EXCLUDED)
            continue;
        const struct dx_fix *g = dx_hyp_fixes(h, &n);
        for (int k = 0; k < n && !hit; k++)
            hit = g[k].result == DX_FIX_REMOVES && strcmp(g[k].pattern, f->pattern) == 0;
        if (!hit)
            return 0;
    }
    return 1;
}

/* "(+4 H1, -3 host-race)" from an item's weights. */
static const char *weights(const struct dx_item *it, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int h = 0; h < HV_HYP__N && used < len; h++)
        if (it->w[h])
            used += (size_t)snprintf(buf + used, len - used, "%s%+d %s", used ? ", " : "(", it->w[h], dx_hyp_id(h));
    if (used && used < len)
        snprintf(buf + used, len - used, ")");
    else if (!used)
        snprintf(buf, len, "(context)");
    return buf;
}

static int same_answer(const struct dx_diag *a, const struct dx_diag *b)
{
    if (a->f.pid != b->f.pid || a->f.lo != b->f.lo || a->f.hi != b->f.hi || a->f.a.src != b->f.a.src ||
        a->verdict != b->verdict || a->f.b.arg_index != b->f.b.arg_index || strcmp(a->kernel, b->kernel) != 0 ||
        a->nitems != b->nitems)
        return 0;
    for (int h = 0; h < HV_HYP__N; h++)
        if (a->score[h] != b->score[h] || a->status[h] != b->status[h])
            return 0;
    return 1;
}

static const char *result_name(enum dx_fix_result r)
{
    return r == DX_FIX_REMOVES ? "removed" : r == DX_FIX_DOES_NOT ? "did NOT remove" : "untested";
}

/* The fixes of h (all of them), or for an undetermined group those that
 * removed the symptom of every open hypothesis. */
static void fixes_text(FILE *out, const struct dx_diag *d, int h)
{
    int n, k = 0;
    const struct dx_fix *f = dx_hyp_fixes(h, &n);
    for (int i = 0; i < n; i++) {
        if (d->verdict < 0 && !removes_all_open(d, &f[i]))
            continue;
        fprintf(out, "     %d. %s [%s]\n", ++k, f[i].pattern, f[i].cost);
        if (f[i].result != DX_FIX_UNTESTED)
            fprintf(out, "        %s the stale reads on the %s\n", result_name(f[i].result), f[i].measured);
        else
            fputs("        untested: not ranked\n", out);
        if (f[i].guard && f[i].result == DX_FIX_REMOVES)
            fprintf(out, "        try it on this job without editing it: %s (or hipvis experiment)\n", f[i].guard);
    }
    if (!k)
        fputs("     none measured to remove every open hypothesis's symptom: decide first (next runs above)\n", out);
}

static int has_bit(const struct dx_item *it, int h, int excludes)
{
    return ((excludes ? it->excludes : it->symptom) >> h) & 1;
}

/* The item texts that made h observed (symptoms) or excluded. */
static void reasons_text(FILE *out, const struct dx_diag *d, int h, int excludes)
{
    for (int i = 0; i < d->nitems; i++)
        if (has_bit(&d->items[i], h, excludes))
            fprintf(out, "              %s\n", d->items[i].text);
}

static void one_text(FILE *out, const struct dx_diag *d, size_t idx, size_t total, const struct dx_diag *folded,
                     size_t nfold)
{
    char b1[32], b2[48], w[96];
    fprintf(out, "== diagnosis %zu/%zu  pid %" PRIu64 "  %s x%" PRIu64 "  (seq %" PRIu64 " .. %" PRIu64 ")\n", idx,
            total, d->f.pid, hv_rule_name(d->f.rule), d->count, d->first_seq, d->last_seq);
    fprintf(out, "   buffer   0x%" PRIx64 " .. 0x%" PRIx64 " (%s) written by %s seq %" PRIu64 " on %s from 0x%" PRIx64
                 " (%s)\n",
            d->f.lo, d->f.hi, hv_bytes_text(d->f.hi - d->f.lo, b1, sizeof b1), hv_api_name(d->f.a.api), d->f.a.seq,
            hv_stream_text(d->f.a.stream, b2, sizeof b2), d->f.a.src, hv_mem_text(d->f.a.src_mem));
    fprintf(out, "   reader   exec 0x%" PRIx64 " node %d %s arg %d", d->f.b.exec, d->f.b.node_index,
            d->kernel[0] ? d->kernel : "(not a kernel)", d->f.b.arg_index);
    for (size_t i = 0; i < nfold; i++)
        fprintf(out, "%s0x%" PRIx64, i ? " " : "; the same for execs ", folded[i].f.b.exec);
    fputc('\n', out);
    fprintf(out, "   verdict  %s: %s%s\n", dx_hyp_id(d->verdict), dx_hyp_title(d->verdict),
            d->verdict >= 0 ? "  [observed]" : "");
    fputs("   hypotheses (observed, then open by the weight of the predictions, then excluded)\n", out);
    char nb[640];
    for (int i = 0; i < HV_HYP__N; i++) {
        int h = d->order[i];
        fprintf(out, "     %-10s %-10s %+3d\n", dx_hyp_id(h), dx_status_name(d->status[h]), d->score[h]);
        if (d->status[h] == DX_CONSISTENT)
            fprintf(out, "              next run: %s\n", next_run(d, h, nb, sizeof nb));
        else
            reasons_text(out, d, h, d->status[h] == DX_EXCLUDED);
    }
    fputs("   evidence\n", out);
    for (int i = 0; i < d->nitems; i++) {
        const struct dx_item *it = &d->items[i];
        fprintf(out, "     - %s %s", it->text, weights(it, w, sizeof w));
        for (int h = 0; h < HV_HYP__N; h++)
            if (has_bit(it, h, 0))
                fprintf(out, " [symptom of %s]", dx_hyp_id(h));
        for (int h = 0; h < HV_HYP__N; h++)
            if (has_bit(it, h, 1))
                fprintf(out, " [excludes %s]", dx_hyp_id(h));
        fputc('\n', out);
    }
    int h = d->verdict >= 0 ? d->verdict : d->order[0];
    if (d->verdict >= 0) {
        fprintf(out, "   refute  %s: %s\n", dx_hyp_id(h), dx_hyp_refute(h));
        fprintf(out, "   fixes for %s: removal measured on the fault-model suite, cheapest measured cost first\n",
                dx_hyp_id(h));
    } else {
        fputs("   fixes measured (fault-model suite) to remove the symptom of every open hypothesis, cheapest "
              "measured cost first\n", out);
    }
    fixes_text(out, d, h);
    fputc('\n', out);
}

void hv_diag_text(FILE *out, const struct hv_diag *d)
{
    fprintf(out, "\ndiagnose: %zu group%s in %" PRIu64 " trace%s%s\n", d->n, d->n == 1 ? "" : "s",
            d->traces, d->traces == 1 ? "" : "s",
            hv_sx_available() ? "" : " (scalar-load exposure unavailable: built without LLVM, or libLLVM could not be loaded)");
    if (!d->n) {
        fputs("diagnose: no verdict: nothing read data written in the same epoch on its own stream\n", out);
        dx_errata_text(out, d);
        return;
    }
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < d->n;) {
        size_t j = i + 1;
        while (j < d->n && same_answer(&d->v[i], &d->v[j]))
            j++;
        total++;
        i = j;
    }
    for (size_t i = 0; i < d->n;) {
        size_t j = i + 1;
        while (j < d->n && same_answer(&d->v[i], &d->v[j]))
            j++;
        one_text(out, &d->v[i], ++shown, total, &d->v[i + 1], j - i - 1);
        i = j;
    }
    dx_errata_text(out, d);
}

/* ---- JSON ---- */

static void hyp_list(struct hv_json *w, const char *key, const struct dx_item *it, int excludes)
{
    hv_json_karr(w, key);
    for (int h = 0; h < HV_HYP__N; h++)
        if (has_bit(it, h, excludes))
            hv_json_str(w, dx_hyp_id(h));
    hv_json_arr_end(w);
}

static void hyp_json(struct hv_json *w, const struct dx_diag *d, int h)
{
    char nb[640];
    hv_json_obj(w);
    hv_json_kstr(w, "hypothesis", dx_hyp_id(h));
    hv_json_ki64(w, "score", d->score[h]);
    hv_json_kstr(w, "status", dx_status_name(d->status[h]));
    hv_json_kstr(w, "title", dx_hyp_title(h));
    hv_json_kstr(w, "next_run", next_run(d, h, nb, sizeof nb));
    hv_json_kstr(w, "confirm", dx_hyp_confirm(h));
    hv_json_kstr(w, "refute", dx_hyp_refute(h));
    int n;
    const struct dx_fix *f = dx_hyp_fixes(h, &n);
    hv_json_karr(w, "fixes");
    for (int i = 0; i < n; i++) {
        hv_json_obj(w);
        hv_json_kstr(w, "pattern", f[i].pattern);
        hv_json_kstr(w, "cost", f[i].cost);
        hv_json_kstr(w, "guard", f[i].guard);
        hv_json_kstr(w, "result", f[i].result == DX_FIX_REMOVES ? "removes" : f[i].result == DX_FIX_DOES_NOT
                                                                                 ? "does-not-remove" : "untested");
        hv_json_kstr(w, "measured_on", f[i].measured);
        hv_json_obj_end(w);
    }
    hv_json_arr_end(w);
    hv_json_obj_end(w);
}

/* One piece of evidence: its text and what it says of each hypothesis. */
static void item_json(struct hv_json *w, const struct dx_item *it)
{
    hv_json_obj(w);
    hv_json_kstr(w, "text", it->text);
    hv_json_kbool(w, "observed", it->symptom != 0);
    hyp_list(w, "symptom_of", it, 0);
    hyp_list(w, "excludes", it, 1);
    hv_json_kobj(w, "weights");
    for (int h = 0; h < HV_HYP__N; h++)
        if (it->w[h])
            hv_json_ki64(w, dx_hyp_id(h), it->w[h]);
    hv_json_obj_end(w);
    hv_json_obj_end(w);
}

static void one_json(struct hv_json *w, const struct dx_diag *d)
{
    char b[48];
    hv_json_obj(w);
    hv_json_ku64(w, "pid", d->f.pid);
    hv_json_kstr(w, "trace", d->trace);
    hv_json_kstr(w, "runtime", d->runtime);
    hv_json_kobj(w, "group");
    hv_json_kstr(w, "rule", hv_rule_name(d->f.rule));
    hv_json_ku64(w, "count", d->count);
    hv_json_ku64(w, "first_seq", d->first_seq);
    hv_json_ku64(w, "last_seq", d->last_seq);
    hv_json_kobj(w, "buffer");
    hv_json_khex(w, "lo", d->f.lo);
    hv_json_khex(w, "hi", d->f.hi);
    hv_json_ku64(w, "bytes", d->f.hi - d->f.lo);
    hv_json_obj_end(w);
    hv_json_kobj(w, "write");
    hv_json_kstr(w, "api", hv_api_name(d->f.a.api));
    hv_json_ku64(w, "seq", d->f.a.seq);
    hv_json_kstr(w, "stream", hv_stream_text(d->f.a.stream, b, sizeof b));
    hv_json_khex(w, "src", d->f.a.src);
    hv_json_kstr(w, "src_mem", hv_mem_text(d->f.a.src_mem));
    hv_json_khex(w, "dst", d->f.a.dst);
    hv_json_ku64(w, "bytes", d->f.a.bytes);
    hv_json_obj_end(w);
    hv_json_kobj(w, "reader");
    hv_json_khex(w, "exec", d->f.b.exec);
    hv_json_khex(w, "node", d->f.b.node);
    hv_json_ki64(w, "node_index", d->f.b.node_index);
    hv_json_kstr(w, "kernel", d->kernel);
    hv_json_ki64(w, "arg_index", d->f.b.arg_index);
    hv_json_kstr(w, "stream", hv_stream_text(d->f.b.stream, b, sizeof b));
    hv_json_obj_end(w);
    hv_json_obj_end(w);
    hv_json_kstr(w, "verdict", dx_hyp_id(d->verdict));
    hv_json_kstr(w, "basis", basis(d));
    hv_json_karr(w, "open");
    for (int i = 0; i < HV_HYP__N; i++)
        if (d->status[d->order[i]] == DX_CONSISTENT)
            hv_json_str(w, dx_hyp_id(d->order[i]));
    hv_json_arr_end(w);
    hv_json_karr(w, "ranking");
    for (int i = 0; i < HV_HYP__N; i++)
        hyp_json(w, d, d->order[i]);
    hv_json_arr_end(w);
    hv_json_karr(w, "evidence");
    for (int i = 0; i < d->nitems; i++)
        item_json(w, &d->items[i]);
    hv_json_arr_end(w);
    hv_json_kobj(w, "scalar_exposure");
    hv_json_kstr(w, "status", d->sx.status == HV_SX_OK ? "ok" : hv_sx_status_text(d->sx.status));
    hv_json_kstr(w, "read_path", d->sx.status == HV_SX_OK ? hv_sx_path_name(d->sx.read_path) : NULL);
    hv_json_kstr(w, "arch", d->sx.arch);
    hv_json_kstr(w, "origin", d->sx.origin);
    hv_json_obj_end(w);
    hv_json_obj_end(w);
}

void hv_diag_json(struct hv_json *w, const struct hv_diag *d)
{
    hv_json_kobj(w, "diagnose");
    hv_json_kbool(w, "scalar_exposure", hv_sx_available());
    hv_json_ku64(w, "groups", d->n);
    hv_json_obj_end(w);
    hv_json_karr(w, "diagnoses");
    for (size_t i = 0; i < d->n; i++) {
        if (i)
            hv_json_nl(w);
        one_json(w, &d->v[i]);
    }
    hv_json_arr_end(w);
    dx_errata_json(w, d);
}
