#include "tracer/core/config.h"

#include "common/number.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct int_knob {
    const char *name;
    long long min, max, dflt;
    int pow2;
};

static void append(char *err, unsigned errlen, const char *msg)
{
    size_t used = strlen(err);
    if (used + 1 < errlen)
        snprintf(err + used, errlen - used, "%s", msg);
}

/*
 * The one shape for every setting: an unset or empty variable means the
 * default (so `HIPVIS_X= prog` undoes an inherited setting); anything else
 * must be exactly what the setting accepts, or tracing stays off and stderr
 * says  hipvis: NAME="value" is not accepted: expected ...; tracing disabled
 */
static void reject(const char *name, const char *v, const char *expected, char *err, unsigned errlen)
{
    char msg[700];
    snprintf(msg, sizeof msg, "hipvis: %s=\"%.200s\" is not accepted: expected %s; tracing disabled\n", name, v,
             expected);
    append(err, errlen, msg);
}

/* Parses one integer knob (conf/number.h: digits only, no sign or blank);
 * on a bad value appends a message and returns -1. */
static int parse_int(const struct int_knob *k, const char *v, long long *out, char *err, unsigned errlen)
{
    long long x = 0;
    if (!v || !*v) {
        *out = k->dflt;
        return 0;
    }
    if (hv_num_range(v, 0, k->min, k->max, &x) != 0 || (k->pow2 && (x & (x - 1)) != 0)) {
        char what[160];
        snprintf(what, sizeof what, "an integer %lld..%lld%s", k->min, k->max, k->pow2 ? " that is a power of two" : "");
        reject(k->name, v, what, err, errlen);
        return -1;
    }
    *out = x;
    return 0;
}

/* Parses one setting that takes a word: unset or empty -> dflt, else the
 * index of v in words[n] (the setting's enum numbers its values in that
 * order); on anything else appends a message and returns -1. */
static int parse_word(const char *name, const char *v, const char *const *words, int n, int dflt,
                      const char *expected, int *out, char *err, unsigned errlen)
{
    *out = dflt;
    if (!v || !*v)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(v, words[i]) == 0) {
            *out = i;
            return 0;
        }
    reject(name, v, expected, err, errlen);
    return -1;
}

/*
 * HIPVIS_RECORD=args leaves a step call's derivations to the reader
 * (intercept.h HV_TRACE_CALL), so the settings that need them at the call
 * cannot hold with it: payloads and stacks are taken at the copy, the
 * probe's snapshots and guards follow in-process epochs, HIPVIS_START's
 * windows are applied at the call. Returns how many are set; `err` (NULL:
 * say nothing) gets one message naming each.
 */
