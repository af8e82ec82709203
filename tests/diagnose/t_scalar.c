/* Scalar-load exposure on real clang-22 gfx950 code objects: indexing a
 * buffer by the work-group id is uniform, so the compiler reads it with
 * s_load (scalar cache); by the work-item id it needs global_load
 * (tests/codeobj/scalar.cl). The decode loop's own kernels
 * (tests/apps/decode_kernels.hip) show both: qo_indptr by work group,
 * tokens_per_req by work item. */
#include <string.h>

#include "analyze/diagnose/scalar_exposure.h"
#include "codeobj/scalar.h"
#include "dtest.h"

static void expect(struct hv_sx *sx, const char *kernel, uint32_t arg, int status, int path)
{
    struct hv_sx_result r;
    hv_sx_classify(sx, kernel, 0, arg, &r);
    int ok = r.status == status && (status != HV_SX_OK || r.read_path == path);
    if (!ok)
        fprintf(stderr, "  %s arg %u: status %d (%s) path %s, want %d %s\n", kernel, arg, r.status,
                hv_sx_status_text(r.status), hv_sx_path_name(r.read_path), status, hv_sx_path_name(path));
    CHECK(ok);
    if (status == HV_SX_OK)
        CHECK(strcmp(r.arch, "gfx950") == 0 && r.ninsns > 0);
}

void test_scalar_exposure(void)
{
    struct hv_sx *sx = hv_sx_new();
    CHECK(sx != NULL);
    if (!sx)
        return;
    CHECK(hv_sx_add_file(sx, d_scalar) > 0);
    CHECK(hv_sx_add_file(sx, d_hsaco) > 0);
    CHECK(hv_sx_add_file(sx, "/nonexistent/code.co") < 0);
    if (!hv_sx_available()) {
        /* Built without LLVM: the kernels are found, the answer says why it is missing. */
        expect(sx, "by_group", 0, HV_SX_NO_LLVM, 0);
        hv_sx_free(sx);
        return;
    }
    expect(sx, "by_group", 0, HV_SX_OK, HV_CO_READ_SCALAR);
    expect(sx, "by_item", 0, HV_SX_OK, HV_CO_READ_VECTOR);
    expect(sx, "by_item", 2, HV_SX_NO_ARG, 0);  /* `int k`: not a pointer */
    expect(sx, "_convert_req_index_to_global_index_kernel", 0, HV_SX_OK, HV_CO_READ_SCALAR);
    expect(sx, "_sample_kernel", 0, HV_SX_OK, HV_CO_READ_VECTOR);
    expect(sx, "no_such_kernel", 0, HV_SX_NO_CODE_OBJECT, 0);
    /* Objects of one origin can be dropped (a trace's, at its end). */
    hv_sx_drop_origin(sx, d_scalar);
    expect(sx, "by_group", 0, HV_SX_NO_CODE_OBJECT, 0);
    expect(sx, "_sample_kernel", 0, HV_SX_OK, HV_CO_READ_VECTOR);
    hv_sx_free(sx);
}
