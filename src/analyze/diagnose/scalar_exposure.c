/* scalar_exposure: see scalar_exposure.h. */
#include "analyze/diagnose/scalar_exposure.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codeobj/codeobj.h"
#include "codeobj/scalar.h"
#include "common/grow.h"
#include "hipvis/trace.h"

_Static_assert(HV_SX_WORDS_MAX == HV_CO_WORDS_MAX, "the words one dataflow pass answers for");

#define SX_MAX_FILE (1ull << 30)  /* a fat binary of a big framework is hundreds of MB */
#define SX_MAX_USES 64

struct sx_image {
    char *origin;
    unsigned char *bytes;        /* owned: bare ELF objects point into it */
    struct hv_co_table table;
};

struct sx_dis {
    char arch[16];
    struct hv_co_scalar *dis;    /* NULL: LLVM does not know the processor */
};

struct hv_sx {
    struct sx_image *img;
    size_t nimg, capimg;
    struct sx_dis dis[8];
    int ndis;
};

/* Built with the classifier: available when libLLVM loads (dlopen on
 * first use, so an analyzer run without --diagnose never maps it). */
#ifdef HV_HAVE_SCALAR
int hv_sx_available(void) { return hv_co_scalar_available(NULL); }
#else
int hv_sx_available(void) { return 0; }
#endif

const char *hv_sx_status_text(int st)
{
    switch (st) {
    case HV_SX_OK: return "classified";
    case HV_SX_NO_LLVM: return "no LLVM disassembler: built without LLVM (HAVE_LLVM=0), or libLLVM could not be loaded";
    case HV_SX_NO_CODE_OBJECT: return "no code object of this kernel in the trace or --code-object files";
    case HV_SX_NO_DISASSEMBLER: return "LLVM has no disassembler for this processor";
    case HV_SX_NO_ARG: return "the argument is not a global pointer of that kernel";
    default: return "the kernel's code could not be decoded";
    }
}

const char *hv_sx_path_name(int p)
{
    static const char *const n[] = {"none", "scalar", "vector", "both", "unknown"};
    return p >= 0 && p < (int)(sizeof n / sizeof n[0]) ? n[p] : "?";
}

struct hv_sx *hv_sx_new(void)
{
    return calloc(1, sizeof(struct hv_sx));
}

static void image_free(struct sx_image *im)
{
    hv_co_table_free(&im->table);
    free(im->bytes);
    free(im->origin);
}

void hv_sx_free(struct hv_sx *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nimg; i++)
        image_free(&s->img[i]);
    free(s->img);
#ifdef HV_HAVE_SCALAR
    for (int i = 0; i < s->ndis; i++)
        hv_co_scalar_close(s->dis[i].dis);
#endif
    free(s);
}

int hv_sx_add_image(struct hv_sx *s, const void *image, size_t len, const char *origin)
{
    if (!s || !image || !len)
        return -1;
    if (!HV_GROW(s->img, s->nimg, s->capimg, 8))
        return -1;
    struct sx_image *im = &s->img[s->nimg];
    memset(im, 0, sizeof *im);
    im->bytes = malloc(len);
    im->origin = strdup(origin ? origin : "?");
    if (!im->bytes || !im->origin) {
        image_free(im);
        return -1;
    }
    memcpy(im->bytes, image, len);
    hv_co_table_init(&im->table);
    int n = hv_co_parse(&im->table, im->bytes, len, NULL);
    if (n <= 0) {
        image_free(im);
        return n < 0 ? -1 : 0;
    }
    s->nimg++;
    return n;
}

int hv_sx_add_file(struct hv_sx *s, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    unsigned char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (!HV_GROW_UPTO(buf, len + 1, cap, 1u << 20, SX_MAX_FILE)) {
            free(buf);
            fclose(f);
            errno = ENOMEM;
            return -1;
        }
        size_t got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    int n = bad ? -1 : hv_sx_add_image(s, buf, len, path);
    free(buf);
    if (n < 0 && !bad)
        errno = EPROTO;
    return n;
}

void hv_sx_drop_origin(struct hv_sx *s, const char *origin)
{
    size_t w = 0;
    for (size_t i = 0; i < s->nimg; i++) {
        if (strcmp(s->img[i].origin, origin) == 0)
            image_free(&s->img[i]);
        else
            s->img[w++] = s->img[i];
    }
    s->nimg = w;
}

/* The kernel named `name`, from an image holding code object `prefer` if
 * one does, else the first image that has it. */
static const struct hv_co_kernel *find(const struct hv_sx *s, const char *name, uint64_t prefer,
                                       const struct sx_image **where)
{
    const struct hv_co_kernel *any = NULL;
    for (size_t i = 0; i < s->nimg; i++) {
        const struct hv_co_kernel *k = hv_co_find(&s->img[i].table, name);
        if (!k)
            continue;
        if (!prefer || k->code_object_hash == prefer) {
            *where = &s->img[i];
            return k;
        }
        if (!any) {
            any = k;
            *where = &s->img[i];
        }
    }
    return any;
}

