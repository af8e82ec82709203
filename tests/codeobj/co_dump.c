/* co_dump - print the canonical kernel table of each image given.
 *   co_dump FILE...   (bundle, CCOB or bare ELF; auto-detected)
 * Lines starting with '#' are diagnostics, ignored by meta_check.py. */
#include "util.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        size_t len;
        unsigned char *img = co_test_read_file(argv[i], &len);
        if (!img)
            return 2;
        struct hv_co_table t;
        hv_co_table_init(&t);
        int n = hv_co_parse(&t, img, len, NULL);
        printf("# %s: %d kernels, %zu objects\n", argv[i], n, t.nobjects);
        for (int e = 1; e < HV_CO_ERR__COUNT; e++)
            if (t.errors[e]) {
                printf("# %s x%u\n", hv_co_err_name(e), t.errors[e]);
                rc = 1;
            }
        for (size_t o = 0; o < t.nobjects; o++)
            co_test_dump_object(stdout, &t, o);
        hv_co_table_free(&t);
        free(img);
    }
    return rc;
}
