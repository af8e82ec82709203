/* t_parse.c - real images decode to the right tables.
 * Field-by-field agreement with llvm-readelf is meta_check.py's job; here:
 * structure (objects, hashes, bytes), the compressed forms decoding to the
 * same table as the plain one, concatenation, options and lookups. */
#include "check.h"
#include "codeobj/kd.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* CCOB v1 cannot be produced by today's bundler; derive one from a real v2
 * (same method, uncompressed size, hash and payload; no total size). */
unsigned char *co_ccob_v1_from_v2(const unsigned char *v2, size_t len, size_t *out_len)
{
    if (len < 24)
        return NULL;
    size_t payload = len - 24;
    unsigned char *v1 = malloc(20 + payload);
    if (!v1)
        return NULL;
    memcpy(v1, v2, 8);
    v1[4] = 1;
    v1[5] = 0;
    memcpy(v1 + 8, v2 + 12, 4);  /* uncompressed size */
    memcpy(v1 + 12, v2 + 16, 8); /* hash */
    memcpy(v1 + 20, v2 + 24, payload);
    *out_len = 20 + payload;
    return v1;
}

static bool args_equal(const struct hv_co_arg *a, const struct hv_co_arg *b)
{
    return a->offset == b->offset && a->size == b->size && a->value_kind == b->value_kind &&
           a->address_space == b->address_space && a->access == b->access &&
           a->actual_access == b->actual_access && a->is_const == b->is_const &&
           a->is_restrict == b->is_restrict && a->is_volatile == b->is_volatile &&
           strcmp(a->name, b->name) == 0 && strcmp(a->value_kind_raw, b->value_kind_raw) == 0;
}

static bool kernels_equal(const struct hv_co_kernel *a, const struct hv_co_kernel *b)
{
    if (strcmp(a->name, b->name) || strcmp(a->symbol, b->symbol) || strcmp(a->arch, b->arch) ||
        a->code_object_hash != b->code_object_hash || a->kernarg_size != b->kernarg_size ||
        a->kernarg_align != b->kernarg_align || a->sgpr_count != b->sgpr_count ||
        a->vgpr_count != b->vgpr_count || a->nargs != b->nargs)
        return false;
    for (uint32_t i = 0; i < a->nargs; i++)
        if (!args_equal(&a->args[i], &b->args[i]))
            return false;
    return true;
}

/* Same code objects (by content) and same kernels, in the same order.
 * Bundle ids may differ: clang-offload-bundler-22 drops processors it no
 * longer knows (gfx940) from the ids it writes. */
static bool tables_equal(const struct hv_co_table *a, const struct hv_co_table *b)
{
    if (a->nobjects != b->nobjects || a->nkernels != b->nkernels)
        return false;
    for (size_t o = 0; o < a->nobjects; o++) {
        const struct hv_co_object *x = &a->objects[o], *y = &b->objects[o];
        if (x->hash != y->hash || x->len != y->len || memcmp(x->elf, y->elf, x->len) ||
            strcmp(x->target, y->target) || strcmp(x->proc, y->proc) ||
            x->nkernels != y->nkernels)
            return false;
    }
    for (size_t k = 0; k < a->nkernels; k++)
        if (!kernels_equal(&a->kernels[k], &b->kernels[k]))
            return false;
    return true;
}

