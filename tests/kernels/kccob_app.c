/*
 * TEST-ONLY. Registers one fat binary, plain or compressed (kccob_fatbin.S),
 * the way clang's host code does — __hipRegisterFatBinary, then one
 * __hipRegisterFunction per kernel name given — and launches the first
 * kernel once, so its code object is stored in the trace. The two forms
 * must give the same kernel records and the same stored code object.
 *
 *   kccob_app plain|ccob KERNEL_NAME...
 */
#include <stdio.h>
#include <string.h>

#include "../runtime-double/hipdouble.h"

extern const unsigned char kccob_plain[], kccob_comp[];

struct fatbin_wrapper {
    unsigned magic, version;
    const void *binary, *unused;
};
static struct fatbin_wrapper wrapper __attribute__((section(".hipFatBinSegment"), aligned(8))) = {
    0x48495046u /* "HIPF" */, 1, NULL, NULL};

static char stubs[64]; /* host stubs: only their addresses matter */

int main(int argc, char **argv)
{
    if (argc < 3 || argc - 2 > (int)sizeof stubs || (strcmp(argv[1], "plain") && strcmp(argv[1], "ccob"))) {
        fprintf(stderr, "usage: kccob_app plain|ccob KERNEL_NAME...\n");
        return 2;
    }
    wrapper.binary = strcmp(argv[1], "plain") ? kccob_comp : kccob_plain;
    void **mods = __hipRegisterFatBinary(&wrapper);
    for (int i = 2; i < argc; i++)
        __hipRegisterFunction(mods, &stubs[i - 2], argv[i], argv[i], (unsigned)-1, NULL, NULL, NULL, NULL, NULL);
    /* Every argument slot points at zeros: enough for any layout. */
    static char zeros[64][64];
    void *params[64];
    for (int i = 0; i < 64; i++)
        params[i] = zeros[i];
    dim3 one = {1, 1, 1};
    printf("launch %d\n", (int)hipLaunchKernel(&stubs[0], one, one, params, 0, NULL));
    printf("sync %d\n", (int)hipDeviceSynchronize());
    __hipUnregisterFatBinary(mods);
    return 0;
}
