/*
 * Analyzer tests: data structures, each rule (positive and negative), the
 * grouping store, and end to end through files and the hipvis-analyze
 * binary. Usage: test_analyze PATH/TO/hipvis-analyze TMPDIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "tcheck.h"

int t_pass, t_fail;
const char *t_tool, *t_tmp;

#define TESTS(X)                                                                                     \
    X(test_u64map) X(test_u64map_multi) X(test_grow) X(test_imap_random) X(test_vclock) X(test_vclock_random) X(test_findings_grouping)                    \
    X(test_same_epoch_decode_loop) X(test_same_epoch_negatives) X(test_same_epoch_engine_hint)     \
    X(test_same_epoch_kernel_writer) X(test_unordered_side_stream) X(test_unordered_orderings)     \
    X(test_unordered_legacy_barrier) X(test_unordered_inferred_kept) X(test_unordered_eager_read) \
    X(test_write_during_replay_positive) X(test_write_during_replay_negative)                       \
    X(test_stale_capture_realloc) X(test_stale_capture_freed) X(test_stale_capture_negative)       \
    X(test_concurrent_shared_positive) X(test_concurrent_shared_negative) X(test_concurrent_shared_subsumed) X(test_input_health)     \
    X(test_record_robustness) X(test_records_stable_keep) X(test_semantics_2d_rows) X(test_semantics_2d_gap_keeps_writer)            \
    X(test_semantics_inferred_rule_severity) X(test_bounds_api_id) X(test_bounds_fuzz_regressions) \
    X(test_host_source_rewritten_positive) X(test_host_source_rewritten_negative) X(test_three_point_probe) \
    X(test_coverage_counts) X(test_coverage_all_checked) X(test_coverage_hostcheck) X(test_coverage_hostcheck_graph)

#define CLI_TESTS(X) X(test_cli_scenarios) X(test_cli_json_perfetto) X(test_cli_bad_input)

#define DECL(fn) void fn(void);
TESTS(DECL)
CLI_TESTS(DECL)

int main(int argc, char **argv)
{
    t_tool = argc > 1 ? argv[1] : NULL;
    t_tmp = argc > 2 ? argv[2] : "/tmp";
    mkdir(t_tmp, 0755);
#define RUN(fn) fn();
    TESTS(RUN)
    if (t_tool) {
        CLI_TESTS(RUN)
    } else {
        fprintf(stderr, "analyze: no hipvis-analyze given, end-to-end tests skipped\n");
    }
    printf("analyze: %d passed, %d failed\n", t_pass, t_fail);
    return t_fail ? 1 : 0;
}
