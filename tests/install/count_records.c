/* count_records TRACE: a program built only from the installed headers and
 * libhipvis-reader.a (tests/install): prints how many records the trace
 * holds, so the test can compare with hipvis-dump. */
#include <hipvis/reader.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    struct hv_reader *r;
    struct hv_read_error err;
    if (argc != 2 || hv_reader_open(argv[1], &r, &err) != 0) {
        fprintf(stderr, "count_records: cannot open\n");
        return 2;
    }
    const struct hv_rec_header *rec;
    unsigned long long n = 0;
    int rc;
    while ((rc = hv_reader_next(r, &rec)) == 1)
        n++;
    printf("%llu\n", n);
    hv_reader_close(r);
    return rc < 0 ? 1 : 0;
}