static void plain_bundle(void)
{
    const struct fixture *f = fx("hip.fatbin");
    struct hv_co_table t;
    int n = co_parse_fresh(&t, f->data, f->len, NULL);
    CHECK(n == 14 && t.nkernels == 14, "hipcc fat binary: 7 kernels x 2 archs");
    CHECK(t.nobjects == 2 && t.nhost == 1, "two device objects, one empty host entry");
    CHECK(co_errors_total(&t) == 0 && t.nissues == 0, "no skipped units in a clean bundle");
    CHECK(co_table_sane(&t, f->data, f->len), "table invariants");
    /* hipcc 5.2 pads .hip_fatbin with one zero byte past the last entry. */
    size_t ext = hv_co_image_size(f->data, f->len);
    bool zero_tail = ext > 0 && ext <= f->len;
    for (size_t i = ext; zero_tail && i < f->len; i++)
        zero_tail = f->data[i] == 0;
    CHECK(zero_tail && ext + 8 > f->len, "bundle extent: the section less its zero padding");

    static const char *const procs[] = {"gfx90a", "gfx940"};
    for (int i = 0; i < 2 && t.nobjects == 2; i++) {
        const struct hv_co_object *o = &t.objects[i];
        char name[32];
        snprintf(name, sizeof(name), "hip-%s.co", procs[i]);
        const struct fixture *elf = fx(name); /* extracted by clang-offload-bundler */
        CHECK(strcmp(o->proc, procs[i]) == 0, "object processor from e_flags");
        CHECK(o->len == elf->len && memcmp(o->elf, elf->data, elf->len) == 0,
              "object bytes are exactly the bundler-extracted ELF");
        CHECK(o->hash == hv_co_hash64(elf->data, elf->len), "object hash is XXH64 of the ELF");
        CHECK(!o->owned && !o->compressed && o->elf > f->data && o->elf < f->data + f->len,
              "plain bundle objects point into the caller's image");
        CHECK(strstr(o->bundle_id, procs[i]) && strncmp(o->bundle_id, "hipv4-amdgcn", 12) == 0,
              "bundle id kept");
        CHECK(o->nkernels == 7 && o->first_kernel == (uint32_t)(7 * i), "kernel range");
    }

    const struct hv_co_kernel *k = hv_co_find(&t, "_Z5saxpyfPKfPfi");
    CHECK(k && strcmp(k->arch, "gfx90a") == 0, "hv_co_find returns the first arch's copy");
    k = hv_co_find_arch(&t, "_Z5saxpyfPKfPfi", "gfx940");
    CHECK(k && strcmp(k->arch, "gfx940") == 0 && k->object == 1, "hv_co_find_arch");
    CHECK(k && k->nargs == 4 && k->kernarg_size == 28, "saxpy(float, const float*, float*, int)");
    if (k && k->nargs == 4) {
        CHECK(k->args[0].value_kind == HV_CO_VK_BY_VALUE && k->args[0].size == 4, "a by value");
        CHECK(k->args[1].value_kind == HV_CO_VK_GLOBAL_BUFFER &&
                  k->args[1].address_space == HV_CO_AS_GLOBAL &&
                  hv_co_arg_access(&k->args[1]) == HV_CO_ACC_READ_ONLY,
              "const __restrict__ x: read-only global buffer");
        CHECK(k->args[2].value_kind == HV_CO_VK_GLOBAL_BUFFER &&
                  hv_co_arg_access(&k->args[2]) == HV_CO_ACC_UNKNOWN,
              "written y: access unknown (HIP 5.2 does not infer it)");
    }
    CHECK(hv_co_find(&t, "c_linkage") && hv_co_find(&t, "_Z7no_argsv") &&
              hv_co_find(&t, "_Z7scale_kIsLi2EEvPT_PKS0_S0_"),
          "extern C, no-arg and template kernels found by name");
    k = hv_co_find(&t, "_Z7no_argsv");
    CHECK(k && k->nargs == 0 && k->args == NULL, "kernel without .args");
    CHECK(!hv_co_find(&t, "saxpy") && !hv_co_find_arch(&t, "c_linkage", "gfx950"),
          "no false matches");

    /* Every kind enum agrees with its raw string. */
    bool kinds_ok = true;
    for (size_t i = 0; i < t.nkernels; i++)
        for (uint32_t a = 0; a < t.kernels[i].nargs; a++) {
            const struct hv_co_arg *ar = &t.kernels[i].args[a];
            kinds_ok &= (ar->value_kind == HV_CO_VK_GLOBAL_BUFFER) ==
                        (strcmp(ar->value_kind_raw, "global_buffer") == 0);
        }
    CHECK(kinds_ok, "value_kind enum matches raw string");

    /* Parsing the same image again into the same table adds nothing. */
    n = hv_co_parse(&t, f->data, f->len, NULL);
    CHECK(n == 0 && t.nduplicates == 2 && t.nobjects == 2, "second parse: duplicates skipped");
    struct hv_co_opts keep = {.flags = HV_CO_KEEP_DUPLICATES};
    n = hv_co_parse(&t, f->data, f->len, &keep);
    CHECK(n == 14 && t.nobjects == 4, "HV_CO_KEEP_DUPLICATES re-adds");
    CHECK(hv_co_find_object(&t, t.objects[3].hash) == 1, "find_object returns the first copy");
    CHECK(co_table_sane(&t, f->data, f->len), "table invariants after appends");
    hv_co_table_free(&t);
}

