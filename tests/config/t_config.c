/*
 * Unit tests of the HIPVIS_* table (src/common/envtab.c) and the tracer's
 * parser over it (src/tracer/core/config.c), without a traced program, so
 * they run sanitized too:
 *   - every entry is whole (name, help, a default its own parser accepts);
 *   - the enum settings' words are in the order of the enums they index;
 *   - an empty environment gives the table's defaults;
 *   - bad values name the variable and the accepted values, and switch
 *     tracing off, except a guard's, which switches guards off only;
 *   - unknown HIPVIS_* names are named with the nearest known one.
 *
 * usage: t_config
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../analyze/tcheck.h"
#include "common/envtab.h"
#include "hipvis/trace.h"   /* enum hv_guard_mode */
#include "tracer/core/config.h"

int t_pass, t_fail;

static const char *const *env_tab;

static const char *tab_getenv(const char *name)
{
    for (size_t i = 0; env_tab && env_tab[i]; i += 2)
        if (strcmp(env_tab[i], name) == 0)
            return env_tab[i + 1];
    return NULL;
}

static int load(const char *const *tab, struct hv_config *c, char *err, unsigned n)
{
    env_tab = tab;
    return hv_config_load(c, tab_getenv, err, n);
}

static long long dflt(enum hv_env_id id)
{
    long long v = -1;
    CHECK(hv_env_parse(id, NULL, &v) == 0);
    return v;
}

static void test_entries(void)
{
    for (int id = 0; id < HV_ENV__COUNT; id++) {
        const struct hv_env_var *e = &hv_env_table[id];
        CHECK(e->name && strncmp(e->name, "HIPVIS_", 7) == 0 && e->help && *e->help);
        CHECK(hv_env_find(e->name, strlen(e->name)) == e);
        for (int j = 0; j < id; j++)
            CHECK(strcmp(hv_env_table[j].name, e->name) != 0);
        long long v;
        switch (e->type) {
        case HV_ENVT_BOOL:
            CHECK(e->min == 0 && e->max == 1);
            /* fall through */
        case HV_ENVT_NUMBER:
        case HV_ENVT_ENUM:
            CHECK(e->dflt && hv_env_parse((enum hv_env_id)id, e->dflt, &v) == 0);
            CHECK(e->type != HV_ENVT_ENUM || (e->words && e->words[0] && e->words[1]));
            break;
        case HV_ENVT_PATH:
            CHECK(e->dflt && e->accepted);
            break;
        case HV_ENVT_LIST:
            CHECK(e->accepted != NULL);
            break;
        case HV_ENVT_HARNESS:
            CHECK(e->dflt == NULL);
            break;
        }
        char acc[400];
        hv_env_accepted((enum hv_env_id)id, acc, sizeof acc);
        CHECK(e->type == HV_ENVT_HARNESS || acc[0]);
    }
    /* The words index these enums (config.h, hipvis/trace.h). */
    const char *const *g = hv_env_table[HV_ENV_GUARD].words;
    CHECK(!strcmp(g[HV_GUARD_OFF], "off") && !strcmp(g[HV_GUARD_STREAM_SYNC], "stream-sync") &&
          !strcmp(g[HV_GUARD_EVENT_SYNC], "event-sync") &&
          !strcmp(g[HV_GUARD_EVENT_SYNC_NOFENCE], "event-sync-nofence") &&
          !strcmp(g[HV_GUARD_RELEASE_EVENT], "release-event") && !strcmp(g[HV_GUARD_COPY_SYNC], "copy-sync") &&
          g[HV_GUARD__MODES] == NULL);
    const char *const *p = hv_env_table[HV_ENV_PYFRAMES].words;
    CHECK(!strcmp(p[HV_PYFRAMES_OFF], "0") && !strcmp(p[HV_PYFRAMES_ALL], "1") &&
          !strcmp(p[HV_PYFRAMES_FIRST], "first"));
    const char *const *s = hv_env_table[HV_ENV_START].words;
    CHECK(!strcmp(s[HV_START_ALL], "all") && !strcmp(s[HV_START_PROFILER], "profiler") &&
          !strcmp(s[HV_START_SIGNAL], "signal"));
    const char *const *r = hv_env_table[HV_ENV_RECORD].words;
    CHECK(!strcmp(r[HV_RECORD_FULL], "full") && !strcmp(r[HV_RECORD_ARGS], "args"));
    /* Strict numbers: the one parser (common/number.h). */
    long long v = 7;
    CHECK(hv_env_parse(HV_ENV_RING_KB, " 64", &v) == -1 && hv_env_parse(HV_ENV_RING_KB, "+64", &v) == -1 &&
          hv_env_parse(HV_ENV_RING_KB, "48", &v) == -1 && v == 7);
    CHECK(hv_env_parse(HV_ENV_RING_KB, "64", &v) == 0 && v == 64);
    CHECK(hv_env_parse(HV_ENV_RING_KB, "", &v) == 0 && v == 4096);
    CHECK(hv_env_parse(HV_ENV_PROBE, "off", &v) == -1);   /* its own syntax, parsed by config.c */
    char acc[100];
    hv_env_accepted(HV_ENV_RING_KB, acc, sizeof acc);
    CHECK(!strcmp(acc, "an integer 16..1048576 that is a power of two"));
    hv_env_accepted(HV_ENV_GUARD_WHEN, acc, sizeof acc);
    CHECK(!strcmp(acc, "flagged or always"));
    hv_env_accepted(HV_ENV_GUARD, acc, 12);   /* truncated, still a string */
    CHECK(strlen(acc) == 11);
}

