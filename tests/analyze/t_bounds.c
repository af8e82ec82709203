/*
 * Table indexes and lengths taken from a trace stay inside their tables
 * (issue 18 item 6): an api id beyond the api table on a launch with kernel
 * arguments, and the inputs the engine fuzzer once crashed on (a payload
 * longer than its record, a graph node index that sized the placement
 * tables). The sanitizer tree (make check-san) turns any out-of-bounds read
 * or oversized allocation into a failure.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/feed_engine.h"
#include "scenarios.h"
#include "tcheck.h"

static void put(uint8_t *buf, size_t *off, const void *rec, size_t size)
{
    memcpy(buf + *off, rec, size);
    *off += size;
}

void test_bounds_api_id(void)
{
    /* A successful launch whose api id is 65535, then its kernel args. */
    _Alignas(8) uint8_t buf[1024];
    size_t off = 0;
    struct hv_call c;
    memset(&c, 0, sizeof c);
    c.h.type = HV_REC_CALL;
    c.h.size = sizeof c;
    c.api = 65535;
    c.stream = 0x1234;
    put(buf, &off, &c, sizeof c);
    struct {
        struct hv_kargs k;
        struct hv_karg a[1];
    } k;
    memset(&k, 0, sizeof k);
    k.k.h.type = HV_REC_KARGS;
    k.k.h.size = sizeof k;
    k.k.count = 1;
    k.a[0].value = 0x7f0000001000ull;
    k.a[0].access = HV_ACCESS_WRITE;
    put(buf, &off, &k, sizeof k);
    CHECK_EQ_U(fe_feed(buf, off, NULL), 0);
}

void test_bounds_fuzz_regressions(void)
{
    const char *dir = "tests/analyze/fuzz/regress";
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d)
        return;
    int n = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f)
            continue;
        static uint8_t data[1 << 20];
        size_t len = fread(data, 1, sizeof data, f);
        fclose(f);
        fe_feed(data, len, NULL);
        n++;
    }
    closedir(d);
    CHECK(n >= 2);
}
