/* test_main.c - runs the codeobj test groups against the generated inputs.
 *   test_codeobj DIR     DIR holds what tests/codeobj/module.mk built */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned co_passed, co_failed;
static const char *dir;

void co_check(bool ok, const char *file, int line, const char *expr, const char *what)
{
    if (ok) {
        co_passed++;
        return;
    }
    co_failed++;
    fprintf(stderr, "FAIL %s:%d: %s (%s)\n", file, line, what, expr);
}

#define FX(n) {.name = n, .data = NULL, .len = 0}
static struct fixture fixtures[] = {
    FX("hip.fatbin"), FX("hip-gfx90a.co"), FX("hip-gfx940.co"), FX("hip.ccob2"),
    FX("hip.ccob3"),  FX("hip22.fatbin"),  FX("hip22.ccob"),    FX("cl-gfx950.co"),
    FX("scalar-gfx950.co"),
};

const struct fixture *fx(const char *name)
{
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++) {
        struct fixture *f = &fixtures[i];
        if (strcmp(f->name, name) != 0)
            continue;
        if (!f->data) {
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", dir, name);
            f->data = co_test_read_file(path, &f->len);
            if (!f->data)
                exit(2);
        }
        return f;
    }
    fprintf(stderr, "unknown fixture %s\n", name);
    exit(2);
}

int co_parse_fresh(struct hv_co_table *t, const void *p, size_t len,
                   const struct hv_co_opts *opts)
{
    hv_co_table_init(t);
    return hv_co_parse(t, p, len, opts);
}

unsigned co_errors_total(const struct hv_co_table *t)
{
    unsigned n = 0;
    for (int e = 0; e < HV_CO_ERR__COUNT; e++)
        n += t->errors[e];
    return n;
}

bool co_table_sane(const struct hv_co_table *t, const void *image, size_t len)
{
    const unsigned char *img = image;
    if (t->nissues != co_errors_total(t) || t->errors[HV_CO_OK] != 0)
        return false;
    size_t kernels_in_objects = 0;
    for (size_t o = 0; o < t->nobjects; o++) {
        const struct hv_co_object *ob = &t->objects[o];
        if (!ob->elf || !ob->len || !ob->target || !ob->proc || !ob->bundle_id)
            return false;
        if (!ob->owned && (ob->elf < img || ob->len > len || ob->elf - img > (ptrdiff_t)(len - ob->len)))
            return false;
        long first = hv_co_find_object(t, ob->hash); /* <= o with HV_CO_KEEP_DUPLICATES */
        if (ob->hash != hv_co_hash64(ob->elf, ob->len) || first < 0 || first > (long)o ||
            t->objects[first].hash != ob->hash)
            return false;
        if ((size_t)ob->first_kernel + ob->nkernels > t->nkernels)
            return false;
        kernels_in_objects += ob->nkernels;
    }
    if (kernels_in_objects != t->nkernels)
        return false;
    for (size_t k = 0; k < t->nkernels; k++) {
        const struct hv_co_kernel *kn = &t->kernels[k];
        if (!kn->name || !kn->symbol || !kn->arch || kn->object >= t->nobjects ||
            (kn->nargs && !kn->args) || !hv_co_find(t, kn->name))
            return false;
        const struct hv_co_object *ob = &t->objects[kn->object];
        if (k < ob->first_kernel || k >= (size_t)ob->first_kernel + ob->nkernels ||
            kn->code_object_hash != ob->hash)
            return false;
        for (uint32_t a = 0; a < kn->nargs; a++) {
            const struct hv_co_arg *ar = &kn->args[a];
            if (!ar->name || !ar->value_kind_raw || ar->value_kind > HV_CO_VK_HIDDEN ||
                ar->address_space > HV_CO_AS_OTHER || ar->access > HV_CO_ACC_OTHER ||
                ar->actual_access > HV_CO_ACC_OTHER)
                return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s INPUT_DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    t_hash();
    t_parse();
    t_corrupt();
    t_wrapper(dir);
    if (t_scalar) /* linked in only when HAVE_LLVM=1 */
        t_scalar();
    else
        printf("codeobj: scalar classifier not built (HAVE_LLVM=0)\n");
    t_fuzz(); /* last: the slowest */
    for (size_t i = 0; i < sizeof(fixtures) / sizeof(fixtures[0]); i++)
        free(fixtures[i].data);
    printf("codeobj: %u passed, %u failed\n", co_passed, co_failed);
    return co_failed ? 1 : 0;
}
