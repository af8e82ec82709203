/*
 * hipvis-sidecar — drains the shared-memory segments of processes traced
 * with HIPVIS_SIDECAR=1 into per-process traces, with streaming analysis,
 * alerts and Prometheus counters (docs/sidecar.md, hipvis-sidecar(1)).
 * Thin driver: options, then sc_run().
 */
#include "analyze/rules/rules.h"
#include "cli/cli.h"
#include "sidecar/sidecar.h"

enum {
    OPT_DIR, OPT_OUT, OPT_ALERTS, OPT_METRICS, OPT_ROT_SIZE, OPT_ROT_AGE, OPT_CAP, OPT_LEVEL, OPT_INTERVAL,
    OPT_SCAN, OPT_METRICS_MS, OPT_METRICS_KEEP, OPT_GRACE, OPT_NICE, OPT_NO_ANALYSIS, OPT_DISABLE, OPT_QUIET,
};

static const struct hv_cli_opt sidecar_opts[] = {
    {"dir", 0, HV_CLI_VALUE, OPT_DIR, "DIR", "segment directory (default $HIPVIS_SIDECAR_DIR or /dev/shm)"},
    {"output-dir", 'o', HV_CLI_VALUE, OPT_OUT, "DIR", "trace files (default: the current directory)"},
    {"alerts", 0, HV_CLI_VALUE, OPT_ALERTS, "FILE", "append one JSON line per new finding group"},
    {"metrics", 0, HV_CLI_VALUE, OPT_METRICS, "FILE", "Prometheus textfile (name it *.prom)"},
    {"rotate-size", 0, HV_CLI_VALUE, OPT_ROT_SIZE, "SIZE", "start a new trace file at this size (default 256M; 0 never)"},
    {"rotate-age", 0, HV_CLI_VALUE, OPT_ROT_AGE, "AGE", "... or at this age (default 1h; 0 never)"},
    {"disk-cap", 0, HV_CLI_VALUE, OPT_CAP, "SIZE", "total trace bytes; oldest closed files deleted first (default 10G; 0 none)"},
    {"zstd-level", 0, HV_CLI_VALUE, OPT_LEVEL, "N", "1..19 (default 1)"},
    {"interval-ms", 0, HV_CLI_VALUE, OPT_INTERVAL, "N", "drain period when idle (default 10)"},
    {"scan-ms", 0, HV_CLI_VALUE, OPT_SCAN, "N", "full directory scan period (default 1000)"},
    {"metrics-interval-ms", 0, HV_CLI_VALUE, OPT_METRICS_MS, "N", "(default 1000)"},
    {"metrics-keep", 0, HV_CLI_VALUE, OPT_METRICS_KEEP, "SECONDS", "keep series of ended processes (default 300)"},
    {"closed-grace-ms", 0, HV_CLI_VALUE, OPT_GRACE, "N", "a closed segment of a live pid (exec) is final after this (default 1000)"},
    {"nice", 0, HV_CLI_VALUE, OPT_NICE, "N", "scheduling priority to take at start (default -10; 0 leaves it)"},
    {"no-analysis", 0, HV_CLI_FLAG, OPT_NO_ANALYSIS, NULL, "traces only, no streaming rules"},
    {"disable", 0, HV_CLI_VALUE, OPT_DISABLE, "RULE", "turn a rule off (repeatable)"},
    {"quiet", 'q', HV_CLI_FLAG, OPT_QUIET, NULL, "log warnings and errors only"},
    {0},
};

static const struct hv_cli sidecar_cli = {
    "hipvis-sidecar", "[options]", sidecar_opts,
    "SIZE: bytes with an optional K, M, G suffix (powers of 1024); AGE: seconds with s, m, h, d.\n"
    "SIGTERM/SIGINT: drain everything, write footers, exit 0.\n",
    0};

static int on_opt(void *ctx, int id, const char *v)
{
    struct sc_options *o = ctx;
    switch (id) {
    case OPT_DIR: o->segment_dir = v; return 0;
    case OPT_OUT: o->output_dir = v; return 0;
    case OPT_ALERTS: o->alerts = v; return 0;
    case OPT_METRICS: o->metrics = v; return 0;
    case OPT_ROT_SIZE: return hv_cli_size(v, &o->rotate_bytes);
    case OPT_ROT_AGE: return hv_cli_age(v, &o->rotate_s);
    case OPT_CAP: return hv_cli_size(v, &o->cap_bytes);
    case OPT_LEVEL: return hv_cli_int(v, 1, 19, &o->level);
    case OPT_INTERVAL: return hv_cli_int(v, 1, 1000, &o->interval_ms);
    case OPT_SCAN: return hv_cli_int(v, 10, 600000, &o->scan_ms);
    case OPT_METRICS_MS: return hv_cli_int(v, 10, 3600000, &o->metrics_ms);
    case OPT_METRICS_KEEP: return hv_cli_int(v, 0, 86400 * 7, &o->metrics_keep_s);
    case OPT_GRACE: return hv_cli_int(v, 0, 600000, &o->closed_grace_ms);
    case OPT_NICE: return hv_cli_int(v, -20, 19, &o->nice);
    case OPT_NO_ANALYSIS: o->analyze = 0; return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case OPT_DISABLE: return hv_rule_disable(&o->rules_disabled, v, "hipvis-sidecar");
    }
    return -1;
}

int main(int argc, char **argv)
{
    struct sc_options o;
    sc_options_default(&o);
    int first;
    int rc = hv_cli_parse(&sidecar_cli, argc, argv, on_opt, &o, &first);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 0 : 2;
    if (first < argc)
        return hv_cli_error(&sidecar_cli, "unexpected argument '%s'", argv[first]);
    return sc_run(&o);
}
