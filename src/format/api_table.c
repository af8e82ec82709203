/*
 * The API table of include/hipvis/api.h: id -> name, id -> op class, and the
 * reverse lookup used by configuration.
 *
 * Tables are indexed by id with designated initializers, so a lookup is one
 * load, and two rows with the same id fail the build (-Woverride-init is in
 * -Wextra, and -Werror is on). Every X-macro list of api.h is named exactly
 * once, in HV_API_LISTS below: the CUDA front end adds its list there.
 */
#include <string.h>

#include "hipvis/api.h"

#define HV_API_LISTS(X) \
    HV_HIP_APIS(X)      \
    HV_CUDA_APIS(X)     \
    HV_CUDA_DRV_APIS(X)

#define HV_NAME_ROW(id, name, op) [id] = #name,
#define HV_OP_ROW(id, name, op)   [id] = op,
#define HV_ID_ROW(id, name, op)   id,

static const char *const api_names[HV_API__MAX] = { HV_API_LISTS(HV_NAME_ROW) };
static const unsigned char api_ops[HV_API__MAX] = { HV_API_LISTS(HV_OP_ROW) };
/* The ids in table order, for the reverse lookup. */
static const uint16_t api_ids[] = { HV_API_LISTS(HV_ID_ROW) };

_Static_assert(HV_OP__COUNT <= 256, "op classes are stored in a byte");

const char *hv_api_name(uint16_t api)
{
    const char *n = api < HV_API__MAX ? api_names[api] : NULL;
    return n ? n : "?";
}

enum hv_op hv_api_op(uint16_t api)
{
    return api < HV_API__MAX ? (enum hv_op)api_ops[api] : HV_OP_OTHER;
}

/* Linear: it runs at configuration time only, over a few hundred rows. */
uint16_t hv_api_by_name(const char *name)
{
    if (!name)
        return 0;
    for (size_t i = 0; i < sizeof api_ids / sizeof api_ids[0]; i++)
        if (strcmp(api_names[api_ids[i]], name) == 0)
            return api_ids[i];
    return 0;
}
