/*
 * arms: what each arm of `hipvis experiment` changes, per runtime.
 *
 * An arm is one variable against the baseline (the job traced as is): the
 * three-point probe, one HIPVIS_GUARD synchronization pattern, or one
 * runtime knob that bears on a hypothesis (../shared/research/public-cases.md,
 * docs/case-study-rocm-hip-3902.md section 5). Knob names depend on the
 * runtime and its version: HIP's debug flags have no CUDA counterpart for
 * the segment scheduler, SDMA or blit sizes (those arms are left out on
 * CUDA, and said so), and ROCm builds after 7.2.x select the classic graph
 * executor with DEBUG_HIP_GRAPH_CLASSIC_PATH=1 where 7.2.x used
 * DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 (rocm-systems PR #9363 / #9904).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/errata/errata.h"
#include "common/envtab.h"
#include "experiment/ex_int.h"

enum { RT_ANY = 0, RT_HIP, RT_CUDA };

struct def {
    const char *name;
    enum ex_kind kind;
    int only;                         /* RT_* it applies to */
    int host_race;                    /* a wait that bears on a host race: run with the check when it is an arm */
    const char *hip_env, *cuda_env;   /* "A=1 B=2"; NULL: computed (classic) */
    const char *what;
};

static const struct def catalogue[] = {
    {"baseline", EX_BASELINE, RT_ANY, 0, "", "", "the job traced as is"},
    {"probe", EX_PROBE, RT_ANY, 0, "HIPVIS_PROBE=auto", "HIPVIS_PROBE=auto",
     "three-point probes: a stale buffer right after the copy or before the replay is recorded (H2, host-race); "
     "adds stream work"},
    {"hostcheck", EX_PROBE, RT_ANY, 0, "HIPVIS_HOSTCHECK=1", "HIPVIS_HOSTCHECK=1",
     "host accesses to pinned memory an in-flight copy uses fault once and are recorded (host-race); "
     "two mprotect calls per pinned copy"},
    {"stream-sync", EX_GUARD, RT_ANY, 1, "HIPVIS_GUARD=stream-sync", "HIPVIS_GUARD=stream-sync",
     "host waits for the launch stream before each flagged replay (H1, H3)"},
    {"event-sync", EX_GUARD, RT_ANY, 1, "HIPVIS_GUARD=event-sync", "HIPVIS_GUARD=event-sync",
     "host waits on a system-scope event after the copy (H1, H3)"},
    {"event-sync-nofence", EX_GUARD, RT_HIP, 0, "HIPVIS_GUARD=event-sync-nofence", NULL,
     "host waits on an event without the system fence: ordering alone (H1, not H3)"},
    {"release-event", EX_GUARD, RT_HIP, 0, "HIPVIS_GUARD=release-event", NULL,
     "hipEventReleaseToSystem event after the copy, no host wait"},
    {"copy-sync", EX_GUARD, RT_ANY, 1, "HIPVIS_GUARD=copy-sync", "HIPVIS_GUARD=copy-sync",
     "host waits at each pinned H2D copy a graph reads (every one without graphs) and each pinned D2H copy "
     "(host-race, missing waits on the copy's stream)"},
    {"one-queue", EX_KNOB, RT_ANY, 0, "DEBUG_HIP_FORCE_GRAPH_QUEUES=1", "CUDA_DEVICE_MAX_CONNECTIONS=1",
     "one graph queue / one hardware connection: no parallel queues (H1; runtime errata "
     "rocm-systems#11501 and rocm-systems#11357)"},
    {"classic", EX_KNOB, RT_HIP, 0, NULL, NULL, "the classic graph executor, no segment scheduler (H4, H1 on 7.2.4)"},
    {"no-sdma", EX_KNOB, RT_HIP, 0, "HSA_ENABLE_SDMA=0", NULL,
     "copies as blit kernels, no SDMA engine (H2; runtime erratum rocm-systems#11403)"},
    {"blit", EX_KNOB, RT_HIP, 0, "GPU_FORCE_BLIT_COPY_SIZE=65536", NULL,
     "copies up to 64 MiB as blit kernels (H2, small copies only)"},
    {"flush", EX_KNOB, RT_HIP, 0, "AMD_OPT_FLUSH=0", NULL, "system-scope fences on every kernel (H3; slow)"},
    {"serialize", EX_KNOB, RT_ANY, 0, "AMD_SERIALIZE_KERNEL=3 AMD_SERIALIZE_COPY=3", "CUDA_LAUNCH_BLOCKING=1",
     "every launch and copy waits for completion (any ordering race; slow)"},
};
#define NCAT (sizeof catalogue / sizeof catalogue[0])

