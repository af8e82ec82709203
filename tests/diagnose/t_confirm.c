/* Inferred pointer arguments checked against the kernel's code
 * (src/analyze/diagnose/confirm.h), on the decode loop's real gfx950 code
 * object given as --code-object: each verdict the pass can reach, and the
 * groups it leaves counted as inferred. */
#include <stdio.h>

#include "analyze/diagnose/confirm.h"
#include "analyze/diagnose/scalar_exposure.h"
#include "dtest.h"

#define PID 4242
#define CONVERT "_convert_req_index_to_global_index_kernel"

/* A same-epoch-write group read through params entry `arg` of `kernel`
 * (offset unknown: a launch without a layout), in node `node` of one exec. */
static const struct hv_group *add(struct hv_findings *s, const char *kernel, int16_t arg, int32_t node)
{
    struct hv_finding f = {.rule = HV_RULE_SAME_EPOCH_WRITE, .severity = HV_SEV_WARNING, .pid = PID,
                           .lo = 0x1000, .hi = 0x1404};
    f.a = (struct hv_fside){.kind = HV_SIDE_COPY, .arg_index = HV_ARG_NONE, .node_index = -1, .seq = 1};
    f.b = (struct hv_fside){.kind = HV_SIDE_REPLAY, .arg_index = arg, .node_index = node, .seq = 2,
                            .origin = HV_ARG_INFERRED, .arg_offset = HV_KARG_OFFSET_UNKNOWN, .name = kernel,
                            .value = 0x1000};
    return hv_findings_add(s, &f);
}

void test_confirm(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/confirm.zst", d_tmp);
    struct tb t;
    CHECK(tb_file_open(&t, path, PID, "") == 0);
    tb_alloc(&t, 0x1000, 0x404, HV_MEM_DEVICE);
    CHECK(tb_file_close(&t, 1) == 0);

    struct hv_findings s;
    hv_findings_init(&s);
    size_t seen = hv_findings_index(&s, add(&s, CONVERT, 0, 0));  /* qo_indptr: read through s_load */
    size_t count = hv_findings_index(&s, add(&s, CONVERT, 2, 0)); /* bs and seed: loaded, only compared */
    size_t past = hv_findings_index(&s, add(&s, CONVERT, 5, 0));  /* the kernel takes 4 */
    size_t none = hv_findings_index(&s, add(&s, "no_such_kernel", 0, 1));
    CHECK_EQ_U(hv_findings_count_inferred(&s, HV_SEV_WARNING), 4);

    struct hv_sx *c = hv_sx_new();
    CHECK(c && hv_sx_add_file(c, d_hsaco) > 0);
    CHECK(hv_sx_add_file(c, "/nonexistent/code.co") < 0);
    const char *traces[] = {path};
    size_t confirmed = hv_confirm_findings(c, &s, traces, 1);
    const struct hv_fside *b[4] = {&s.groups[seen].f.b, &s.groups[count].f.b, &s.groups[past].f.b,
                                   &s.groups[none].f.b};
    CHECK_EQ_U(b[3]->deref, HV_DEREF_NO_CODE);
    if (!hv_sx_available()) {
        /* Without the disassembler nothing is decided, and it says why. */
        CHECK_EQ_U(confirmed, 0);
        CHECK_EQ_U(b[0]->deref, HV_DEREF_NO_DISASM);
        CHECK_EQ_U(hv_findings_count_inferred(&s, HV_SEV_WARNING), 4);
    } else {
        CHECK_EQ_U(confirmed, 1);
        CHECK(b[0]->deref == HV_DEREF_SEEN && b[0]->origin == HV_ARG_CONFIRMED &&
              (b[0]->deref_uses & HV_DEREF_USE_SCALAR_LOAD));
        CHECK(b[1]->deref == HV_DEREF_NOT_SEEN && b[1]->origin == HV_ARG_INFERRED);
        CHECK(b[2]->deref == HV_DEREF_NO_ARG && s.groups[past].f.severity == HV_SEV_INFO);
        CHECK_EQ_U(s.groups[seen].f.severity, HV_SEV_WARNING);
        CHECK_EQ_U(s.groups[count].f.severity, HV_SEV_WARNING);
        /* Left inferred: the word never dereferenced and the unknown kernel
         * at warning, the refuted one below it. */
        CHECK_EQ_U(hv_findings_count_inferred(&s, HV_SEV_WARNING), 2);
        CHECK_EQ_U(hv_findings_count_inferred(&s, HV_SEV_INFO), 3);
    }
    /* A second pass has nothing left to check. */
    CHECK_EQ_U(hv_confirm_findings(c, &s, traces, 1), 0);
    hv_sx_free(c);
    hv_findings_free(&s);
}
