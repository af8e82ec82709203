/* tests/format runner: `test_format [path/to/hipvis-dump]`. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

int hv_t_failed_now;
const char *hv_t_dump_path = "build/hipvis-dump";
static int passed, failed;
static const char *current;

void hv_t_fail(const char *file, int line, const char *cond, const char *fmt, ...)
{
    fprintf(stderr, "FAIL %s: %s:%d: %s", current, file, line, cond);
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        fputs(" -- ", stderr);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
    }
    fputc('\n', stderr);
    hv_t_failed_now = 1;
}

void hv_t_run(const char *name, void (*fn)(void))
{
    current = name;
    hv_t_failed_now = 0;
    fn();
    if (hv_t_failed_now)
        failed++;
    else
        passed++;
    printf("%s %s\n", hv_t_failed_now ? "FAIL" : "ok  ", name);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        hv_t_dump_path = argv[1];
    hv_tests_api();
    hv_tests_roundtrip();
    hv_tests_writer();
    hv_tests_damage();
    hv_tests_tools();
    hv_tests_merge();
    hv_tests_json();
    printf("format: %d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
