/* t_wrapper.c - the path the preload library takes: a real hipcc-built
 * shared object is dlopen'ed, its constructor calls __hipRegisterFatBinary
 * with the wrapper struct, and we (standing in for the HIP runtime, like the
 * preload library does) decode it with nothing but the wrapper pointer.
 * __hipRegisterFunction then names each kernel: all must be in the table. */
#include "check.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

static struct hv_co_table reg;
static int wrapper_rc = 1, registered_fatbins, registered_functions, found_functions;
static size_t image_len;
static void *modules_token = &modules_token;

EXPORT void **__hipRegisterFatBinary(const void *wrapper)
{
    const void *image;
    size_t len;
    registered_fatbins++;
    wrapper_rc = hv_co_fatbin_image(wrapper, 0, &image, &len);
    if (wrapper_rc == 0) {
        image_len = len;
        hv_co_parse(&reg, image, len, NULL);
    }
    return &modules_token;
}

EXPORT void __hipRegisterFunction(void **modules, const void *host, char *device_fn,
                                  const char *device_name, unsigned thread_limit, void *tid,
                                  void *bid, void *block, void *grid, int *wsize)
{
    (void)modules, (void)host, (void)device_fn, (void)thread_limit, (void)tid, (void)bid;
    (void)block, (void)grid, (void)wsize;
    registered_functions++;
    found_functions += hv_co_find(&reg, device_name) != NULL;
}

EXPORT void __hipUnregisterFatBinary(void **modules) { (void)modules; }
EXPORT int __hipPopCallConfiguration(void *a, void *b, void *c, void *d)
{
    (void)a, (void)b, (void)c, (void)d;
    return 0;
}
EXPORT int hipLaunchKernel(const void *f, void *a, void *b, void **c, size_t d, void *e)
{
    (void)f, (void)a, (void)b, (void)c, (void)d, (void)e;
    return 0;
}

void t_wrapper(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/libkernels.so", dir);
    hv_co_table_init(&reg);
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    CHECK(h != NULL, "dlopen hipcc-built shared object");
    if (!h) {
        fprintf(stderr, "  %s\n", dlerror());
        return;
    }
    CHECK(registered_fatbins == 1 && wrapper_rc == 0, "wrapper -> bounded image");
    size_t want = hv_co_image_size(fx("hip.fatbin")->data, fx("hip.fatbin")->len);
    CHECK(image_len == want && want > 0, "image length from the bundle header alone");
    CHECK(reg.nkernels == 14 && co_errors_total(&reg) == 0, "registered fat binary decodes");
    CHECK(registered_functions == 7 && found_functions == 7,
          "every __hipRegisterFunction name is in the table");

    struct hv_co_fatbin_wrapper bad = {.magic = 0x12345678, .binary = fx("hip.fatbin")->data};
    const void *img;
    size_t len;
    CHECK(hv_co_fatbin_image(&bad, 0, &img, &len) == -EPROTO, "wrong wrapper magic");
    bad.magic = HV_CO_FATBIN_MAGIC;
    CHECK(hv_co_fatbin_image(&bad, 0, &img, &len) == -ERANGE,
          "heap bundle with no bound: refused rather than read blindly");
    CHECK(hv_co_fatbin_image(&bad, fx("hip.fatbin")->len, &img, &len) == 0 && len == want,
          "heap bundle with an explicit bound");
    CHECK(hv_co_fatbin_image(NULL, 0, &img, &len) == -EINVAL, "NULL wrapper");
    static const char in_rodata[] = "mapped";
    CHECK(hv_co_mapped_extent(in_rodata) > 0 && hv_co_mapped_extent(&reg) == 0 &&
              hv_co_mapped_extent(NULL) == 0,
          "mapped extent: file-backed data yes, .bss and NULL no");
    dlclose(h);
    hv_co_table_free(&reg);
}
