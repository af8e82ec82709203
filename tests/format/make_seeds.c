/*
 * Writes the fuzz seed corpus: small real traces (every record type, one or
 * many chunks, with and without footer, one cut short; format 2 and 1) into DIR.
 *   make_seeds DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/trace_writer.h"
#include "gen.h"

/* cut: keep only that fraction (percent) of the file, 0 keeps all. */
static int write_seed(const char *dir, const char *name, size_t n, size_t chunk, int footer, int cut,
                      unsigned version)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    unlink(path);
    struct hv_file_header h;
    struct hv_trace_writer *w;
    hv_gen_header(&h, 1);
    if (hv_trace_writer_open_version(path, &h, 3, version, &w) < 0)
        return -1;
    hv_trace_writer_set_chunk_bytes(w, chunk);
    struct hv_reclist l = { 0 };
    hv_reclist_generate(&l, n, n);
    for (size_t i = 0; i < n; i++)
        hv_trace_writer_add(w, hv_reclist_get(&l, i));
    hv_reclist_free(&l);
    struct hv_file_footer f = { .calls = n, .records_made = n, .dropped = { 3, 0, 1, 0, 0 } };
    int rc = hv_trace_writer_close(w, footer ? &f : NULL);
    struct stat st;
    if (rc == 0 && cut > 0 && stat(path, &st) == 0)
        rc = truncate(path, st.st_size * cut / 100);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: make_seeds DIR\n");
        return 2;
    }
    int rc = 0;
    rc |= write_seed(argv[1], "empty-trace", 0, 4096, 0, 0, HV_FORMAT_VERSION);
    rc |= write_seed(argv[1], "one-chunk", 16, 4096, 1, 0, HV_FORMAT_VERSION);
    rc |= write_seed(argv[1], "many-chunks", 60, 256, 1, 0, HV_FORMAT_VERSION);
    rc |= write_seed(argv[1], "no-footer", 40, 1024, 0, 0, HV_FORMAT_VERSION);
    rc |= write_seed(argv[1], "cut", 40, 1024, 1, 66, HV_FORMAT_VERSION);
    /* Version 1 (plain chunks) stays readable: fuzz that reader path too. */
    rc |= write_seed(argv[1], "v1-many-chunks", 60, 256, 1, 0, 1);
    rc |= write_seed(argv[1], "v1-cut", 40, 1024, 1, 66, 1);
    return rc ? 1 : 0;
}
