/* knobs: see knobs.h for why the environment is recorded. */
#include "tracer/core/knobs.h"

#include <string.h>

extern char **environ;

/* Read by the analyzer (placement, engine hints, runtime errata): recorded
 * before any other variable. */
static const char *const first[] = {
    "DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING", "DEBUG_HIP_GRAPH_CLASSIC_PATH", "DEBUG_HIP_FORCE_GRAPH_QUEUES",
    "DEBUG_CLR_GRAPH_PACKET_CAPTURE", "HSA_ENABLE_SDMA", "GPU_FORCE_BLIT_COPY_SIZE", "AMD_OPT_FLUSH",
    "AMD_SERIALIZE_KERNEL", "AMD_SERIALIZE_COPY", "AMD_DIRECT_DISPATCH",
};
/* Beside the prefixes: the CUDA and NCCL variables that change ordering. */
static const char *const cuda[] = {
    "HIP_LAUNCH_BLOCKING", "CUDA_LAUNCH_BLOCKING", "CUDA_DEVICE_MAX_CONNECTIONS", "NCCL_NVLS_ENABLE",
};
static const char *const prefixes[] = {"DEBUG_HIP_", "DEBUG_CLR_", "AMD_", "HSA_", "GPU_"};

static int named(const char *entry, const char *const *names, size_t n)
{
    size_t len = strcspn(entry, "=");
    for (size_t i = 0; i < n; i++)
        if (strlen(names[i]) == len && memcmp(entry, names[i], len) == 0)
            return 1;
    return 0;
}

static int prefixed(const char *entry)
{
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

/* Appends "NAME=value;" when it fits; 0, or 1 when it did not. */
static int put(char *buf, size_t len, size_t *used, const char *entry)
{
    size_t n = strlen(entry);
    if (!strchr(entry, '=') || *used + n + 2 > len)
        return 1;
    memcpy(buf + *used, entry, n);
    buf[*used + n] = ';';
    *used += n + 1;
    buf[*used] = '\0';
    return 0;
}

int hv_knobs_fill(char *buf, size_t len)
{
    size_t used = 0;
    int cut = 0;
    if (!len)
        return 0;
    buf[0] = '\0';
    /* Pass 0: the analyzer's knobs, in their order; pass 1: the rest. */
    for (size_t i = 0; i < sizeof first / sizeof first[0]; i++)
        for (char **e = environ; e && *e; e++)
            if (named(*e, &first[i], 1))
                cut |= put(buf, len, &used, *e);
    for (char **e = environ; e && *e; e++)
        if ((prefixed(*e) || named(*e, cuda, sizeof cuda / sizeof cuda[0])) &&
            !named(*e, first, sizeof first / sizeof first[0]))
            cut |= put(buf, len, &used, *e);
    return cut;
}