static void test_defaults(void)
{
    struct hv_config c;
    char err[2048];
    const char *const none[] = {NULL};
    CHECK(load(none, &c, err, sizeof err) == 0 && err[0] == '\0');
    CHECK(c.enabled == dflt(HV_ENV_ENABLE) && c.ring_bytes == (uint64_t)dflt(HV_ENV_RING_KB) * 1024 &&
          c.flush_ms == dflt(HV_ENV_FLUSH_MS) && c.zstd_level == dflt(HV_ENV_ZSTD_LEVEL) &&
          c.quiet == dflt(HV_ENV_QUIET) && c.writer_stats == dflt(HV_ENV_WRITER_STATS) &&
          c.sidecar == dflt(HV_ENV_SIDECAR) && c.codeobj_bytes == (uint64_t)dflt(HV_ENV_CODEOBJ_MB) << 20 &&
          c.payload_bytes == dflt(HV_ENV_PAYLOAD_BYTES) &&
          c.rewrite_check_bytes == dflt(HV_ENV_REWRITE_CHECK_KB) * 1024 &&
          c.rewrite_every == dflt(HV_ENV_REWRITE_EVERY) && c.rewrite_first == dflt(HV_ENV_REWRITE_FIRST) &&
          c.launch_every == dflt(HV_ENV_LAUNCH_EVERY) && c.launch_first == dflt(HV_ENV_LAUNCH_FIRST) &&
          c.stacks == dflt(HV_ENV_STACKS) && c.pyframes == dflt(HV_ENV_PYFRAMES) &&
          c.record_argv == dflt(HV_ENV_RECORD_ARGV) && c.start == dflt(HV_ENV_START) &&
          c.record == dflt(HV_ENV_RECORD) && c.guard == dflt(HV_ENV_GUARD) && c.guard_always == 0 &&
          c.names_checked == 0 && c.probe.mode == HV_PROBE_OFF && !c.floor_apis_set &&
          !strcmp(c.output, hv_env_table[HV_ENV_OUTPUT].dflt) &&
          !strcmp(c.sidecar_dir, hv_env_table[HV_ENV_SIDECAR_DIR].dflt));
    /* Today's values, so that moving them into the table changed none. */
    CHECK(c.enabled == 1 && c.ring_bytes == 4096u * 1024 && c.flush_ms == 50 && c.zstd_level == 3 &&
          c.codeobj_bytes == 128ull << 20 && c.payload_bytes == 0 && c.rewrite_check_bytes == 16384 &&
          c.rewrite_every == 256 && c.rewrite_first == 4096 && c.launch_every == 16 && c.launch_first == 4096 &&
          c.pyframes == HV_PYFRAMES_FIRST && c.record_argv == 1 && c.start == HV_START_ALL &&
          c.record == HV_RECORD_ARGS && c.guard == HV_GUARD_OFF && !strcmp(c.output, "hipvis.%p.zst") &&
          !strcmp(c.sidecar_dir, "/dev/shm"));
    const char *const guard[] = {"HIPVIS_GUARD", "copy-sync", "HIPVIS_GUARD_WHEN", "always", NULL};
    CHECK(load(guard, &c, err, sizeof err) == 0 && c.guard == HV_GUARD_COPY_SYNC && c.guard_always == 1 &&
          c.record == HV_RECORD_FULL);
    /* The time window (hipvis run --delay / --duration): off by default, and
     * like HIPVIS_START's windows it needs the full record at the call. */
    CHECK(load(none, &c, err, sizeof err) == 0 && c.start_delay_ms == 0 && c.duration_ms == 0 &&
          c.launch_time_ns == 0 && c.end_line == 1);
    const char *const win[] = {"HIPVIS_START_DELAY_MS", "2500", "HIPVIS_DURATION_MS", "1000",
                               "HIPVIS_LAUNCH_TIME_NS", "1700000000123456789", "HIPVIS_END_LINE", "0", NULL};
    CHECK(load(win, &c, err, sizeof err) == 0 && c.start_delay_ms == 2500 && c.duration_ms == 1000 &&
          c.launch_time_ns == 1700000000123456789ull && c.end_line == 0 && c.record == HV_RECORD_FULL);
    const char *const win_args[] = {"HIPVIS_DURATION_MS", "1000", "HIPVIS_RECORD", "args", NULL};
    CHECK(load(win_args, &c, err, sizeof err) == -1 && !c.enabled &&
          strstr(err, "HIPVIS_RECORD=args cannot be combined with HIPVIS_DURATION_MS"));
}

