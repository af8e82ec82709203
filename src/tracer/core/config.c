#include "tracer/core/config.h"

#include "common/envtab.h"
#include "common/number.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Parses entry `id` (a number, a 0|1 or a word) into *out: unset or empty
 * is its default. A bad value appends a message and returns -1, or, for a
 * setting whose bad value only turns itself off (its on_bad, e.g. guards),
 * says so in the message and takes the default with tracing going on. */
static int parse_value(enum hv_env_id id, const char *v, long long *out, char *err, unsigned errlen)
{
    const struct hv_env_var *e = &hv_env_table[id];
    if (hv_env_parse(id, v, out) == 0)
        return 0;
    char what[300];
    hv_env_accepted(id, what, sizeof what);
    hv_env_parse(id, NULL, out);
    if (!e->on_bad) {
        reject(e->name, v, what, err, errlen);
        return -1;
    }
    char msg[700];
    snprintf(msg, sizeof msg, "hipvis: %s=%.200s: expected %s; %s\n", e->name, v, what, e->on_bad);
    append(err, errlen, msg);
    return 0;
}

/*
 * HIPVIS_RECORD=args leaves a step call's derivations to the reader
 * (intercept.h HV_TRACE_CALL), so the settings that need them at the call
 * cannot hold with it: payloads and stacks are taken at the copy, the
 * probe's snapshots and guards follow in-process epochs, HIPVIS_START's
 * windows and the delay / duration window are applied at the call.
 * Returns how many are set; `err` (NULL: say nothing) gets one message
 * naming each.
 */
static int args_conflicts(const struct hv_config *cfg, const char *(*getenv_fn)(const char *), char *err,
                          unsigned errlen)
{
    /* Any guard asked for, even one not known (and so disabled), as before
     * the guard's value was parsed here. */
    const char *guard = getenv_fn(hv_env_table[HV_ENV_GUARD].name);
    struct {
        int on;
        enum hv_env_id what;
    } c[] = {
        {cfg->payload_bytes != 0, HV_ENV_PAYLOAD_BYTES},
        {cfg->stacks, HV_ENV_STACKS},
        {cfg->probe.mode != HV_PROBE_OFF, HV_ENV_PROBE},
        {guard && *guard && strcmp(guard, "off") != 0, HV_ENV_GUARD},
        {cfg->start != HV_START_ALL, HV_ENV_START},
        {cfg->start_delay_ms != 0, HV_ENV_START_DELAY_MS},
        {cfg->duration_ms != 0, HV_ENV_DURATION_MS},
        {cfg->hostcheck != HV_HOSTCHECK_OFF, HV_ENV_HOSTCHECK},   /* protects at the copy, releases at the sync */
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
                         hv_env_table[c[i].what].name);
                append(err, errlen, msg);
            }
        }
    return n;
}

/* Parses path entry `id` into out[cap]: unset or empty -> its default. */
static int parse_path(enum hv_env_id id, const char *v, char *out, size_t cap, char *err, unsigned errlen)
{
    const struct hv_env_var *e = &hv_env_table[id];
    if (!v || !*v)
        v = e->dflt;
    if (((e->flags & HV_ENV_ABSOLUTE) && v[0] != '/') || strlen(v) >= cap) {
        char expected[200];
        snprintf(expected, sizeof expected, "%s shorter than %zu bytes", e->accepted, cap);
        reject(e->name, v, expected, err, errlen);
        memcpy(out, e->dflt, strlen(e->dflt) + 1);
        return -1;
    }
    memcpy(out, v, strlen(v) + 1);
    return 0;
}

/* HIPVIS_PROBE: "off" | "auto" | comma list of ADDR:LEN (decimal or 0x
 * hex; LEN 1..HV_PROBE_MAX_LEN). -1 after a message. */
