/*
 * hipvis-analyze — offline analysis of hipvis traces.
 *
 *   hipvis-analyze [options] trace.zst [more traces...]
 *
 * Thin main: the options, then hv_analyze_cmd (src/analyze/cmd/analyze.h).
 * Exit status (src/analyze/report/verdict.h): 0 no finding at or above
 * --fail-on and every replay checked, 1 findings, 2 unreadable input, an
 * unusable run or a bad option, 3 replays, or operations of the host-access
 * check, not checked (--fail-on-unchecked).
 */
#include <stdio.h>
#include <stdlib.h>

#include "analyze/cmd/analyze.h"
#include "analyze/errata/errata.h"
#include "analyze/findings.h"
#include "analyze/rules/rules.h"
#include "cli/cli.h"
#include "cli/inputs.h"

enum {
    OPT_JSON, OPT_PERFETTO, OPT_FAIL_ON, OPT_ALL, OPT_GRAPHS, OPT_DISABLE, OPT_STATS, OPT_FIND_VALUE, OPT_AT,
    OPT_REPLAY, OPT_DIAGNOSE, OPT_CODE_OBJECT, OPT_HTML, OPT_WINDOW, OPT_CLOCK, OPT_HTML_MAX_OPS, OPT_ERRATA,
    OPT_FAIL_ON_UNCHECKED, OPT_NO_FAIL_ON_UNCHECKED,
};

static const struct hv_cli_opt analyze_opts[] = {
    {"json", 0, HV_CLI_FLAG, OPT_JSON, NULL, "JSON report on stdout (schema: docs/analysis.md)"},
    {"perfetto", 0, HV_CLI_VALUE, OPT_PERFETTO, "FILE",
     "Chrome trace-event JSON for ui.perfetto.dev, flow arrows write -> reader (FILE.gz: gzipped)"},
    {"html", 0, HV_CLI_VALUE, OPT_HTML, "FILE",
     "one self-contained HTML page: timeline, findings, graphs, input health"},
    {"window", 0, HV_CLI_VALUE, OPT_WINDOW, "A:B",
     "timeline exports: calls with seq A..B, or times from the trace's start with a unit\n"
     "(ns|us|ms|s), e.g. 1.5s:2s"},
    {"clock", 0, HV_CLI_VALUE, OPT_CLOCK, "C",
     "timeline clock: monotonic (default) | realtime | offset=NS | base=NS | torch=FILE\n"
     "(line up with a torch.profiler Chrome trace of the same run)"},
    {"html-max-ops", 0, HV_CLI_VALUE, OPT_HTML_MAX_OPS, "N",
     "ops the HTML timeline keeps one by one (default 150000; the rest as density)"},
    {"fail-on", 0, HV_CLI_VALUE, OPT_FAIL_ON, "LEVEL",
     "error|warning|info|none: exit 1 when a finding is at or above (default warning)"},
    {"fail-on-unchecked", 0, HV_CLI_FLAG, OPT_FAIL_ON_UNCHECKED, NULL,
     "exit 3 when no finding is at or above --fail-on but some replays could not be checked\n"
     "(kernel argument layouts unknown, execs without inventory), or the host-access check\n"
     "left in-flight operations unprotected or lost accesses (default on)"},
    {"no-fail-on-unchecked", 0, HV_CLI_FLAG, OPT_NO_FAIL_ON_UNCHECKED, NULL,
     "what was not checked leaves the exit status as the findings make it (still said in the\n"
     "verdict)"},
    {"all", 0, HV_CLI_FLAG, OPT_ALL, NULL, "list every occurrence of each finding group"},
    {"graphs", 0, HV_CLI_FLAG, OPT_GRAPHS, NULL, "print each graph exec's inventory and shape"},
    {"disable", 0, HV_CLI_VALUE, OPT_DISABLE, "RULE", "turn a rule off (repeatable)"},
    {"stats", 0, HV_CLI_FLAG, OPT_STATS, NULL, "records/s and peak RSS on stderr"},
    {"find-value", 0, HV_CLI_VALUE, OPT_FIND_VALUE, "V[:W]",
     "with --at ADDR[:LEN]|kernel:NAME:ARG [--replay SEQ]: every recorded write that put V\n"
     "(W bytes, default 4) there, with its epoch distance to the replay (default: the last\n"
     "replay reading the range); exit 0 found, 1 not found"},
    {"at", 0, HV_CLI_VALUE, OPT_AT, "WHERE", "the range --find-value looks at"},
    {"replay", 0, HV_CLI_VALUE, OPT_REPLAY, "SEQ", "the replay --find-value measures against"},
    {"diagnose", 0, HV_CLI_FLAG, OPT_DIAGNOSE, NULL,
     "rank the hypotheses (H1 H2 H3 H4 host-race) per same-epoch-write group"},
    {"code-object", 0, HV_CLI_VALUE, OPT_CODE_OBJECT, "FILE",
     "code object (ELF, bundle, CCOB): confirms inferred pointer arguments from the kernel's\n"
     "loads, and classifies readers' loads for --diagnose (repeatable)"},
    {"errata", 0, HV_CLI_FLAG, OPT_ERRATA, NULL,
     "print the runtime errata the rule runtime-erratum knows (threads, releases, trigger,\n"
     "workaround, experiment arm) and exit"},
    {0},
};

