/* Deterministic record generator; see gen.h. */
#include <stdlib.h>
#include <string.h>

#include "format/rec_layout.h"
#include "gen.h"

void hv_gen_init(struct hv_gen *g, uint64_t seed)
{
    g->rng = seed * 0x9E3779B97F4A7C15ull + 1;
    g->seq = 1;
    g->ts = 1000000;
    g->next_string = 1;
}

/* xorshift64*: fast, and good enough to fill fields. */
uint64_t hv_gen_rand(struct hv_gen *g)
{
    g->rng ^= g->rng >> 12;
    g->rng ^= g->rng << 25;
    g->rng ^= g->rng >> 27;
    return g->rng * 0x2545F4914F6CDD1Dull;
}

static void fill(struct hv_gen *g, void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        b[i] = (uint8_t)hv_gen_rand(g);
}

static const uint16_t some_apis[] = { 1, 2, 11, 14, 15, 30, 31, 40, 41, 42, 45, 60, 61, 63, 70, 72,
                                      80, 83, 90, 95, 99, 118, 143, 147, 148, 149, 3999 /* unknown */ };

#define UNKNOWN_TYPE 200   /* a type no reader knows: must pass through */

/* Picks a type for the mix: 60% calls, the rest spread over every type this
 * build knows (reserved ones included) and one it does not. */
static unsigned pick_type(struct hv_gen *g)
{
    unsigned r = (unsigned)(hv_gen_rand(g) % 100);
    if (r < 60)
        return HV_REC_CALL;
    unsigned k = (unsigned)(hv_gen_rand(g) % (HV_REC__MAX - 1));   /* 0 .. MAX-2 */
    return k == 0 ? UNKNOWN_TYPE : k + 1;                          /* 2 .. MAX-1, or unknown */
}

unsigned hv_gen_type(unsigned i)
{
    return i + 1 < HV_REC__MAX ? i + 1 : UNKNOWN_TYPE;
}

size_t hv_gen_record(struct hv_gen *g, unsigned type, void *buf)
{
    if (!type)
        type = pick_type(g);
    /* Fixed part from the reader's own table, so new types are covered. */
    size_t fixed = hv_rec_fixed_size(type), tail = 0;
    switch (type) {
    case HV_REC_STRING:      tail = 1 + hv_gen_rand(g) % 80; break;
    case HV_REC_GRAPH_EDGES: tail = 8 * (hv_gen_rand(g) % 20); break;
    case HV_REC_KARGS:       tail = sizeof(struct hv_karg) * (hv_gen_rand(g) % 6); break;
    case HV_REC_CODEOBJ:     tail = hv_gen_rand(g) % 2000; break;
    case HV_REC_PAYLOAD:     tail = hv_gen_rand(g) % 64; break;
    case HV_REC_STACK:       tail = 8 * (hv_gen_rand(g) % 8); break;
    case HV_REC_MAPS:        tail = 1 + hv_gen_rand(g) % 60; break;
    case HV_REC_PROBE:       tail = HV_PROBE__POINTS * (hv_gen_rand(g) % 16); break;
    default:
        if (!fixed)
            fixed = 24 + 8 * (hv_gen_rand(g) % 8);   /* opaque */
        break;
    }
    size_t size = hv_rec_padded(fixed + tail);
    fill(g, buf, size);
    struct hv_rec_header *h = buf;
    h->type = (uint16_t)type;
    h->size = (uint16_t)size;
    h->tid = 1000 + (uint32_t)(hv_gen_rand(g) % 4);
    if (type == HV_REC_CALL)
        g->seq++;
    h->seq = g->seq;
    g->ts += 1 + hv_gen_rand(g) % 500;
    h->ts_ns = g->ts;
    switch (type) {
    case HV_REC_CALL:
        ((struct hv_call *)buf)->api = some_apis[hv_gen_rand(g) % (sizeof some_apis / sizeof some_apis[0])];
        break;
    case HV_REC_STRING: {
        struct hv_string *s = buf;
        s->id = g->next_string++;
        s->len = (uint32_t)tail;
        char *t = (char *)(s + 1);
        for (size_t i = 0; i < tail; i++)
            t[i] = (char)('a' + hv_gen_rand(g) % 26);
        break;
    }
    case HV_REC_GRAPH_NODE:
        ((struct hv_graph_node *)buf)->type = (uint16_t)(hv_gen_rand(g) % 14);
        break;
    case HV_REC_GRAPH_EDGES: ((struct hv_graph_edges *)buf)->count = (uint32_t)(tail / 8); break;
    case HV_REC_KARGS:       ((struct hv_kargs *)buf)->count = (uint32_t)(tail / sizeof(struct hv_karg)); break;
    case HV_REC_CODEOBJ:     ((struct hv_codeobj_chunk *)buf)->len = (uint32_t)tail; break;
    case HV_REC_PAYLOAD:     ((struct hv_payload *)buf)->len = (uint32_t)tail; break;
    case HV_REC_STACK:       ((struct hv_stack *)buf)->nframes = (uint32_t)(tail / 8); break;
    case HV_REC_MAPS:        ((struct hv_map *)buf)->path_len = (uint32_t)tail; break;
    case HV_REC_PROBE:       ((struct hv_probe *)buf)->len = (uint32_t)(tail / HV_PROBE__POINTS); break;
    default: break;
    }
    /* A variable-length type added to the format but not yet here: keep the
     * record valid by zeroing its body (counts of 0, no tail). */
    if (hv_rec_check(h))
        memset(h + 1, 0, size - sizeof *h);
    return size;
}