static int parse_probe(const char *v, struct hv_probe_spec *out, char *err, unsigned errlen)
{
    /* envtab.c's HIPVIS_PROBE text says these bounds. */
    _Static_assert(HV_PROBE_MAX_LEN == 4096 && sizeof out->r / sizeof out->r[0] == 16, "HIPVIS_PROBE's text");
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
            reject(hv_env_table[HV_ENV_PROBE].name, v, hv_env_table[HV_ENV_PROBE].accepted, err, errlen);
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
            reject(hv_env_table[HV_ENV_FLOOR_APIS].name, v, hv_env_table[HV_ENV_FLOOR_APIS].accepted, err, errlen);
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
    /* Every number, 0|1 and word the table declares, by table order; the
     * settings with a syntax of their own follow. */
    long long v[HV_ENV__COUNT] = {0};
    int rc = 0;

    memset(cfg, 0, sizeof *cfg);
    if (errlen)
        err[0] = '\0';
    for (int id = 0; id < HV_ENV__COUNT; id++) {
        enum hv_env_type t = hv_env_table[id].type;
        if (t == HV_ENVT_BOOL || t == HV_ENVT_NUMBER || t == HV_ENVT_ENUM)
            rc |= parse_value((enum hv_env_id)id, getenv_fn(hv_env_table[id].name), &v[id], err, errlen);
    }
    cfg->enabled = (int)v[HV_ENV_ENABLE];
    cfg->ring_bytes = (uint64_t)v[HV_ENV_RING_KB] * 1024u;
    cfg->flush_ms = (uint32_t)v[HV_ENV_FLUSH_MS];
    cfg->zstd_level = (int)v[HV_ENV_ZSTD_LEVEL];
    cfg->quiet = (int)v[HV_ENV_QUIET];
    cfg->end_line = (int)v[HV_ENV_END_LINE];
    cfg->writer_stats = (int)v[HV_ENV_WRITER_STATS];
    cfg->sidecar = (int)v[HV_ENV_SIDECAR];
    cfg->codeobj_bytes = (uint64_t)v[HV_ENV_CODEOBJ_MB] << 20;
    cfg->payload_bytes = (uint32_t)v[HV_ENV_PAYLOAD_BYTES];
    cfg->rewrite_check_bytes = (uint32_t)v[HV_ENV_REWRITE_CHECK_KB] * 1024u;
    cfg->rewrite_every = (uint32_t)v[HV_ENV_REWRITE_EVERY];
    cfg->rewrite_first = (uint32_t)v[HV_ENV_REWRITE_FIRST];
    cfg->launch_every = (uint32_t)v[HV_ENV_LAUNCH_EVERY];
    cfg->launch_first = (uint32_t)v[HV_ENV_LAUNCH_FIRST];
    cfg->stacks = (int)v[HV_ENV_STACKS];
    cfg->pyframes = (int)v[HV_ENV_PYFRAMES];
    cfg->record_argv = (int)v[HV_ENV_RECORD_ARGV];
    cfg->start = (int)v[HV_ENV_START];
    cfg->start_delay_ms = (uint64_t)v[HV_ENV_START_DELAY_MS];
    cfg->duration_ms = (uint64_t)v[HV_ENV_DURATION_MS];
    cfg->launch_time_ns = (uint64_t)v[HV_ENV_LAUNCH_TIME_NS];
    cfg->record = (int)v[HV_ENV_RECORD];
    cfg->guard = (int)v[HV_ENV_GUARD];
    cfg->guard_always = strcmp(hv_env_table[HV_ENV_GUARD_WHEN].words[v[HV_ENV_GUARD_WHEN]], "always") == 0;
    cfg->hostcheck = (int)v[HV_ENV_HOSTCHECK];
    cfg->names_checked = (int)v[HV_ENV_NAMES_CHECKED];
    rc |= parse_probe(getenv_fn(hv_env_table[HV_ENV_PROBE].name), &cfg->probe, err, errlen);
    /* Argument records unless asked otherwise, or unless a setting needs the
     * full record (then full, silently: that setting asked for it); asked
     * for explicitly, a setting that cannot hold with them is an error. */
    const char *record = getenv_fn(hv_env_table[HV_ENV_RECORD].name);
    int asked = record && *record;
    if (cfg->record == HV_RECORD_ARGS && args_conflicts(cfg, getenv_fn, asked ? err : NULL, errlen)) {
        if (asked)
            rc = -1;
        else
            cfg->record = HV_RECORD_FULL;
    }
    rc |= parse_floor_apis(getenv_fn(hv_env_table[HV_ENV_FLOOR_APIS].name), cfg->floor_apis, &cfg->floor_apis_set,
                           err, errlen);

    rc |= parse_path(HV_ENV_SIDECAR_DIR, getenv_fn(hv_env_table[HV_ENV_SIDECAR_DIR].name), cfg->sidecar_dir,
                     sizeof cfg->sidecar_dir, err, errlen);
    rc |= parse_path(HV_ENV_OUTPUT, getenv_fn(hv_env_table[HV_ENV_OUTPUT].name), cfg->output, sizeof cfg->output,
                     err, errlen);
    if (rc != 0)
        cfg->enabled = 0;
    return rc ? -1 : 0;
}

void hv_config_check_names(const struct hv_config *cfg, char *const *envp, char *out, unsigned cap)
{
    if (!cfg->quiet && !cfg->names_checked)
        hv_env_unknown_names(envp, out, cap);
}
