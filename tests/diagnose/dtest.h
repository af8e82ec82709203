/* Shared by the --diagnose unit tests: the analyzer tests' synthetic trace
 * builder and CHECK harness, and where the tools and inputs are. */
#ifndef HV_TESTS_DIAGNOSE_DTEST_H
#define HV_TESTS_DIAGNOSE_DTEST_H

#include "../analyze/scenarios.h"
#include "../analyze/tcheck.h"

extern const char *d_tool;     /* hipvis-analyze */
extern const char *d_tmp;      /* scratch directory */
extern const char *d_scalar;   /* clang-22 gfx950 code object of tests/codeobj/scalar.cl */
extern const char *d_hsaco;    /* decode_kernels-gfx950.hsaco (tests/apps) */

#endif
