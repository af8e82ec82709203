/* Minimal test harness: CHECK counts, a failing check prints where. */
#ifndef HV_TESTS_ANALYZE_TCHECK_H
#define HV_TESTS_ANALYZE_TCHECK_H

#include <stdio.h>

extern int t_pass, t_fail;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            t_pass++;                                                                \
        } else {                                                                     \
            t_fail++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);          \
        }                                                                            \
    } while (0)

#define CHECK_EQ_U(a, b)                                                             \
    do {                                                                             \
        unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b); \
        if (va_ == vb_) {                                                            \
            t_pass++;                                                                \
        } else {                                                                     \
            t_fail++;                                                                \
            fprintf(stderr, "FAIL %s:%d: %s == %s (%llu != %llu)\n", __FILE__, __LINE__, #a, #b, va_, vb_); \
        }                                                                            \
    } while (0)

/* Each test file defines one or more `void test_xxx(void)` listed in test_main.c. */
#endif
