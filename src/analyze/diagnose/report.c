/*
 * report: --diagnose output. Text after the findings; JSON as the
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
    snprintf(buf, len, "%.*s0x%" PRIx64 ":%" PRIu64 "%s", (int)(at - t), t, d->lo, d->hi - d->lo, at + 8);
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
    if (a->pid != b->pid || a->lo != b->lo || a->hi != b->hi || a->src != b->src || a->verdict != b->verdict ||
        a->arg_index != b->arg_index || strcmp(a->kernel, b->kernel) != 0 || a->nitems != b->nitems)
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
            total, d->pid, hv_rule_name(d->rule), d->count, d->first_seq, d->last_seq);
    fprintf(out, "   buffer   0x%" PRIx64 " .. 0x%" PRIx64 " (%s) written by %s seq %" PRIu64 " on %s from 0x%" PRIx64
                 " (%s)\n",
            d->lo, d->hi, hv_bytes_text(d->hi - d->lo, b1, sizeof b1), hv_api_name(d->write_api), d->write_seq,
            hv_stream_text(d->write_stream, b2, sizeof b2), d->src, hv_mem_text(d->src_mem));
    fprintf(out, "   reader   exec 0x%" PRIx64 " node %d %s arg %d", d->exec, d->node_index,
            d->kernel[0] ? d->kernel : "(not a kernel)", d->arg_index);
    for (size_t i = 0; i < nfold; i++)
        fprintf(out, "%s0x%" PRIx64, i ? " " : "; the same for execs ", folded[i].exec);
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

static void kstr(FILE *out, const char *k, const char *v, int first)
{
    fprintf(out, "%s\"%s\":", first ? "" : ",", k);
    hv_json_str(out, v);
}

static void hyp_json(FILE *out, const struct dx_diag *d, int h)
{
    char nb[640];
    fprintf(out, "{\"hypothesis\":\"%s\",\"score\":%d,\"status\":\"%s\"", dx_hyp_id(h), d->score[h],
            dx_status_name(d->status[h]));
    kstr(out, "title", dx_hyp_title(h), 0);
    kstr(out, "next_run", next_run(d, h, nb, sizeof nb), 0);
    kstr(out, "confirm", dx_hyp_confirm(h), 0);
    kstr(out, "refute", dx_hyp_refute(h), 0);
    int n;
    const struct dx_fix *f = dx_hyp_fixes(h, &n);
    fputs(",\"fixes\":[", out);
    for (int i = 0; i < n; i++) {
        fputs(i ? ",{" : "{", out);
        kstr(out, "pattern", f[i].pattern, 1);
        kstr(out, "cost", f[i].cost, 0);
        if (f[i].guard)
            kstr(out, "guard", f[i].guard, 0);
        else
            fputs(",\"guard\":null", out);
        kstr(out, "result", f[i].result == DX_FIX_REMOVES ? "removes" : f[i].result == DX_FIX_DOES_NOT
                                                                             ? "does-not-remove" : "untested", 0);
        if (f[i].measured)
            kstr(out, "measured_on", f[i].measured, 0);
        else
            fputs(",\"measured_on\":null", out);
        fputc('}', out);
    }
    fputs("]}", out);
}

static void one_json(FILE *out, const struct dx_diag *d)
{
    char b[48];
    fprintf(out, "{\"pid\":%" PRIu64, d->pid);
    kstr(out, "trace", d->trace, 0);
    kstr(out, "runtime", d->runtime, 0);
    fprintf(out, ",\"group\":{\"rule\":\"%s\",\"count\":%" PRIu64 ",\"first_seq\":%" PRIu64
                 ",\"last_seq\":%" PRIu64 ",\"buffer\":{\"lo\":\"0x%" PRIx64 "\",\"hi\":\"0x%" PRIx64
                 "\",\"bytes\":%" PRIu64 "}",
            hv_rule_name(d->rule), d->count, d->first_seq, d->last_seq, d->lo, d->hi, d->hi - d->lo);
    fprintf(out, ",\"write\":{\"api\":\"%s\",\"seq\":%" PRIu64 ",\"stream\":\"%s\",\"src\":\"0x%" PRIx64
                 "\",\"src_mem\":\"%s\",\"dst\":\"0x%" PRIx64 "\",\"bytes\":%" PRIu64 "}",
            hv_api_name(d->write_api), d->write_seq, hv_stream_text(d->write_stream, b, sizeof b), d->src,
            hv_mem_text(d->src_mem), d->dst, d->bytes);
    fprintf(out, ",\"reader\":{\"exec\":\"0x%" PRIx64 "\",\"node\":\"0x%" PRIx64 "\",\"node_index\":%d", d->exec,
            d->node, d->node_index);
    kstr(out, "kernel", d->kernel, 0);
    fprintf(out, ",\"arg_index\":%d,\"stream\":\"%s\"}}", d->arg_index, hv_stream_text(d->replay_stream, b, sizeof b));
    fprintf(out, ",\"verdict\":\"%s\",\"basis\":\"%s\"", dx_hyp_id(d->verdict), basis(d));
    fputs(",\"open\":[", out);
    for (int i = 0, k = 0; i < HV_HYP__N; i++)
        if (d->status[d->order[i]] == DX_CONSISTENT)
            fprintf(out, "%s\"%s\"", k++ ? "," : "", dx_hyp_id(d->order[i]));
    fputc(']', out);
    fputs(",\"ranking\":[", out);
    for (int i = 0; i < HV_HYP__N; i++) {
        if (i)
            fputc(',', out);
        hyp_json(out, d, d->order[i]);
    }
    fputs("],\"evidence\":[", out);
    for (int i = 0; i < d->nitems; i++) {
        const struct dx_item *it = &d->items[i];
        fputs(i ? ",{" : "{", out);
        kstr(out, "text", it->text, 1);
        fprintf(out, ",\"observed\":%s,\"symptom_of\":[", it->symptom ? "true" : "false");
        for (int h = 0, k = 0; h < HV_HYP__N; h++)
            if (has_bit(it, h, 0))
                fprintf(out, "%s\"%s\"", k++ ? "," : "", dx_hyp_id(h));
        fputs("],\"excludes\":[", out);
        for (int h = 0, k = 0; h < HV_HYP__N; h++)
            if (has_bit(it, h, 1))
                fprintf(out, "%s\"%s\"", k++ ? "," : "", dx_hyp_id(h));
        fputs("],\"weights\":{", out);
        int first = 1;
        for (int h = 0; h < HV_HYP__N; h++)
            if (it->w[h]) {
                fprintf(out, "%s\"%s\":%d", first ? "" : ",", dx_hyp_id(h), it->w[h]);
                first = 0;
            }
        fputs("}}", out);
    }
    fputs("],\"scalar_exposure\":{", out);
    kstr(out, "status", d->sx.status == HV_SX_OK ? "ok" : hv_sx_status_text(d->sx.status), 1);
    if (d->sx.status == HV_SX_OK)
        kstr(out, "read_path", hv_sx_path_name(d->sx.read_path), 0);
    else
        fputs(",\"read_path\":null", out);
    kstr(out, "arch", d->sx.arch, 0);
    kstr(out, "origin", d->sx.origin, 0);
    fputs("}}", out);
}

void hv_diag_json(FILE *out, const struct hv_diag *d)
{
    fprintf(out, ",\"diagnose\":{\"scalar_exposure\":%s,\"groups\":%zu}", hv_sx_available() ? "true" : "false",
            d->n);
    fputs(",\"diagnoses\":[", out);
    for (size_t i = 0; i < d->n; i++) {
        if (i)
            fputs(",\n", out);
        one_json(out, &d->v[i]);
    }
    fputc(']', out);
    dx_errata_json(out, d);
}