static void test_bad_values(void)
{
    struct hv_config c;
    char err[2048];
    static const char *const bad[][4] = {
        {"HIPVIS_FLUSH_MS", "0", "HIPVIS_FLUSH_MS=\"0\" is not accepted: expected an integer 1..100; tracing disabled"},
        {"HIPVIS_RING_KB", "48", "HIPVIS_RING_KB=\"48\" is not accepted: expected an integer 16..1048576 that is a "
                                 "power of two; tracing disabled"},
        {"HIPVIS_QUIET", "yes", "HIPVIS_QUIET=\"yes\" is not accepted: expected an integer 0..1; tracing disabled"},
        {"HIPVIS_START", "later", "HIPVIS_START=\"later\" is not accepted: expected all, profiler or signal"},
        {"HIPVIS_RECORD", "argz", "HIPVIS_RECORD=\"argz\" is not accepted: expected full or args"},
        {"HIPVIS_PYFRAMES", "all", "expected 0 (off), 1 (every site) or first (the first call on each target)"},
        {"HIPVIS_SIDECAR_DIR", "shm", "HIPVIS_SIDECAR_DIR=\"shm\" is not accepted: expected an absolute directory "
                                      "path shorter than 256 bytes"},
        {"HIPVIS_PROBE", "0x10:0", "expected off, auto, or up to 16 ADDR:LEN ranges separated by commas (LEN 1..4096)"},
        {"HIPVIS_NAMES_CHECKED", "2", "HIPVIS_NAMES_CHECKED=\"2\" is not accepted: expected an integer 0..1"},
        {"HIPVIS_START_DELAY_MS", "2.5", "HIPVIS_START_DELAY_MS=\"2.5\" is not accepted: expected an integer "
                                         "0..2147483647"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *tab[] = {bad[i][0], bad[i][1], NULL};
        int rc = load(tab, &c, err, sizeof err);
        CHECK(rc == -1 && !c.enabled && strstr(err, bad[i][2]) && strstr(err, "tracing disabled"));
        if (!strstr(err, bad[i][2]))
            fprintf(stderr, "  got: %s", err);
    }
    /* A guard's bad value disables guards only, in the guard's own words. */
    const char *const guard[] = {"HIPVIS_GUARD", "bogus", NULL};
    CHECK(load(guard, &c, err, sizeof err) == 0 && c.enabled && c.guard == HV_GUARD_OFF &&
          !strcmp(err, "hipvis: HIPVIS_GUARD=bogus: expected off, stream-sync, event-sync, event-sync-nofence, "
                       "release-event or copy-sync; guards disabled\n"));
    const char *const when[] = {"HIPVIS_GUARD_WHEN", "sometimes", NULL};
    CHECK(load(when, &c, err, sizeof err) == 0 && c.enabled && c.guard_always == 0 &&
          !strcmp(err, "hipvis: HIPVIS_GUARD_WHEN=sometimes: expected flagged or always; using flagged\n"));
    /* Two bad values: both named. */
    const char *const two[] = {"HIPVIS_FLUSH_MS", "x", "HIPVIS_ZSTD_LEVEL", "99", NULL};
    CHECK(load(two, &c, err, sizeof err) == -1 && strstr(err, "HIPVIS_FLUSH_MS") && strstr(err, "HIPVIS_ZSTD_LEVEL"));
}

static void test_unknown_names(void)
{
    char out[1024] = "";
    char *env[] = {"PATH=/bin", "HIPVIS_RING=8192", "HIPVIS_RING_KB=64", "HIPVIS_GAURD=copy-sync",
                   "HIPVIS_SOMETHING_ELSE_ENTIRELY=1", "HIPVIS_REQUIRE_CUDA=1", "HIPVIS_PAYLOAD=4096",
                   "hipvis_ring=1", NULL};
    CHECK(hv_env_unknown_names(env, out, sizeof out) == 4);
    CHECK(!strcmp(out, "hipvis: HIPVIS_RING is not a hipvis setting (did you mean HIPVIS_RING_KB?)\n"
                       "hipvis: HIPVIS_GAURD is not a hipvis setting (did you mean HIPVIS_GUARD?)\n"
                       "hipvis: HIPVIS_SOMETHING_ELSE_ENTIRELY is not a hipvis setting (hipvis run --help-env lists "
                       "them)\n"
                       "hipvis: HIPVIS_PAYLOAD is not a hipvis setting (did you mean HIPVIS_PAYLOAD_BYTES?)\n"));
    /* Appends; truncates, still a string. */
    char small[40] = "x";
    CHECK(hv_env_unknown_names(env, small, sizeof small) == 4 && strlen(small) == sizeof small - 1 &&
          small[0] == 'x');
    /* A name far longer than any: no suggestion, no overrun. */
    char longname[400] = "HIPVIS_";
    memset(longname + 7, 'A', 300);
    longname[307] = '\0';
    char *env2[] = {longname, NULL};
    out[0] = '\0';
    CHECK(hv_env_unknown_names(env2, out, sizeof out) == 1 && strstr(out, "hipvis run --help-env lists them"));
    /* The tracer's wrapper: nothing under HIPVIS_QUIET=1 or once hipvis run said it. */
    struct hv_config c;
    char err[256];
    const char *const quiet[] = {"HIPVIS_QUIET", "1", NULL};
    load(quiet, &c, err, sizeof err);
    out[0] = '\0';
    hv_config_check_names(&c, env, out, sizeof out);
    CHECK(out[0] == '\0');
    const char *const checked[] = {"HIPVIS_NAMES_CHECKED", "1", NULL};
    load(checked, &c, err, sizeof err);
    hv_config_check_names(&c, env, out, sizeof out);
    CHECK(out[0] == '\0');
    const char *const none[] = {NULL};
    load(none, &c, err, sizeof err);
    hv_config_check_names(&c, env, out, sizeof out);
    CHECK(strstr(out, "HIPVIS_RING is not a hipvis setting") != NULL);
}

int main(void)
{
    test_entries();
    test_defaults();
    test_bad_values();
    test_unknown_names();
    printf("config-units: %d passed, %d failed\n", t_pass, t_fail);
    return t_fail ? 1 : 0;
}