static void compressed_equals_plain(const char *plain, const char *packed)
{
    const struct fixture *p = fx(plain), *c = fx(packed);
    struct hv_co_table a, b;
    co_parse_fresh(&a, p->data, p->len, NULL);
    int n = co_parse_fresh(&b, c->data, c->len, NULL);
    CHECK(n > 0 && (size_t)n == a.nkernels, packed);
    CHECK(tables_equal(&a, &b), "compressed bundle decodes to the plain bundle's table");
    CHECK(co_errors_total(&b) == 0, "no skipped units in a clean CCOB");
    CHECK(co_table_sane(&b, c->data, c->len), "CCOB table invariants");
    CHECK(b.nobjects && b.objects[0].owned && b.objects[0].compressed &&
              b.objects[0].image_offset == 0,
          "decompressed objects are table-owned and point back at the CCOB");
    CHECK(hv_co_image_size(c->data, c->len) == c->len, "CCOB extent from its header");
    hv_co_table_free(&a);
    hv_co_table_free(&b);
}

static void ccob_v1(void)
{
    const struct fixture *v2 = fx("hip.ccob2"), *p = fx("hip.fatbin");
    size_t len;
    unsigned char *v1 = co_ccob_v1_from_v2(v2->data, v2->len, &len);
    struct hv_co_table a, b;
    co_parse_fresh(&a, p->data, p->len, NULL);
    co_parse_fresh(&b, v1, len, NULL);
    CHECK(tables_equal(&a, &b) && co_errors_total(&b) == 0, "CCOB v1 decodes like v2");
    CHECK(hv_co_image_size(v1, len) == len, "CCOB v1 extent from the zstd frame");
    /* v1 followed by more data: the frame, not the buffer, bounds it. */
    unsigned char *two = malloc(2 * len + 5);
    memcpy(two, v1, len);
    memset(two + len, 0, 5);
    memcpy(two + len + 5, v1, len);
    CHECK(hv_co_image_size(two, 2 * len + 5) == len, "v1 extent stops at the frame end");
    hv_co_table_free(&b);
    int n = co_parse_fresh(&b, two, 2 * len + 5, NULL);
    CHECK(n == 14 && b.nduplicates == 2 && co_errors_total(&b) == 0,
          "two v1 CCOBs back to back: second one's objects are duplicates");
    hv_co_table_free(&a);
    hv_co_table_free(&b);
    free(two);
    free(v1);
}

