/* Grouping store: identical findings fold, different sites do not. */
#include <stdlib.h>
#include <string.h>

#include "analyze/findings.h"
#include "analyze/rules/rules.h"
#include "tcheck.h"

static char name[32];

static struct hv_finding mk(int arg, uint64_t seq)
{
    struct hv_finding f;
    memset(&f, 0, sizeof f);
    f.rule = HV_RULE_SAME_EPOCH_WRITE;
    f.severity = HV_SEV_WARNING;
    f.pid = 1;
    f.lo = 0x1000;
    f.hi = 0x1800;
    f.a.kind = HV_SIDE_COPY;
    f.a.seq = seq - 1;
    f.b.kind = HV_SIDE_REPLAY;
    f.b.seq = seq;
    f.b.exec = 0x55;
    f.b.arg_index = (int16_t)arg;
    strcpy(name, "kernel_a");  /* transient: the store must copy it */
    f.b.name = name;
    return f;
}

void test_findings_grouping(void)
{
    struct hv_findings s;
    hv_findings_init(&s);
    s.keep_all = 1;
    for (uint64_t i = 0; i < 1000; i++) {
        struct hv_finding f = mk(0, 10 + 2 * i);
        hv_findings_add(&s, &f);
    }
    strcpy(name, "overwritten");
    struct hv_finding other = mk(1, 5000);
    hv_findings_add(&s, &other);
    other.severity = HV_SEV_ERROR;
    other.rule = HV_RULE_UNORDERED_WRITE;
    hv_findings_add(&s, &other);
    CHECK_EQ_U(s.ngroups, 3);
    CHECK_EQ_U(s.groups[0].count, 1000);
    CHECK_EQ_U(s.groups[0].first_seq, 10);
    CHECK_EQ_U(s.groups[0].last_seq, 10 + 2 * 999);
    CHECK_EQ_U(s.groups[0].nocc, 2000);
    CHECK(s.groups[0].f.b.name && strcmp(s.groups[0].f.b.name, "kernel_a") == 0);
    CHECK(s.groups[0].f.b.name != name);
    const struct hv_group **v = hv_findings_sorted(&s);
    CHECK(v[0]->f.severity == HV_SEV_ERROR);  /* most severe first */
    CHECK(v[1]->count == 1000);                /* then by count */
    free((void *)v);
    CHECK_EQ_U(hv_findings_max_severity(&s), HV_SEV_ERROR);
    CHECK_EQ_U(hv_findings_count_at(&s, HV_SEV_ERROR, NULL), 1);
    CHECK_EQ_U(hv_findings_count_at(&s, HV_SEV_WARNING, NULL), 3);
    CHECK(hv_severity_parse("warning") == HV_SEV_WARNING && hv_severity_parse("bogus") == -1);
    hv_findings_free(&s);
}
