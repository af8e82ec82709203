/*
 * hipvis-sidecar — drains the shared-memory segments of processes traced
 * with HIPVIS_SIDECAR=1 into per-process traces, with streaming analysis,
 * alerts and Prometheus counters (docs/sidecar.md, hipvis-sidecar(1)).
 * Thin driver: options, then sc_run().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/rules/rules.h"
#include "sidecar/sidecar.h"

static void usage(FILE *out)
{
    fputs("usage: hipvis-sidecar [options]\n"
          "  --dir DIR               segment directory (default $HIPVIS_SIDECAR_DIR or /dev/shm)\n"
          "  -o, --output-dir DIR    trace files (default .)\n"
          "  --alerts FILE           append one JSON line per new finding group\n"
          "  --metrics FILE          Prometheus textfile (name it *.prom)\n"
          "  --rotate-size SIZE      start a new trace file at this size (default 256M; 0 never)\n"
          "  --rotate-age AGE        ... or at this age (default 1h; 0 never)\n"
          "  --disk-cap SIZE         total trace bytes; oldest closed files deleted first (default 10G; 0 none)\n"
          "  --zstd-level N          1..19 (default 1)\n"
          "  --interval-ms N         drain period when idle (default 10)\n"
          "  --scan-ms N             full directory scan period (default 1000)\n"
          "  --metrics-interval-ms N (default 1000)\n"
          "  --metrics-keep SECONDS  keep series of ended processes (default 300)\n"
          "  --closed-grace-ms N     a closed segment of a live pid (exec) is final after this (default 1000)\n"
          "  --nice N                scheduling priority to take at start (default -10; 0 leaves it)\n"
          "  --no-analysis           traces only, no streaming rules\n"
          "  --disable RULE          turn a rule off (repeatable)\n"
          "  -q, --quiet             log warnings and errors only\n"
          "  --version, --help\n"
          "SIZE: bytes with an optional K, M, G suffix (powers of 1024); AGE: seconds with s, m, h, d.\n"
          "SIGTERM/SIGINT: drain everything, write footers, exit 0.\n",
          out);
}

/* "256M" -> bytes, "1h" -> seconds: a number and one optional unit letter. */
static int parse_scaled(const char *s, const char *units, const uint64_t *scale, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s)
        return -1;
    uint64_t mul = 1;
    if (*end) {
        const char *u = strchr(units, *end);
        if (!u || end[1])
            return -1;
        mul = scale[u - units];
    }
    if (mul && v > UINT64_MAX / mul)
        return -1;
    *out = v * mul;
    return 0;
}

static int parse_int(const char *s, long lo, long hi, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return -1;
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    static const uint64_t size_scale[] = {1024ull, 1024ull * 1024, 1024ull * 1024 * 1024};
    static const uint64_t age_scale[] = {1, 60, 3600, 86400};
    struct sc_options o;
    sc_options_default(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int bad = 0, takes = 1;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("hipvis-sidecar %s\n", HIPVIS_VERSION);
            return 0;
        } else if (!strcmp(a, "--no-analysis")) {
            o.analyze = 0;
            takes = 0;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            o.quiet = 1;
            takes = 0;
        } else if (!v) {
            bad = 1;
        } else if (!strcmp(a, "--dir")) {
            o.segment_dir = v;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output-dir")) {
            o.output_dir = v;
        } else if (!strcmp(a, "--alerts")) {
            o.alerts = v;
        } else if (!strcmp(a, "--metrics")) {
            o.metrics = v;
        } else if (!strcmp(a, "--rotate-size")) {
            bad = parse_scaled(v, "KMG", size_scale, &o.rotate_bytes);
        } else if (!strcmp(a, "--rotate-age")) {
            bad = parse_scaled(v, "smhd", age_scale, &o.rotate_s);
        } else if (!strcmp(a, "--disk-cap")) {
            bad = parse_scaled(v, "KMG", size_scale, &o.cap_bytes);
        } else if (!strcmp(a, "--zstd-level")) {
            bad = parse_int(v, 1, 19, &o.level);
        } else if (!strcmp(a, "--interval-ms")) {
            bad = parse_int(v, 1, 1000, &o.interval_ms);
        } else if (!strcmp(a, "--scan-ms")) {
            bad = parse_int(v, 10, 600000, &o.scan_ms);
        } else if (!strcmp(a, "--metrics-interval-ms")) {
            bad = parse_int(v, 10, 3600000, &o.metrics_ms);
        } else if (!strcmp(a, "--metrics-keep")) {
            bad = parse_int(v, 0, 86400 * 7, &o.metrics_keep_s);
        } else if (!strcmp(a, "--nice")) {
            bad = parse_int(v, -20, 19, &o.nice);
        } else if (!strcmp(a, "--closed-grace-ms")) {
            bad = parse_int(v, 0, 600000, &o.closed_grace_ms);
        } else if (!strcmp(a, "--disable")) {
            const struct hv_rule *r = hv_rule_by_name(v);
            bad = !r;
            if (r)
                o.rules_disabled |= 1u << r->id;
        } else {
            fprintf(stderr, "hipvis-sidecar: unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (bad) {
            fprintf(stderr, "hipvis-sidecar: %s: %s\n", a, v ? "bad value" : "needs a value");
            return 2;
        }
        i += takes;
    }
    return sc_run(&o);
}
