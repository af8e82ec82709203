/* t_fuzz.c - bounded mutation fuzzing of real images (fixed seed, so a
 * failure reproduces). Run under build-san it is the ASan/UBSan proof that
 * no input makes the parser read out of bounds, leak or trip UB; in every
 * build it checks the table invariants after each parse.
 *   CODEOBJ_FUZZ_ITERS  iterations per image (default 4000) */
#include "check.h"
#include "codeobj/elf.h"

#include <stdlib.h>
#include <string.h>

void (*co_fuzz_hook)(const struct hv_co_table *t);
static uint64_t rng = 0x2545F4914F6CDD1Dull;
static unsigned long seen[HV_CO_ERR__COUNT]; /* reasons reached, all images */

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* Byte ranges where damage reaches deep code: the metadata notes. */
struct hot {
    size_t off, len;
};

static size_t hot_ranges(const unsigned char *img, size_t len, struct hot *h, size_t max)
{
    struct hv_co_table t;
    size_t n = 0;
    co_parse_fresh(&t, img, len, NULL);
    for (size_t o = 0; o < t.nobjects && n < max; o++) {
        const struct hv_co_object *ob = &t.objects[o];
        struct co_elf e;
        const unsigned char *d;
        size_t dn;
        if (ob->owned || co_elf_open(&e, ob->elf, ob->len) != HV_CO_OK)
            continue;
        enum hv_co_err err = co_elf_find_note(&e, "AMDGPU", CO_NT_AMDGPU_METADATA, &d, &dn);
        co_elf_close(&e);
        if (err != HV_CO_OK)
            continue;
        h[n].off = (size_t)(d - img);
        h[n].len = dn;
        n++;
    }
    hv_co_table_free(&t);
    return n;
}

static void mutate(unsigned char *p, size_t *len, const struct hot *hot, size_t nhot)
{
    unsigned edits = 1 + next() % 4;
    for (unsigned i = 0; i < edits && *len; i++) {
        size_t at;
        unsigned where = next() % 10;
        if (where < 3)
            at = next() % (*len < 512 ? *len : 512); /* headers, entry table */
        else if (where < 7 && nhot) {
            const struct hot *h = &hot[next() % nhot];
            at = h->off + next() % h->len;
        } else
            at = next() % *len;
        if (at >= *len)
            continue;
        switch (next() % 4) {
        case 0: p[at] ^= (unsigned char)(1u << (next() % 8)); break;
        case 1: p[at] = (unsigned char)next(); break;
        case 2: p[at] = (unsigned char)(next() % 2 ? 0xff : 0x00); break;
        default: /* a msgpack/ELF size field: make it large */
            for (size_t k = at; k < *len && k < at + 4; k++)
                p[k] = 0xff;
        }
    }
    if (next() % 5 == 0)
        *len = next() % (*len + 1);
}

static void fuzz_image(const char *what, const unsigned char *img, size_t len, unsigned iters)
{
    struct hot hot[8];
    size_t nhot = hot_ranges(img, len, hot, 8);
    unsigned char *buf = malloc(len ? len : 1);
    unsigned bad = 0;
    for (unsigned i = 0; i < iters; i++) {
        size_t n = len;
        memcpy(buf, img, len);
        mutate(buf, &n, hot, nhot);
        struct hv_co_table t;
        int r = co_parse_fresh(&t, buf, n, NULL);
        if (r < 0 || !co_table_sane(&t, buf, n) || hv_co_image_size(buf, n) > n) {
            if (!bad)
                fprintf(stderr, "  fuzz %s: iteration %u broke an invariant\n", what, i);
            bad++;
        }
        for (int e = 0; e < HV_CO_ERR__COUNT; e++)
            seen[e] += t.errors[e];
        if (co_fuzz_hook && i % 4 == 0)
            co_fuzz_hook(&t);
        hv_co_table_free(&t);
    }
    free(buf);
    CHECK(bad == 0, what);
}

void t_fuzz(void)
{
    const char *env = getenv("CODEOBJ_FUZZ_ITERS");
    unsigned iters = env ? (unsigned)strtoul(env, NULL, 10) : 4000;
    const struct fixture *v2 = fx("hip.ccob2");
    size_t v1len;
    unsigned char *v1 = co_ccob_v1_from_v2(v2->data, v2->len, &v1len);

    fuzz_image("fuzz: hipcc plain bundle", fx("hip.fatbin")->data, fx("hip.fatbin")->len, iters);
    fuzz_image("fuzz: clang-22 plain bundle", fx("hip22.fatbin")->data, fx("hip22.fatbin")->len,
               iters);
    fuzz_image("fuzz: bare OpenCL ELF", fx("cl-gfx950.co")->data, fx("cl-gfx950.co")->len, iters);
    fuzz_image("fuzz: CCOB v3", fx("hip.ccob3")->data, fx("hip.ccob3")->len, iters / 2);
    fuzz_image("fuzz: CCOB v2", v2->data, v2->len, iters / 4);
    fuzz_image("fuzz: CCOB v1", v1, v1len, iters / 4);
    free(v1);

    /* The mutations must reach every layer, or the loop proves little. */
    unsigned reached = 0;
    printf("fuzz: %u iterations/image; reasons reached:", iters);
    for (int e = 1; e < HV_CO_ERR__COUNT; e++)
        if (seen[e]) {
            reached++;
            printf(" %s", hv_co_err_name(e) + 10);
        }
    printf("\n");
    CHECK(!iters || (seen[HV_CO_ERR_MSGPACK_BAD] && seen[HV_CO_ERR_ARG_BAD] &&
                     seen[HV_CO_ERR_KERNEL_BAD] && seen[HV_CO_ERR_ELF_TRUNCATED] &&
                     seen[HV_CO_ERR_BUNDLE_ENTRY_OOB] && seen[HV_CO_ERR_CCOB_DECOMPRESS]),
          "fuzz reaches bundle, CCOB, ELF, msgpack and kernel/argument decoding");
}