#ifdef HV_HAVE_SCALAR
/* Disassemblers are slow to create: one per processor, kept. */
static struct hv_co_scalar *disassembler(struct hv_sx *s, const char *arch)
{
    for (int i = 0; i < s->ndis; i++)
        if (strcmp(s->dis[i].arch, arch) == 0)
            return s->dis[i].dis;
    struct hv_co_scalar *d = hv_co_scalar_open(arch);
    if (s->ndis < (int)(sizeof s->dis / sizeof s->dis[0])) {
        snprintf(s->dis[s->ndis].arch, sizeof s->dis[0].arch, "%s", arch);
        s->dis[s->ndis++].dis = d;
    }
    return d;
}

static void analyze(struct hv_sx *s, const struct sx_image *im, const struct hv_co_kernel *k, uint32_t arg,
                    struct hv_sx_result *r)
{
    struct hv_co_scalar *d = disassembler(s, k->arch);
    if (!d) {
        r->status = HV_SX_NO_DISASSEMBLER;
        return;
    }
    const struct hv_co_object *ob = &im->table.objects[k->object];
    struct hv_co_ptr_use uses[SX_MAX_USES];
    struct hv_co_scalar_report rep;
    int n = hv_co_scalar_analyze(d, ob->elf, ob->len, k, uses, SX_MAX_USES, &rep);
    if (n < 0) {
        r->status = HV_SX_FAILED;
        return;
    }
    r->ninsns = rep.ninsns;
    r->status = HV_SX_NO_ARG;
    for (int i = 0; i < n && i < SX_MAX_USES; i++)
        if (uses[i].arg == arg) {
            r->status = HV_SX_OK;
            r->read_path = uses[i].read_path;
            r->flags = uses[i].flags;
        }
}
#endif

/* The kernel `name` and where it is, with r's arch and origin filled;
 * NULL (r->status NO_CODE_OBJECT) when no image has it. */
static const struct hv_co_kernel *lookup(struct hv_sx *s, const char *name, uint64_t prefer,
                                         const struct sx_image **im, struct hv_sx_result *r)
{
    memset(r, 0, sizeof *r);
    const struct hv_co_kernel *k = s && name ? find(s, name, prefer, im) : NULL;
    if (!k) {
        r->status = HV_SX_NO_CODE_OBJECT;
        return NULL;
    }
    snprintf(r->arch, sizeof r->arch, "%s", k->arch ? k->arch : "?");
    snprintf(r->origin, sizeof r->origin, "%s", (*im)->origin);
    return k;
}

void hv_sx_classify(struct hv_sx *s, const char *name, uint64_t prefer, uint32_t arg, struct hv_sx_result *r)
{
    const struct sx_image *im = NULL;
    const struct hv_co_kernel *k = lookup(s, name, prefer, &im, r);
    if (!k)
        return;
#ifdef HV_HAVE_SCALAR
    if (hv_co_scalar_available(NULL))
        analyze(s, im, k, arg, r);
    else
        r->status = HV_SX_NO_LLVM;
#else
    (void)arg;
    r->status = HV_SX_NO_LLVM;
#endif
}

/* The byte offset of explicit argument `arg` (hidden ones follow the
 * explicit ones in the metadata), or UINT32_MAX when there is none. */
static uint32_t explicit_offset(const struct hv_co_kernel *k, uint32_t arg)
{
    for (uint32_t i = 0, n = 0; i < k->nargs; i++) {
        if (k->args[i].value_kind == HV_CO_VK_HIDDEN)
            continue;
        if (n++ == arg)
            return k->args[i].offset;
    }
    return UINT32_MAX;
}

void hv_sx_words(struct hv_sx *s, const char *name, uint64_t prefer, struct hv_sx_word *w, size_t n,
                 struct hv_sx_result *r)
{
    const struct sx_image *im = NULL;
    const struct hv_co_kernel *k = lookup(s, name, prefer, &im, r);
    uint32_t offs[HV_SX_WORDS_MAX], flags[HV_SX_WORDS_MAX];
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        w[i].flags = 0;
        w[i].found = k && i < HV_SX_WORDS_MAX;
        if (!w[i].found)
            continue;
        uint32_t at = w[i].offset == HV_KARG_OFFSET_UNKNOWN ? explicit_offset(k, w[i].arg) : w[i].offset;
        if (at == UINT32_MAX)
            w[i].found = 0;
        else
            offs[m++] = at;
    }
    if (!k)
        return;
#ifdef HV_HAVE_SCALAR
    struct hv_co_scalar *d = hv_co_scalar_available(NULL) ? disassembler(s, k->arch) : NULL;
    if (!d) {
        r->status = hv_co_scalar_available(NULL) ? HV_SX_NO_DISASSEMBLER : HV_SX_NO_LLVM;
        return;
    }
    const struct hv_co_object *ob = &im->table.objects[k->object];
    struct hv_co_scalar_report rep;
    if (hv_co_scalar_words(d, ob->elf, ob->len, k, offs, m, flags, &rep) != 0) {
        r->status = HV_SX_FAILED;
        return;
    }
    r->ninsns = rep.ninsns;
    for (size_t i = 0, j = 0; i < n; i++)
        if (w[i].found)
            w[i].flags = flags[j++];
    r->status = HV_SX_OK;
#else
    (void)offs;
    (void)flags;
    (void)m;
    r->status = HV_SX_NO_LLVM;
#endif
}
