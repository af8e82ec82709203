/* util.c - file loading and the canonical dump shared by the test programs. */
#include "util.h"

#include <stdlib.h>

unsigned char *co_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    long n;
    if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0)
        goto fail;
    buf = malloc(n ? (size_t)n : 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n)
        goto fail;
    fclose(f);
    *len = (size_t)n;
    return buf;
fail:
    fprintf(stderr, "cannot read %s\n", path);
    free(buf);
    if (f)
        fclose(f);
    return NULL;
}

static const char *space_name(unsigned as)
{
    static const char *const n[] = {"-", "global", "constant", "local", "private",
                                    "generic", "region", "other"};
    return as < sizeof(n) / sizeof(n[0]) ? n[as] : "?";
}

static const char *access_name(unsigned a)
{
    static const char *const n[] = {"-", "read_only", "write_only", "read_write", "other"};
    return a < sizeof(n) / sizeof(n[0]) ? n[a] : "?";
}

static void count(FILE *f, const char *key, int v)
{
    if (v < 0)
        fprintf(f, " %s=-", key);
    else
        fprintf(f, " %s=%d", key, v);
}

void co_test_dump_object(FILE *f, const struct hv_co_table *t, size_t obj)
{
    const struct hv_co_object *o = &t->objects[obj];
    fprintf(f, "object %s\n", o->target);
    for (uint32_t i = 0; i < o->nkernels; i++) {
        const struct hv_co_kernel *k = &t->kernels[o->first_kernel + i];
        fprintf(f, "kernel %s symbol=%s kernarg_size=%u kernarg_align=%u", k->name,
                k->symbol, k->kernarg_size, k->kernarg_align);
        count(f, "sgpr", k->sgpr_count);
        count(f, "vgpr", k->vgpr_count);
        fprintf(f, " nargs=%u\n", k->nargs);
        for (uint32_t j = 0; j < k->nargs; j++) {
            const struct hv_co_arg *a = &k->args[j];
            fprintf(f, "arg %u name=%s offset=%u size=%u kind=%s as=%s access=%s actual=%s "
                       "const=%d\n",
                    j, a->name[0] ? a->name : "-", a->offset, a->size, a->value_kind_raw,
                    space_name(a->address_space), access_name(a->access),
                    access_name(a->actual_access), a->is_const);
        }
    }
}