static const struct hv_cli analyze_cli = {
    "hipvis-analyze", "[options] TRACE|DIR|- ...", analyze_opts,
    "A directory stands for every trace in it (recursively); - reads one trace from stdin.\n"
    "exit: 0 no finding at or above --fail-on and every replay checked; 1 findings at or above it;\n"
    "2 not analyzed: unreadable input, an unusable run (every runtime call failed, nothing launched)\n"
    "or a bad option; 3 no such finding, but replays or host-access check operations not checked\n"
    "(--no-fail-on-unchecked: 0)\n",
    0};

static int on_opt(void *ctx, int id, const char *val)
{
    struct hv_analyze_opts *o = ctx;
    switch (id) {
    case OPT_JSON: o->json = 1; break;
    case OPT_ALL: o->all = 1; break;
    case OPT_GRAPHS: o->graphs = 1; break;
    case OPT_STATS: o->stats = 1; break;
    case OPT_PERFETTO: o->perfetto = val; break;
    case OPT_HTML: o->html = val; break;
    case OPT_WINDOW:
    case OPT_CLOCK: {
        char why[600];
        if ((id == OPT_WINDOW ? hv_view_parse_window(&o->view, val, why, sizeof why)
                              : hv_view_parse_clock(&o->view, val, why, sizeof why)) != 0) {
            fprintf(stderr, "hipvis-analyze: --%s: %s\n", id == OPT_WINDOW ? "window" : "clock", why);
            return -2;
        }
        break;
    }
    case OPT_HTML_MAX_OPS: {
        uint64_t ops = 0;
        if (hv_cli_u64(val, &ops) != 0 || !ops) {
            fprintf(stderr, "hipvis-analyze: --html-max-ops: expected a positive number, got '%s'\n", val);
            return -2;
        }
        o->html_max_ops = ops;
        break;
    }
    case OPT_FAIL_ON:
        o->fail_on = hv_severity_parse(val);
        if (o->fail_on < 0) {
            fprintf(stderr, "hipvis-analyze: --fail-on: expected error|warning|info|none, got '%s'\n", val);
            return -2;
        }
        break;
    case OPT_FAIL_ON_UNCHECKED: o->no_fail_on_unchecked = 0; break;
    case OPT_NO_FAIL_ON_UNCHECKED: o->no_fail_on_unchecked = 1; break;
    case OPT_DISABLE: return hv_rule_disable(&o->rules_disabled, val, "hipvis-analyze");
    case OPT_FIND_VALUE: o->find_value = val; break;
    case OPT_AT: o->at = val; break;
    case OPT_REPLAY: o->replay = val; break;
    case OPT_DIAGNOSE: o->diagnose = 1; break;
    case OPT_ERRATA: o->errata = 1; break;
    case OPT_CODE_OBJECT: o->code_objects[o->ncode_objects++] = val; break;
    }
    return 0;
}

/* Returns 0 with the operands expanded into o->in, 1 after --help /
 * --version, or 2 (after printing why). */
static int parse(int argc, char **argv, struct hv_analyze_opts *o)
{
    o->fail_on = HV_SEV_WARNING;
    hv_view_init(&o->view);
    o->code_objects = calloc((size_t)argc, sizeof *o->code_objects);
    if (!o->code_objects)
        return 2;
    int first;
    int rc = hv_cli_parse(&analyze_cli, argc, argv, on_opt, o, &first);
    if (rc != HV_CLI_OK)
        return rc == HV_CLI_EXIT ? 1 : 2;
    if (o->errata) {
        hv_errata_print(stdout);
        return fflush(stdout) != 0 ? 2 : 1;
    }
    if (first >= argc)
        return hv_cli_error(&analyze_cli, "no trace given");
    for (int i = first; i < argc; i++)
        hv_inputs_add(&o->in, argv[i], "hipvis-analyze");
    return 0;
}

int main(int argc, char **argv)
{
    struct hv_analyze_opts o = {0};
    int rc = parse(argc, argv, &o);
    rc = rc ? (rc == 1 ? 0 : 2) : hv_analyze_cmd(&o);
    hv_inputs_free(&o.in);
    free(o.code_objects);
    return rc;
}