void hv_gen_header(struct hv_file_header *h, uint64_t pid)
{
    memset(h, 0, sizeof *h);
    h->pid = pid;
    h->ppid = 1;
    h->start_ns = 123456789;
    h->start_realtime_ns = 1700000000000000000ull;
    h->clock = HV_CLOCK_MONOTONIC;
    h->transport = HV_TRANSPORT_FILE;
    h->ring_kb = 1024;
    strcpy(h->hipvis_version, "test");
    strcpy(h->host, "testhost");
    strcpy(h->exe, "/usr/bin/\"quoted\" exe");
    strcpy(h->knobs, "HSA_ENABLE_SDMA=0;");
    static const char argv[] = "gen\0--name=it's \"x\"\0";   /* two arguments, each NUL-terminated */
    memcpy(h->argv, argv, sizeof argv - 1);
    h->argc = 2;
    h->argv_bytes = sizeof argv - 1;
}

void hv_reclist_add(struct hv_reclist *l, const void *rec)
{
    size_t size = ((const struct hv_rec_header *)rec)->size;
    if (l->len + size > l->cap) {
        l->cap = l->cap ? l->cap * 2 : 1 << 16;
        while (l->cap < l->len + size)
            l->cap *= 2;
        l->bytes = realloc(l->bytes, l->cap);
    }
    if (l->n == l->ncap) {
        l->ncap = l->ncap ? l->ncap * 2 : 1024;
        l->off = realloc(l->off, l->ncap * sizeof *l->off);
    }
    if (!l->bytes || !l->off)
        abort();   /* test program: out of memory is fatal */
    memcpy(l->bytes + l->len, rec, size);
    l->off[l->n++] = l->len;
    l->len += size;
}

const struct hv_rec_header *hv_reclist_get(const struct hv_reclist *l, size_t i)
{
    return (const struct hv_rec_header *)(l->bytes + l->off[i]);
}

void hv_reclist_free(struct hv_reclist *l)
{
    free(l->bytes);
    free(l->off);
    memset(l, 0, sizeof *l);
}

void hv_reclist_generate(struct hv_reclist *l, uint64_t seed, size_t n)
{
    struct hv_gen g;
    _Alignas(8) uint8_t buf[HV_GEN_BUF];
    hv_gen_init(&g, seed);
    for (size_t i = 0; i < n; i++) {
        hv_gen_record(&g, i < HV_REC__MAX ? hv_gen_type((unsigned)i) : 0, buf);   /* every type early */
        hv_reclist_add(l, buf);
    }
}
