/*
 * Feeds a byte string to a fresh engine as a stream of trace records laid end
 * to end (what the engine fuzzer does with each input; the analyzer tests
 * replay the inputs it once crashed on, from tests/analyze/fuzz/regress).
 * The reader's guarantees are kept so that only the engine's own checks are
 * under test: sizes are a multiple of 8 between the header and
 * HV_REC_MAX_BYTES, a call takes the next seq and its auxiliary records
 * share it. The input is analyzed to the end, then reported as text and
 * JSON to `sink` (the renderers read what the rules stored).
 */
#include "feed_engine.h"

#include <string.h>

#include "analyze/engine.h"
#include "analyze/findings.h"
#include "analyze/report/report.h"

size_t fe_feed(const uint8_t *data, size_t size, FILE *sink)
{
    static _Alignas(16) uint8_t buf[HV_REC_MAX_BYTES];
    struct hv_findings out;
    hv_findings_init(&out);
    struct hv_engine *e = hv_engine_new(NULL, "fuzz", &out, NULL, NULL, NULL);
    if (!e) {
        hv_findings_free(&out);
        return 0;
    }
    uint64_t seq = 0;
    size_t off = 0;
    while (size - off >= sizeof(struct hv_rec_header)) {
        struct hv_rec_header h;
        memcpy(&h, data + off, sizeof h);
        size_t n = h.size & ~(size_t)7;
        if (n < sizeof h)
            n = sizeof h;
        if (n > size - off)
            n = (size - off) & ~(size_t)7;
        memcpy(buf, data + off, n);
        off += n;
        struct hv_rec_header *r = (struct hv_rec_header *)buf;
        r->size = (uint16_t)n;
        r->seq = r->type == HV_REC_CALL ? ++seq : seq;
        hv_engine_feed(e, r);
    }
    struct hv_input_health in = {.has_footer = 1};
    hv_engine_finish(e, &in);
    hv_findings_add_trace(&out, hv_engine_summary(e));
    struct hv_report_opts ro = {.fail_on = HV_SEV_WARNING, .all = 1};
    if (sink) {
        hv_report_text(sink, &out, &ro);
        hv_report_json(sink, &out, &ro);
    }
    size_t groups = out.ngroups;
    hv_engine_free(e);
    hv_findings_free(&out);
    return groups;
}
