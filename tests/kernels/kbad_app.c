/*
 * TEST-ONLY. Hands the runtime bad code objects (mkbad.py): a fat binary
 * with an unknown target entry and a truncated code object, a fat-binary
 * wrapper with a wrong magic, a truncated ELF file to hipModuleLoad, and to
 * hipModuleLoadData a bundle holding a truncated ELF, a bundle with an
 * unknown entry besides a good one, and an ELF whose metadata is not
 * msgpack. Prints every result: the output must be the same with and
 * without the tracer, on the runtime double and on the real runtime.
 *
 *   kbad_app BAD_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime-double/hipdouble.h"

extern const unsigned char kbad_fatbin[];

struct fatbin_wrapper {
    unsigned magic, version;
    const void *binary, *unused;
};
static const struct fatbin_wrapper bad_entries __attribute__((section(".hipFatBinSegment"), aligned(8))) = {
    0x48495046u /* "HIPF" */, 1, kbad_fatbin, NULL};
static const struct fatbin_wrapper bad_magic __attribute__((aligned(8))) = {0x12345678u, 1, kbad_fatbin, NULL};

static void *read_file(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    void *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc(n)) &&
        fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    if (!buf) {
        fprintf(stderr, "kbad_app: cannot read %s\n", path);
        exit(2);
    }
    return buf;
}

static hipModule_t load_data(const char *dir, const char *name)
{
    hipModule_t m = NULL;
    void *image = read_file(dir, name);
    printf("hipModuleLoadData(%s) -> %d\n", name, (int)hipModuleLoadData(&m, image));
    free(image);
    return m;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: kbad_app BAD_DIR\n");
        return 2;
    }
    void **mods = __hipRegisterFatBinary(&bad_entries);
    printf("__hipRegisterFatBinary(fat_bad) -> %s\n", mods ? "handle" : "NULL");
    void **mods2 = __hipRegisterFatBinary(&bad_magic);
    printf("__hipRegisterFatBinary(bad magic) -> %s\n", mods2 ? "handle" : "NULL");

    char path[4096];
    hipModule_t m = NULL;
    snprintf(path, sizeof path, "%s/trunc.co", argv[1]);
    printf("hipModuleLoad(trunc.co) -> %d\n", (int)hipModuleLoad(&m, path));
    load_data(argv[1], "trunc.bundle");
    hipModule_t good = load_data(argv[1], "unknown.bundle");
    load_data(argv[1], "badmp.co");

    hipFunction_t f = NULL;
    printf("hipModuleGetFunction(producer) -> %d\n", (int)hipModuleGetFunction(&f, good, "producer"));
    if (mods)
        __hipUnregisterFatBinary(mods);
    printf("done\n");
    return 0;
}