void ex_runtime_parse(struct ex_runtime *rt, const char *version, const char *path)
{
    memset(rt, 0, sizeof *rt);
    version = version ? version : "";
    path = path ? path : "";
    snprintf(rt->text, sizeof rt->text, "%s", version[0] ? version : "(not recorded)");
    rt->cuda = strstr(path, "cuda") || strstr(version, "cuda") || strstr(version, "CUDA");
    rt->known = hv_rocm_release(version, &rt->major, &rt->minor, &rt->patch);
}

/* The classic-executor knob for this HIP runtime. */
static const char *classic_env(const struct ex_runtime *rt)
{
    int newer = rt->known && (rt->major > 7 || (rt->major == 7 && rt->minor > 2));
    return newer ? "DEBUG_HIP_GRAPH_CLASSIC_PATH=1" : "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0";
}

/* Splits "A=1 B=2" (sep ' ') or "A=1+B=2" (sep '+') into arm->env. */
static int set_env(struct ex_arm *arm, const char *list, char sep)
{
    arm->nenv = 0;
    const char *p = list;
    while (p && *p) {
        const char *e = strchr(p, sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n) {
            if (arm->nenv == EX_MAX_ENV || n >= sizeof arm->env[0] || !memchr(p, '=', n) || *p == '=')
                return -1;
            snprintf(arm->env[arm->nenv++], sizeof arm->env[0], "%.*s", (int)n, p);
        }
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Does the arm's environment turn the host-access check on? */
static int has_hostcheck(const struct ex_arm *a)
{
    static const char var[] = "HIPVIS_HOSTCHECK=";
    long long mode;
    for (int i = 0; i < a->nenv; i++)
        if (!strncmp(a->env[i], var, sizeof var - 1) &&
            hv_env_parse(HV_ENV_HOSTCHECK, a->env[i] + sizeof var - 1, &mode) == 0 && mode != 0)
            return 1;
    return 0;
}

static const struct def *def_of(const char *name)
{
    for (size_t i = 0; i < NCAT; i++)
        if (!strcmp(catalogue[i].name, name))
            return &catalogue[i];
    return NULL;
}

static int find(const struct ex_arm *arms, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(arms[i].name, name) == 0)
            return i;
    return -1;
}

static void note(char *buf, size_t len, const char *name, const char *why)
{
    size_t used = strlen(buf);
    if (used < len)
        snprintf(buf + used, len - used, "%s%s (%s)", used ? "; " : "", name, why);
}

/* Adds catalogue entry d (unless present or not for this runtime). */
static int add_def(const struct def *d, const struct ex_runtime *rt, struct ex_arm *arms, int *n, int cap,
                   char *skipped, size_t sklen)
{
    if (find(arms, *n, d->name) >= 0)
        return 0;
    if ((d->only == RT_HIP && rt->cuda) || (d->only == RT_CUDA && !rt->cuda)) {
        note(skipped, sklen, d->name, rt->cuda ? "HIP only: no CUDA counterpart" : "CUDA only");
        return 0;
    }
    if (*n == cap)
        return -1;
    struct ex_arm *a = &arms[(*n)++];
    memset(a, 0, sizeof *a);
    snprintf(a->name, sizeof a->name, "%s", d->name);
    snprintf(a->what, sizeof a->what, "%s", d->what);
    a->kind = d->kind;
    a->fix = d->kind == EX_GUARD || d->kind == EX_KNOB;
    const char *env = rt->cuda ? d->cuda_env : d->hip_env;
    if (!env)
        env = classic_env(rt);
    return set_env(a, env, ' ');
}

static int add_kind(int kind, const struct ex_runtime *rt, struct ex_arm *arms, int *n, int cap, char *sk,
                    size_t sklen)
{
    for (size_t i = 0; i < NCAT; i++)
        if ((kind < 0 || (int)catalogue[i].kind == kind) && add_def(&catalogue[i], rt, arms, n, cap, sk, sklen))
            return -1;
    return 0;
}

int ex_arms_build(const char *spec, const struct ex_runtime *rt, struct ex_arm *arms, int cap, char *skipped,
                  size_t sklen, char *err, size_t errlen)
{
    int n = 0;
    skipped[0] = '\0';
    if (add_def(&catalogue[0], rt, arms, &n, cap, skipped, sklen))
        return -1;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec && *spec ? spec : "default");
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int rc = 0;
        char *colon = strchr(t, ':');
        if (colon) {
            /* NAME:VAR=VAL+VAR=VAL, a knob arm of the user's */
            *colon = '\0';
            if (!*t || find(arms, n, t) >= 0 || n == cap) {
                snprintf(err, errlen, "--arms: custom arm '%s': empty, duplicate or too many arms", t);
                return -1;
            }
            struct ex_arm *a = &arms[n];
            memset(a, 0, sizeof *a);
            snprintf(a->name, sizeof a->name, "%s", t);
            snprintf(a->what, sizeof a->what, "custom: %s", colon + 1);
            a->kind = EX_CUSTOM;
            a->fix = 1;
            if (set_env(a, colon + 1, '+') != 0) {
                snprintf(err, errlen, "--arms: custom arm '%s': expected NAME:VAR=VALUE[+VAR=VALUE...] (at most %d)",
                         t, EX_MAX_ENV);
                return -1;
            }
            n++;
            continue;
        }
        if (!strcmp(t, "default") || !strcmp(t, "all"))
            rc = add_kind(-1, rt, arms, &n, cap, skipped, sklen);
        else if (!strcmp(t, "guards"))
            rc = add_kind(EX_GUARD, rt, arms, &n, cap, skipped, sklen);
        else if (!strcmp(t, "knobs"))
            rc = add_kind(EX_KNOB, rt, arms, &n, cap, skipped, sklen);
        else {
            const struct def *d = def_of(t);
            if (!d) {
                snprintf(err, errlen, "--arms: unknown arm '%s' (hipvis experiment --help lists them)", t);
                return -1;
            }
            rc = add_def(d, rt, arms, &n, cap, skipped, sklen);
        }
        if (rc) {
            snprintf(err, errlen, "--arms: too many arms (at most %d)", cap);
            return -1;
        }
    }
    /* The hostcheck arm catches a host race the job may not report; the
     * waits that could remove it run with the same check, or their runs
     * could not show it. */
    int checked = find(arms, n, "hostcheck") >= 0;
    for (int i = 0; i < n; i++) {
        struct ex_arm *a = &arms[i];
        const struct def *d = a->kind == EX_CUSTOM ? NULL : def_of(a->name);
        if (checked && d && d->host_race && a->nenv < EX_MAX_ENV)
            snprintf(a->env[a->nenv++], sizeof a->env[0], "HIPVIS_HOSTCHECK=1");
        a->hostcheck = has_hostcheck(a);
    }
    return n;
}