static int args_conflicts(const struct hv_config *cfg, const char *(*getenv_fn)(const char *), char *err,
                          unsigned errlen)
{
    const char *guard = getenv_fn("HIPVIS_GUARD");
    struct {
        int on;
        const char *what;
    } c[] = {
        {cfg->payload_bytes != 0, "HIPVIS_PAYLOAD_BYTES"},
        {cfg->stacks, "HIPVIS_STACKS"},
        {cfg->probe.mode != HV_PROBE_OFF, "HIPVIS_PROBE"},
        {guard && *guard && strcmp(guard, "off") != 0, "HIPVIS_GUARD"},
        {cfg->start != HV_START_ALL, "HIPVIS_START"},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
        if (c[i].on) {
            n++;
            if (err) {
                char msg[300];
                snprintf(msg, sizeof msg,
                         "hipvis: HIPVIS_RECORD=args cannot be combined with %s (it needs the full record at "
                         "the call; HIPVIS_RECORD=full, or unset, takes it); tracing disabled\n",
                         c[i].what);
                append(err, errlen, msg);
            }
        }
    return n;
}

/* Parses one path setting into out[cap]: unset or empty -> dflt. */
static int parse_path(const char *name, const char *v, const char *dflt, int absolute, const char *what, char *out,
                      size_t cap, char *err, unsigned errlen)
{
    if (!v || !*v)
        v = dflt;
    if ((absolute && v[0] != '/') || strlen(v) >= cap) {
        char expected[200];
        snprintf(expected, sizeof expected, "%s shorter than %zu bytes", what, cap);
        reject(name, v, expected, err, errlen);
        memcpy(out, dflt, strlen(dflt) + 1);
        return -1;
    }
    memcpy(out, v, strlen(v) + 1);
    return 0;
}

/* HIPVIS_PROBE: "off" | "auto" | comma list of ADDR:LEN (decimal or 0x
 * hex; LEN 1..HV_PROBE_MAX_LEN). -1 after a message. */
static int parse_probe(const char *v, struct hv_probe_spec *out, char *err, unsigned errlen)
{
    char msg[320];
    memset(out, 0, sizeof *out);
    if (!v || !*v || strcmp(v, "off") == 0 || strcmp(v, "0") == 0)
        return 0;
    if (strcmp(v, "auto") == 0) {
        out->mode = HV_PROBE_AUTO;
        return 0;
    }
    const char *p = v;
    out->mode = HV_PROBE_RANGES;
    while (*p) {
        const char *end = p;
        uint64_t addr = 0, len = 0;
        int ok = hv_num_u64(p, HV_NUM_HEX | HV_NUM_SUFFIX, &addr, &end) == 0 && *end == ':' && addr != 0;
        if (ok) {
            p = end + 1;
            ok = hv_num_u64(p, HV_NUM_HEX | HV_NUM_SUFFIX, &len, &end) == 0 && (*end == ',' || *end == '\0') &&
                 len >= 1 && len <= HV_PROBE_MAX_LEN && out->n < sizeof out->r / sizeof out->r[0];
        }
        if (!ok) {
            snprintf(msg, sizeof msg, "off, auto, or up to 16 ADDR:LEN ranges separated by commas (LEN 1..%u)",
                     HV_PROBE_MAX_LEN);
            reject("HIPVIS_PROBE", v, msg, err, errlen);
            memset(out, 0, sizeof *out);
            return -1;
        }
        out->r[out->n].addr = addr;
        out->r[out->n].len = (uint32_t)len;
        out->n++;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* HIPVIS_FLOOR_APIS (config.h): names joined by '+' (added) and '-'
 * (removed), the first one added; "all" stands for every api id. Names are
 * checked against the api table, so a typo is an error in every build, not
 * a measurement that silently floors nothing. -1 after a message. */
static int parse_floor_apis(const char *v, uint8_t bits[HV_API__MAX / 8], int *set, char *err, unsigned errlen)
{
    memset(bits, 0, HV_API__MAX / 8);
    *set = v && *v;
    char name[128];
    for (const char *p = v; p && *p;) {
        int add = *p != '-';
        if (*p == '+' || *p == '-')
            p++;
        size_t n = strcspn(p, "+-");
        uint16_t id = 0;
        int all = n == 3 && strncmp(p, "all", 3) == 0;
        if (!all && n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            id = hv_api_by_name(name);
        }
        if (!all && id == 0) {
            reject("HIPVIS_FLOOR_APIS", v,
                   "API names joined by + (those calls record at the floor), or all-NAME-NAME (every call but "
                   "those), e.g. cudaGraphLaunch+cudaStreamSynchronize",
                   err, errlen);
            memset(bits, 0, HV_API__MAX / 8);
            return -1;
        }
        if (all)
            memset(bits, add ? 0xff : 0, HV_API__MAX / 8);
        else if (add)
            bits[id >> 3] |= (uint8_t)(1u << (id & 7));
        else
            bits[id >> 3] &= (uint8_t)~(1u << (id & 7));
        p += n;
    }
    return 0;
}

int hv_config_load(struct hv_config *cfg, const char *(*getenv_fn)(const char *), char *err, unsigned errlen)
{
    static const struct int_knob enable = {"HIPVIS_ENABLE", 0, 1, 1, 0};
    static const struct int_knob ring = {"HIPVIS_RING_KB", 16, 1048576, 4096, 1};
    static const struct int_knob flush = {"HIPVIS_FLUSH_MS", 1, 100, 50, 0};
    static const struct int_knob level = {"HIPVIS_ZSTD_LEVEL", 1, 19, 3, 0};
    static const struct int_knob quiet = {"HIPVIS_QUIET", 0, 1, 0, 0};
    static const struct int_knob writer_stats = {"HIPVIS_WRITER_STATS", 0, 1, 0, 0};
    static const struct int_knob sidecar = {"HIPVIS_SIDECAR", 0, 1, 0, 0};
    static const struct int_knob codeobj = {"HIPVIS_CODEOBJ_MB", 0, 65536, 128, 0};
    static const struct int_knob rewrite = {"HIPVIS_REWRITE_CHECK_KB", 0, 1024, 16, 0};
    static const struct int_knob rewrite_every = {"HIPVIS_REWRITE_EVERY", 1, 65536, 256, 0};
    static const struct int_knob rewrite_first = {"HIPVIS_REWRITE_FIRST", 0, 1048576, 4096, 0};
    static const struct int_knob launch_every = {"HIPVIS_LAUNCH_EVERY", 1, 65536, 16, 0};
    static const struct int_knob launch_first = {"HIPVIS_LAUNCH_FIRST", 0, 1048576, 4096, 0};
    static const struct int_knob stacks = {"HIPVIS_STACKS", 0, 1, 0, 0};
    static const struct int_knob record_argv = {"HIPVIS_RECORD_ARGV", 0, 1, 1, 0};
    long long v;
    int rc = 0;

    memset(cfg, 0, sizeof *cfg);
    if (errlen)
        err[0] = '\0';
    rc |= parse_int(&enable, getenv_fn(enable.name), &v, err, errlen);
    cfg->enabled = (int)v;
    rc |= parse_int(&ring, getenv_fn(ring.name), &v, err, errlen);
    cfg->ring_bytes = (uint64_t)v * 1024u;
    rc |= parse_int(&flush, getenv_fn(flush.name), &v, err, errlen);
    cfg->flush_ms = (uint32_t)v;
    rc |= parse_int(&level, getenv_fn(level.name), &v, err, errlen);
    cfg->zstd_level = (int)v;
    rc |= parse_int(&quiet, getenv_fn(quiet.name), &v, err, errlen);
    cfg->quiet = (int)v;
    rc |= parse_int(&writer_stats, getenv_fn(writer_stats.name), &v, err, errlen);
    cfg->writer_stats = (int)v;
    rc |= parse_int(&sidecar, getenv_fn(sidecar.name), &v, err, errlen);
    cfg->sidecar = (int)v;
    rc |= parse_int(&codeobj, getenv_fn(codeobj.name), &v, err, errlen);
    cfg->codeobj_bytes = (uint64_t)v << 20;
    /* Payloads default off: they can carry user data (token ids), and a
     * serving loop's per-step metadata copy would cost the writer a few KiB
     * per step (issue 12, docs/evidence.md "Defaults"). */
    struct int_knob payload = {"HIPVIS_PAYLOAD_BYTES", 0, 16384, 0, 0};
    rc |= parse_int(&payload, getenv_fn(payload.name), &v, err, errlen);
    cfg->payload_bytes = (uint32_t)v;
    rc |= parse_int(&rewrite, getenv_fn(rewrite.name), &v, err, errlen);
    cfg->rewrite_check_bytes = (uint32_t)v * 1024u;
    rc |= parse_int(&rewrite_every, getenv_fn(rewrite_every.name), &v, err, errlen);
    cfg->rewrite_every = (uint32_t)v;
    rc |= parse_int(&rewrite_first, getenv_fn(rewrite_first.name), &v, err, errlen);
    cfg->rewrite_first = (uint32_t)v;
    rc |= parse_int(&launch_every, getenv_fn(launch_every.name), &v, err, errlen);
    cfg->launch_every = (uint32_t)v;
    rc |= parse_int(&launch_first, getenv_fn(launch_first.name), &v, err, errlen);
    cfg->launch_first = (uint32_t)v;
    rc |= parse_int(&stacks, getenv_fn(stacks.name), &v, err, errlen);
    cfg->stacks = (int)v;
    /* Python frames at the first call on each target by default, in both
     * modes: the every-site key read is ~0.5 points of a GPU decode step,
     * which the ≤ 1% budget of issue 12 cannot carry (docs/validation.md,
     * twelfth and thirteenth sessions); a report marks the lines a call
     * inherited, and "1" records every site (docs/names.md). */
    static const char *const py_words[] = {"0", "1", "first"};   /* enum hv_pyframes_mode */
    rc |= parse_word("HIPVIS_PYFRAMES", getenv_fn("HIPVIS_PYFRAMES"), py_words, 3, HV_PYFRAMES_FIRST,
                     "0 (off), 1 (every site) or first (the first call on each target)", &cfg->pyframes, err, errlen);
    rc |= parse_int(&record_argv, getenv_fn(record_argv.name), &v, err, errlen);
    cfg->record_argv = (int)v;
    static const char *const start_words[] = {"all", "profiler", "signal"};   /* enum hv_start_mode */
    rc |= parse_word("HIPVIS_START", getenv_fn("HIPVIS_START"), start_words, 3, HV_START_ALL,
                     "all, profiler or signal", &cfg->start, err, errlen);
    rc |= parse_probe(getenv_fn("HIPVIS_PROBE"), &cfg->probe, err, errlen);
    /* Argument records unless asked otherwise, or unless a setting needs the
     * full record (then full, silently: that setting asked for it); asked
     * for explicitly, a setting that cannot hold with them is an error. */
    static const char *const record_words[] = {"full", "args"};   /* enum hv_record_mode */
    const char *record = getenv_fn("HIPVIS_RECORD");
    rc |= parse_word("HIPVIS_RECORD", record, record_words, 2, HV_RECORD_ARGS, "full or args", &cfg->record, err,
                     errlen);
    int asked = record && *record;
    if (cfg->record == HV_RECORD_ARGS && args_conflicts(cfg, getenv_fn, asked ? err : NULL, errlen)) {
        if (asked)
            rc = -1;
        else
            cfg->record = HV_RECORD_FULL;
    }
    rc |= parse_floor_apis(getenv_fn("HIPVIS_FLOOR_APIS"), cfg->floor_apis, &cfg->floor_apis_set, err, errlen);

    rc |= parse_path("HIPVIS_SIDECAR_DIR", getenv_fn("HIPVIS_SIDECAR_DIR"), "/dev/shm", 1, "an absolute directory path",
                     cfg->sidecar_dir, sizeof cfg->sidecar_dir, err, errlen);
    rc |= parse_path("HIPVIS_OUTPUT", getenv_fn("HIPVIS_OUTPUT"), "hipvis.%p.zst", 0,
                     "a file path template (%p pid, %h host)", cfg->output, sizeof cfg->output, err, errlen);
    if (rc != 0)
        cfg->enabled = 0;
    return rc ? -1 : 0;
}
