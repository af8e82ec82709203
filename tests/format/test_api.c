/* The API table and the enum name tables. */
#include <string.h>

#include "format/rec_layout.h"
#include "format/names.h"
#include "harness.h"
#include "hipvis/api.h"
#include "hipvis/reader.h"
#include "hipvis/trace.h"

#define ROW(id, name, op) { id, #name, op },
static const struct { uint16_t id; const char *name; enum hv_op op; } rows[] = { HV_HIP_APIS(ROW) };

static void test_api_rows(void)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        CHECKF(!strcmp(hv_api_name(rows[i].id), rows[i].name), "id %u", rows[i].id);
        CHECKF(hv_api_op(rows[i].id) == rows[i].op, "id %u", rows[i].id);
        CHECKF(hv_api_by_name(rows[i].name) == rows[i].id, "%s", rows[i].name);
    }
    CHECK(!strcmp(hv_api_name(HV_API_hipMemcpyAsync), "hipMemcpyAsync"));
    CHECK(hv_api_op(HV_API_hipGraphLaunch) == HV_OP_GRAPH);
}

/* Newer traces carry ids this build does not know: degrade, never fail. */
static void test_api_unknown(void)
{
    CHECK(!strcmp(hv_api_name(0), "?"));
    CHECK(!strcmp(hv_api_name(999), "?"));
    CHECK(!strcmp(hv_api_name(HV_API__MAX), "?"));
    CHECK(!strcmp(hv_api_name(UINT16_MAX), "?"));
    CHECK(hv_api_op(UINT16_MAX) == HV_OP_OTHER);
    CHECK(hv_api_op(999) == HV_OP_OTHER);
    CHECK(hv_api_by_name("hipNoSuchThing") == 0);
    CHECK(hv_api_by_name("") == 0);
    CHECK(hv_api_by_name(NULL) == 0);
    CHECK(hv_api_by_name("?") == 0);
}

static void test_names(void)
{
    CHECK(!strcmp(hv_drop_cause_name(HV_DROP_RING_FULL), "ring_full"));
    CHECK(!strcmp(hv_drop_cause_name(HV_DROP_FORK_DISCARD), "fork_discard"));
    CHECK(hv_drop_cause_name(HV_DROP__COUNT) == NULL);
    for (unsigned c = 0; c < HV_DROP__COUNT; c++)
        CHECKF(hv_drop_cause_name(c) != NULL, "cause %u", c);
    /* Type numbers are allocated in blocks (trace.h): every type with a
     * layout has a name, the unused numbers between blocks have neither. */
    for (unsigned t = 1; t < HV_REC__MAX; t++)
        CHECKF((hv_rec_type_name(t) != NULL) == (hv_rec_fixed_size(t) != 0), "type %u", t);
    CHECK(hv_rec_type_name(0) == NULL && hv_rec_type_name(HV_REC__MAX) == NULL);
    for (unsigned op = 0; op < HV_OP__COUNT; op++)
        CHECKF(hv_op_name(op) != NULL, "op %u", op);
    CHECK(!strcmp(hv_dir_name(HV_DIR_H2D), "H2D"));
    CHECK(!strcmp(hv_node_type_name(HV_NODE_OTHER), "other"));
    CHECK(hv_node_type_name(HV_NODE_OTHER + 1) == NULL);
    CHECK(!strcmp(hv_read_status_name(HV_READ_TRUNCATED), "truncated"));
    CHECK(!strcmp(hv_read_status_name((enum hv_read_status)99), "?"));
}

void hv_tests_api(void)
{
    RUN(test_api_rows);
    RUN(test_api_unknown);
    RUN(test_names);
}