void ex_arms_list(FILE *out)
{
    fputs("arms (--arms NAME,...; default: all that apply to the job's runtime; groups: guards, knobs;\n"
          "      custom: NAME:VAR=VALUE+VAR=VALUE):\n",
          out);
    for (size_t i = 0; i < NCAT; i++) {
        const struct def *d = &catalogue[i];
        fprintf(out, "  %-19s %s\n", d->name, d->what);
        if (d->hip_env && d->hip_env[0])
            fprintf(out, "  %-19s   HIP: %s%s\n", "", d->hip_env,
                    d->cuda_env ? "" : d->only == RT_HIP ? " (HIP only)" : "");
        else if (!d->hip_env)
            fprintf(out, "  %-19s   HIP: DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 (ROCm <= 7.2.x), "
                         "DEBUG_HIP_GRAPH_CLASSIC_PATH=1 (later)\n", "");
        if (d->cuda_env && d->cuda_env[0] && strcmp(d->cuda_env, d->hip_env ? d->hip_env : ""))
            fprintf(out, "  %-19s   CUDA: %s\n", "", d->cuda_env);
    }
    fputs("with hostcheck in the list, the arms that wait for a copy's stream (stream-sync, event-sync,\n"
          "copy-sync) run with HIPVIS_HOSTCHECK=1 too: the host accesses it catches count in their runs\n",
          out);
    fputs("runtime errata (docs/errata.md; the verdict says \"erratum\" when the baseline traces match one and\n"
          "its arm removes the symptom):\n", out);
    for (size_t i = 0; i < hv_nerrata; i++)
        fprintf(out, "  %-19s %s: %s\n", hv_errata[i].id, hv_errata[i].arm ? hv_errata[i].arm : "(no arm)",
                hv_errata[i].arm_note);
}
