/*
 * Cuts record streams for the engine fuzzer out of real traces: every
 * record the reader delivers, in its order, laid end to end; a new seed
 * every N records (a seed must stay small for the fuzzer to mutate it
 * usefully), each starting at a call.
 *   engine_seeds OUTDIR RECORDS_PER_SEED TRACE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hipvis/reader.h"

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: engine_seeds OUTDIR RECORDS_PER_SEED TRACE...\n");
        return 2;
    }
    long per = atol(argv[2]);
    int nseeds = 0;
    for (int i = 3; i < argc; i++) {
        struct hv_reader *r;
        struct hv_read_error err;
        if (hv_reader_open(argv[i], &r, &err) != 0) {
            fprintf(stderr, "engine_seeds: %s: %s\n", argv[i], err.what);
            return 1;
        }
        const struct hv_rec_header *rec;
        FILE *f = NULL;
        long in_seed = 0;
        while (hv_reader_next(r, &rec) == 1) {
            if (!f || (in_seed >= per && rec->type == HV_REC_CALL)) {
                if (f)
                    fclose(f);
                char path[4096];
                snprintf(path, sizeof path, "%s/seed-%d-%d", argv[1], i - 2, nseeds++);
                if (!(f = fopen(path, "wb"))) {
                    perror(path);
                    return 1;
                }
                in_seed = 0;
            }
            fwrite(rec, rec->size, 1, f);
            in_seed++;
        }
        if (f)
            fclose(f);
        hv_reader_close(r);
    }
    printf("engine_seeds: %d seeds\n", nseeds);
    return 0;
}