static void bare_elf(void)
{
    const struct fixture *f = fx("cl-gfx950.co");
    struct hv_co_table t;
    int n = co_parse_fresh(&t, f->data, f->len, NULL);
    CHECK(n == 3 && t.nobjects == 1 && co_errors_total(&t) == 0, "OpenCL gfx950 code object");
    CHECK(hv_co_image_size(f->data, f->len) == f->len, "ELF extent from its tables");
    if (t.nobjects != 1) {
        hv_co_table_free(&t);
        return;
    }
    const struct hv_co_object *o = &t.objects[0];
    CHECK(o->elf == f->data && o->len == f->len && !o->owned && o->bundle_id[0] == 0,
          "bare ELF object is the image itself");
    CHECK(strcmp(o->target, "amdgcn-amd-amdhsa--gfx950") == 0 && strcmp(o->proc, "gfx950") == 0,
          "target from amdhsa.target, proc from e_flags");
    const struct hv_co_kernel *k = hv_co_find(&t, "copy_acc");
    CHECK(k && k->nargs > 4, "copy_acc with hidden arguments");
    if (k && k->nargs > 4) {
        CHECK(strcmp(k->args[0].name, "src") == 0 && strcmp(k->args[3].name, "n") == 0,
              "argument names (-cl-kernel-arg-info)");
        CHECK(k->args[0].actual_access == HV_CO_ACC_READ_ONLY && k->args[0].is_const,
              "src: actual_access read_only, const");
        CHECK(k->args[1].actual_access == HV_CO_ACC_WRITE_ONLY, "dst: actual_access write_only");
        CHECK(k->args[2].actual_access == HV_CO_ACC_UNKNOWN, "acc (read and written): absent");
        CHECK(k->args[0].is_restrict, "restrict recorded");
        CHECK(k->args[4].value_kind == HV_CO_VK_HIDDEN &&
                  strcmp(k->args[4].value_kind_raw, "hidden_block_count_x") == 0,
              "hidden_* folds into HIDDEN, raw string kept");
    }
    k = hv_co_find(&t, "mixed");
    CHECK(k && k->nargs == 5, "mixed(5 args)");
    if (k && k->nargs == 5) {
        CHECK(k->args[1].address_space == HV_CO_AS_CONSTANT, "__constant pointer");
        CHECK(k->args[2].value_kind == HV_CO_VK_DYNAMIC_SHARED_POINTER &&
                  k->args[2].address_space == HV_CO_AS_LOCAL,
              "__local pointer: dynamic_shared_pointer");
        CHECK(k->args[3].value_kind == HV_CO_VK_BY_VALUE && k->args[3].size == 16, "struct S");
        CHECK(k->args[4].is_volatile && k->args[4].is_const, "volatile const");
    }
    hv_co_table_free(&t);

    /* Trailing bytes past the ELF do not change its identity. */
    unsigned char *big = calloc(1, f->len + 100);
    memcpy(big, f->data, f->len);
    co_parse_fresh(&t, big, f->len + 100, NULL);
    CHECK(t.nobjects == 1 && t.objects[0].len == f->len &&
              t.objects[0].hash == hv_co_hash64(f->data, f->len) && co_errors_total(&t) == 0,
          "ELF with zero padding after it: same hash, padding skipped");
    hv_co_table_free(&t);
    free(big);
}

/* A code object without section headers (a loader may strip them): the
 * metadata note comes from the PT_NOTE segment, the extent from the
 * program headers alone, and there is no symbol table for descriptors. */
static void elf_without_sections(void)
{
    const struct fixture *f = fx("cl-gfx950.co");
    unsigned char *p = malloc(f->len);
    memcpy(p, f->data, f->len);
    memset(p + 40, 0, 8); /* e_shoff */
    memset(p + 60, 0, 4); /* e_shnum, e_shstrndx */
    size_t len = hv_co_image_size(p, f->len);
    struct hv_co_table a, b;
    co_parse_fresh(&a, f->data, f->len, NULL);
    int n = co_parse_fresh(&b, p, len, NULL);
    bool same = n == 3 && b.nkernels == a.nkernels && co_errors_total(&b) == 0;
    for (size_t k = 0; same && k < a.nkernels; k++)
        same = strcmp(a.kernels[k].name, b.kernels[k].name) == 0 &&
               a.kernels[k].nargs == b.kernels[k].nargs &&
               a.kernels[k].kernarg_size == b.kernels[k].kernarg_size;
    CHECK(len > 0 && len < f->len && same, "no section headers: kernels from the PT_NOTE segment");
    struct hv_co_kd kd;
    CHECK(b.nkernels && hv_co_read_kd(p, len, &b.kernels[0], &kd) == -ENOENT,
          "no section headers: no symbol table, no kernel descriptor");
    hv_co_table_free(&a);
    hv_co_table_free(&b);
    free(p);
}

