/*
 * The API table of include/hipvis/api.h: id -> name, id -> op class, and the
 * reverse lookup used by configuration.
 *
 * Tables are indexed by id with designated initializers, so a lookup is one
 * load, and two rows with the same id fail the build (-Woverride-init is in
 * -Wextra, and -Werror is on). Every X-macro list of api.h is named exactly
 * once, in HV_API_LISTS below: the CUDA front end adds its list there.
 */
#include <pthread.h>
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

static enum hv_api_kind kind_of(const char *name)
{
    /* Order matters where one name contains another. */
    static const struct { const char *pat; uint8_t kind; } tab[] = {
        {"GraphInstantiate", HV_K_INSTANTIATE}, {"GraphLaunch", HV_K_GRAPH_LAUNCH},
        {"GraphExecDestroy", HV_K_EXEC_DESTROY}, {"GraphExecUpdate", HV_K_EXEC_UPDATE},
        {"StreamSynchronize", HV_K_STREAM_SYNC}, {"StreamQuery", HV_K_STREAM_SYNC},
        {"EventSynchronize", HV_K_EVENT_SYNC}, {"EventQuery", HV_K_EVENT_SYNC},
        {"DeviceSynchronize", HV_K_DEVICE_SYNC}, {"CtxSynchronize", HV_K_DEVICE_SYNC},
        {"StreamWaitEvent", HV_K_STREAM_WAIT}, {"EventRecord", HV_K_EVENT_RECORD},
        {"EventDestroy", HV_K_EVENT_DESTROY},
        {"StreamCreate", HV_K_STREAM_CREATE}, {"StreamDestroy", HV_K_STREAM_DESTROY},
        {"GraphNodeSetEnabled", HV_K_NODE_SET_ENABLED},
        {"BeginCapture", HV_K_BEGIN_CAPTURE}, {"EndCapture", HV_K_END_CAPTURE},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (strstr(name, tab[i].pat))
            return (enum hv_api_kind)tab[i].kind;
    /* hipGraphExecKernelNodeSetParams, cudaGraphExecMemcpyNodeSetParams,
     * cudaGraphExecEventRecordNodeSetEvent...: one node of an exec changed. */
    if (strstr(name, "GraphExec") && (strstr(name, "SetParams") || strstr(name, "SetEvent")))
        return HV_K_NODE_SETPARAMS;
    return HV_K_NONE;
}

/* ~60k string searches: once per process, not once per reader or engine
 * (the sidecar and the fuzzer make many). */
static unsigned char api_kinds[HV_API__MAX];
static pthread_once_t api_kinds_once = PTHREAD_ONCE_INIT;

static void fill_kinds(void)
{
    for (size_t i = 0; i < sizeof api_ids / sizeof api_ids[0]; i++)
        api_kinds[api_ids[i]] = (unsigned char)kind_of(api_names[api_ids[i]]);
}

enum hv_api_kind hv_api_kind(uint16_t api)
{
    if (api >= HV_API__MAX)
        return HV_K_NONE;
    pthread_once(&api_kinds_once, fill_kinds);
    return (enum hv_api_kind)api_kinds[api];
}
