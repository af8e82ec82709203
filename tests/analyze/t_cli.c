/*
 * End to end through files: synthetic traces written with the trace writer,
 * read back by build/hipvis-analyze, checked by exit status and output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "scenarios.h"
#include "tcheck.h"

extern const char *t_tool, *t_tmp;

static char out_text[1 << 16], err_text[1 << 14];

static void slurp(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, len - 1, f) : 0;
    buf[n] = 0;
    if (f)
        fclose(f);
}

/* Runs the analyzer with `args`; returns its exit status. */
static int run(const char *args)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "'%s' %s > '%s/out.txt' 2> '%s/err.txt'", t_tool, args, t_tmp, t_tmp);
    int st = system(cmd);
    char p[1024];
    snprintf(p, sizeof p, "%s/out.txt", t_tmp);
    slurp(p, out_text, sizeof out_text);
    snprintf(p, sizeof p, "%s/err.txt", t_tmp);
    slurp(p, err_text, sizeof err_text);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static const char *path(const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", t_tmp, name);
    return buf[k];
}

/* Writes a trace: setup + body(variant). */
static int write_trace(const char *name, uint64_t pid, void (*body)(struct tb *, int), int variant, int footer)
{
    struct tb t;
    unlink(path(name));
    if (tb_file_open(&t, path(name), pid, NULL) != 0)
        return -1;
    sc_setup(&t);
    tb_flush(&t);
    body(&t, variant);
    return tb_file_close(&t, footer);
}

static void decode(struct tb *t, int sync) { sc_decode_loop(t, TB_LEGACY, 50, sync); }
static void side(struct tb *t, int wait) { sc_side_stream_copy(t, 10, wait); }
static void stale(struct tb *t, int reinst) { sc_stale_capture(t, reinst); }
static void all_failed(struct tb *t, int n)
{
    for (int i = 0; i < n; i++)
        tb_failed_copy(t, SC_MAIN, SC_POOL, 64);
}

static int python_ok(void)
{
    return system("python3 -c 'import json' >/dev/null 2>&1") == 0;
}

static int json_valid(const char *file)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "python3 -c 'import json,sys; json.load(open(sys.argv[1]))' '%s'", file);
    return system(cmd) == 0;
}

