/*
 * --diagnose unit and file tests: placement, scalar exposure on real
 * clang-22 gfx950 code objects, verdicts through hipvis-analyze.
 * Usage: test_diagnose HIPVIS-ANALYZE TMPDIR SCALAR.co DECODE.hsaco
 * Prints "ok"/"FAIL" per test function and "unit: N passed, M failed".
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "dtest.h"

int t_pass, t_fail;
const char *d_tool, *d_tmp, *d_scalar, *d_hsaco;

#define TESTS(X)                                                                                       \
    X(test_placement_shapes) X(test_placement_dropped_wait) X(test_placement_collectives)             \
    X(test_parallel_queue_read_rule) X(test_scalar_exposure) X(test_confirm) X(test_verdicts) X(test_no_verdict)

#define DECL(fn) void fn(void);
TESTS(DECL)

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: %s HIPVIS-ANALYZE TMPDIR SCALAR.co DECODE.hsaco\n", argv[0]);
        return 2;
    }
    d_tool = argv[1];
    d_tmp = argv[2];
    d_scalar = argv[3];
    d_hsaco = argv[4];
    mkdir(d_tmp, 0755);
#define RUN(fn)                                                                  \
    do {                                                                         \
        int before = t_fail;                                                     \
        fn();                                                                    \
        printf("  %s  unit %s\n", t_fail == before ? "ok  " : "FAIL", #fn);      \
    } while (0);
    TESTS(RUN)
    printf("unit: %d passed, %d failed\n", t_pass, t_fail);
    return t_fail ? 1 : 0;
}
