/*
 * Minimal test harness for tests/format: a test is a void function; CHECK
 * fails it (and returns from the current function), RUN counts it. The
 * closing line is "format: N passed, M failed".
 */
#ifndef HV_TESTS_FORMAT_HARNESS_H
#define HV_TESTS_FORMAT_HARNESS_H

#include <stdio.h>

extern int hv_t_failed_now;   /* the running test has failed */

void hv_t_fail(const char *file, int line, const char *cond, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void hv_t_run(const char *name, void (*fn)(void));

#define CHECK(cond)                                                   \
    do {                                                              \
        if (!(cond)) {                                                \
            hv_t_fail(__FILE__, __LINE__, #cond, NULL);               \
            return;                                                   \
        }                                                             \
    } while (0)

/* CHECK with a printf-style explanation of the values involved. */
#define CHECKF(cond, ...)                                             \
    do {                                                              \
        if (!(cond)) {                                                \
            hv_t_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);        \
            return;                                                   \
        }                                                             \
    } while (0)

#define RUN(fn) hv_t_run(#fn, fn)

/* Each test file registers its tests through one of these. */
void hv_tests_api(void);
void hv_tests_roundtrip(void);
void hv_tests_damage(void);
void hv_tests_writer(void);
void hv_tests_tools(void);
void hv_tests_merge(void);
void hv_tests_json(void);

extern const char *hv_t_dump_path;   /* build/hipvis-dump, from argv */

#endif