void test_cli_scenarios(void)
{
    char args[1200];
    CHECK(write_trace("decode.zst", 11, decode, 0, 1) == 0);
    CHECK(write_trace("decode-sync.zst", 12, decode, 1, 1) == 0);
    CHECK(write_trace("side.zst", 13, side, 0, 1) == 0);
    CHECK(write_trace("side-wait.zst", 14, side, 1, 1) == 0);
    CHECK(write_trace("stale.zst", 15, stale, 0, 1) == 0);

    /* decode loop -> same-epoch-write on exactly the copied buffer, grouped. */
    snprintf(args, sizeof args, "'%s'", path("decode.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "[warning] same-epoch-write") != NULL);
    CHECK(strstr(out_text, "x50 ") != NULL);
    CHECK(strstr(out_text, "buffer   0x7f0000001000 .. 0x7f0000001804 (2052 B)") != NULL);
    CHECK(strstr(out_text, SC_KERNEL) != NULL);
    CHECK(strstr(out_text, "blit kernel") != NULL);
    CHECK(strstr(out_text, "why ") != NULL);

    snprintf(args, sizeof args, "'%s'", path("decode-sync.zst"));
    CHECK_EQ_U(run(args), 0);
    CHECK(strstr(out_text, "same-epoch-write") == NULL);

    snprintf(args, sizeof args, "'%s'", path("side.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "[error] unordered-write") != NULL);

    snprintf(args, sizeof args, "'%s'", path("side-wait.zst"));
    CHECK_EQ_U(run(args), 0);

    snprintf(args, sizeof args, "'%s'", path("stale.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "stale-capture-pointer") != NULL);
    CHECK(strstr(out_text, "re-allocated") != NULL);

    /* --fail-on: warnings only -> 0 with error threshold; none -> always 0. */
    snprintf(args, sizeof args, "--fail-on error '%s'", path("decode.zst"));
    CHECK_EQ_U(run(args), 0);
    snprintf(args, sizeof args, "--fail-on none '%s'", path("stale.zst"));
    CHECK_EQ_U(run(args), 0);
    snprintf(args, sizeof args, "--disable same-epoch-write '%s'", path("decode.zst"));
    CHECK_EQ_U(run(args), 0);

    /* Several traces: reported per process. */
    snprintf(args, sizeof args, "'%s' '%s'", path("decode.zst"), path("side.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "== pid 11") && strstr(out_text, "== pid 13"));
    CHECK(strstr(out_text, "pid 13  x10") != NULL);

    /* --graphs */
    snprintf(args, sizeof args, "--graphs '%s'", path("decode.zst"));
    run(args);
    CHECK(strstr(out_text, "graph exec 0x5500") && strstr(out_text, "2 nodes, 1 edges, 1 roots, longest path 2"));

    /* --all lists occurrences. */
    snprintf(args, sizeof args, "--all '%s'", path("decode.zst"));
    run(args);
    CHECK(strstr(out_text, "each     (earlier seq -> later seq)") != NULL);
}

void test_cli_json_perfetto(void)
{
    char args[1200];
    snprintf(args, sizeof args, "--json '%s' '%s'", path("decode.zst"), path("stale.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "\"findings\":[") != NULL);
    CHECK(strstr(out_text, "\"rule\":\"same-epoch-write\",\"severity\":\"warning\",\"pid\":11") != NULL);
    CHECK(strstr(out_text, "\"kernel\":\"" SC_KERNEL "\"") != NULL);
    CHECK(strstr(out_text, "\"truncated\":null") != NULL);
    if (python_ok()) {
        CHECK(json_valid(path("out.txt")));
        snprintf(args, sizeof args, "--perfetto '%s' '%s' '%s'", path("pf.json"), path("decode.zst"),
                 path("side.zst"));
        CHECK_EQ_U(run(args), 1);
        CHECK(json_valid(path("pf.json")));
        char buf[256];
        slurp(path("pf.json"), buf, sizeof buf);
        CHECK(strncmp(buf, "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", 39) == 0);
    }
}

static int copy_prefix(const char *from, const char *to, long cut)
{
    FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
    if (!a || !b)
        return -1;
    fseek(a, 0, SEEK_END);
    long n = ftell(a) - cut;
    fseek(a, 0, SEEK_SET);
    for (long i = 0; i < n; i++)
        fputc(fgetc(a), b);
    fclose(a);
    fclose(b);
    return 0;
}

void test_cli_bad_input(void)
{
    char args[1200];
    /* A trace whose process died mid-write: no footer, last frame cut. */
    CHECK(write_trace("side-nofooter.zst", 16, side, 1, 0) == 0);
    CHECK(copy_prefix(path("side-nofooter.zst"), path("cut.zst"), 7) == 0);
    snprintf(args, sizeof args, "'%s'", path("cut.zst"));
    int rc = run(args);
    /* Clean by findings, but never exit 0 silently: trace-truncated is a warning. */
    CHECK_EQ_U(rc, 1);
    CHECK(strstr(out_text, "trace-truncated") != NULL);
    CHECK(strstr(out_text, "analyzed the 10 records before it") != NULL);  /* the setup frame */
    CHECK(strstr(err_text, "incomplete") != NULL);
    snprintf(args, sizeof args, "--fail-on error --json '%s'", path("cut.zst"));
    CHECK_EQ_U(run(args), 0);
    CHECK(strstr(out_text, "\"truncated\":{\"status\":") != NULL);
    CHECK(strstr(err_text, "warning") != NULL);

    /* Not a trace. */
    FILE *f = fopen(path("foreign.zst"), "w");
    if (f) {
        fputs("this is not a hipvis trace, just text\n", f);
        fclose(f);
    }
    snprintf(args, sizeof args, "'%s'", path("foreign.zst"));
    CHECK_EQ_U(run(args), 2);
    CHECK(strstr(err_text, "at byte") != NULL);
    snprintf(args, sizeof args, "'%s'", path("does-not-exist.zst"));
    CHECK_EQ_U(run(args), 2);

    /* Every copy failed and nothing ran on the device (wrong library path, no
     * device): never "0 findings, exit 0", whatever --fail-on says. */
    CHECK(write_trace("failed.zst", 17, all_failed, 5, 1) == 0);
    snprintf(args, sizeof args, "--fail-on=none '%s'", path("failed.zst"));
    CHECK_EQ_U(run(args), 2);
    CHECK(strstr(out_text, "UNUSABLE RUN") != NULL);
    CHECK(strstr(out_text, "WARNING: 5 of 10 runtime calls failed") != NULL);
    CHECK(strstr(out_text, "5 copies/memsets never happened") != NULL);
    CHECK(strstr(err_text, "unusable run") != NULL);
    snprintf(args, sizeof args, "--json '%s'", path("failed.zst"));
    CHECK_EQ_U(run(args), 2);
    CHECK(strstr(out_text, "\"unusable\":true") != NULL);
    CHECK(strstr(out_text, "\"status\":\"unusable\"") != NULL);
    /* Next to a trace that did work (another rank): a loud line, not a failed run. */
    CHECK(write_trace("decode2.zst", 18, decode, 0, 1) == 0);
    snprintf(args, sizeof args, "--fail-on=none '%s' '%s'", path("decode2.zst"), path("failed.zst"));
    CHECK_EQ_U(run(args), 0);
    CHECK(strstr(out_text, "WARNING: 5 of 10 runtime calls failed") != NULL);
    CHECK(strstr(out_text, "UNUSABLE") == NULL);

    /* One bug in two ranks (processes): one block, the counts per rank inside. */
    snprintf(args, sizeof args, "'%s' '%s'", path("decode.zst"), path("decode2.zst"));
    CHECK_EQ_U(run(args), 1);
    {
        const char *p = strstr(out_text, "[warning] same-epoch-write");
        CHECK(p && !strstr(p + 1, "[warning] same-epoch-write"));
        CHECK(strstr(out_text, "x100 of 100 replays in 2 graph execs of 2 processes") != NULL);
        CHECK(strstr(out_text, "seen in  pid 11  x50") && strstr(out_text, "pid 18  x50"));
        CHECK(strstr(out_text, "next:    hipvis-analyze --diagnose ") != NULL);
        CHECK(strstr(out_text, "HIPVIS_GUARD=event-sync") != NULL);
        CHECK(strstr(out_text, "verdict: 1 bug (2 finding groups)") != NULL);
    }
    snprintf(args, sizeof args, "--json '%s' '%s'", path("decode.zst"), path("decode2.zst"));
    CHECK_EQ_U(run(args), 1);
    CHECK(strstr(out_text, "\"bugs\":[{\"rule\":\"same-epoch-write\",\"severity\":\"warning\",\"count\":100,"
                           "\"processes\":2,\"execs\":2,\"groups\":[0,1]") != NULL);
    CHECK(strstr(out_text, "\"guard\":\"event-sync\"") != NULL);

    /* Bad options. */
    CHECK_EQ_U(run("--fail-on sometimes x.zst"), 2);
    CHECK_EQ_U(run("--bogus x.zst"), 2);
    CHECK_EQ_U(run(""), 2);
    CHECK_EQ_U(run("--disable no-such-rule x.zst"), 2);
    CHECK_EQ_U(run("--diagnose x.zst"), 2);
    CHECK_EQ_U(run("--help"), 0);
}