static void concatenated_and_options(void)
{
    const struct fixture *a = fx("hip.fatbin"), *b = fx("hip.ccob3"), *c = fx("hip22.ccob");
    size_t pad = 4096, len = a->len + pad + b->len + pad + c->len;
    unsigned char *img = calloc(1, len + 16);
    memcpy(img, a->data, a->len);
    memcpy(img + a->len + pad, b->data, b->len);
    memcpy(img + a->len + pad + b->len + pad, c->data, c->len);
    struct hv_co_table t;
    int n = co_parse_fresh(&t, img, len, NULL);
    CHECK(n == 14 + 8 && t.nobjects == 4 && t.nduplicates == 2 && co_errors_total(&t) == 0,
          "bundle + CCOB of the same objects + another CCOB, zero padded");
    CHECK(t.nobjects == 4 && t.objects[2].image_offset == a->len + pad + b->len + pad,
          "objects of the third unit point at its offset");
    CHECK(co_table_sane(&t, img, len), "concatenated invariants");
    hv_co_table_free(&t);

    memcpy(img + len, "garbage!", 8);
    n = co_parse_fresh(&t, img, len + 8, NULL);
    CHECK(n == 22 && t.errors[HV_CO_ERR_UNKNOWN_FORMAT] == 1 &&
              t.issues[0].err == HV_CO_ERR_UNKNOWN_FORMAT && t.issues[0].offset == len,
          "trailing garbage counted once, with its offset, after valid units");
    hv_co_table_free(&t);

    struct hv_co_opts only = {.proc = "gfx942"};
    n = co_parse_fresh(&t, img, len, &only);
    CHECK(n == 4 && t.nobjects == 1 && t.nfiltered == 5 && strcmp(t.kernels[0].arch, "gfx942") == 0,
          "processor filter");
    hv_co_table_free(&t);

    struct hv_co_opts copy = {.flags = HV_CO_COPY_ELF};
    n = co_parse_fresh(&t, img, len, &copy);
    bool owned = n == 22;
    for (size_t o = 0; o < t.nobjects; o++)
        owned &= t.objects[o].owned && (t.objects[o].elf < img || t.objects[o].elf >= img + len);
    memset(img, 0, len); /* the caller frees its image ... */
    owned &= hv_co_find(&t, "_Z5saxpyfPKfPfi") &&
             t.objects[0].hash == hv_co_hash64(t.objects[0].elf, t.objects[0].len);
    CHECK(owned, "HV_CO_COPY_ELF: objects outlive the caller's image");
    hv_co_table_free(&t);
    free(img);

    struct hv_co_opts tiny = {.max_decompressed = 1000};
    n = co_parse_fresh(&t, b->data, b->len, &tiny);
    CHECK(n == 0 && t.errors[HV_CO_ERR_CCOB_BAD_SIZE] == 1, "decompression cap");
    hv_co_table_free(&t);

    CHECK(hv_co_parse(NULL, a->data, a->len, NULL) == -EINVAL, "NULL table");
    CHECK(co_parse_fresh(&t, NULL, 5, NULL) == -EINVAL, "NULL image");
    CHECK(co_parse_fresh(&t, NULL, 0, NULL) == 0 && co_errors_total(&t) == 0, "empty image");
    hv_co_table_free(&t);
    hv_co_table_free(&t); /* idempotent */
    CHECK(hv_co_image_size(a->data, 100) == 0, "bundle extent beyond max refused");
}

static void names(void)
{
    bool ok = strcmp(hv_co_err_name(HV_CO_OK), "HV_CO_OK") == 0;
    for (int e = 1; e < HV_CO_ERR__COUNT; e++)
        ok &= strncmp(hv_co_err_name(e), "HV_CO_ERR_", 10) == 0 && hv_co_err_text(e)[0];
    CHECK(ok, "every reason has a name and a description");
    CHECK(strcmp(hv_co_err_name(HV_CO_ERR_ELF_TRUNCATED), "HV_CO_ERR_ELF_TRUNCATED") == 0,
          "names follow the enum");
    CHECK(strcmp(hv_co_err_name(HV_CO_ERR__COUNT), "HV_CO_ERR_?") == 0, "out of range");
    CHECK(strcmp(hv_co_proc_from_eflags(0x4f), "gfx950") == 0 &&
              strcmp(hv_co_proc_from_eflags(0x40), "gfx940") == 0 &&
              hv_co_proc_from_eflags(0x27) == NULL,
          "e_flags processor table");
}

void t_parse(void)
{
    plain_bundle();
    compressed_equals_plain("hip.fatbin", "hip.ccob2");
    compressed_equals_plain("hip.fatbin", "hip.ccob3");
    compressed_equals_plain("hip22.fatbin", "hip22.ccob");
    ccob_v1();
    bare_elf();
    elf_without_sections();
    concatenated_and_options();
    names();
}
