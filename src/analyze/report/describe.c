/* describe: value -> words for reports. See describe.h. */
#include "analyze/report/describe.h"

#include <inttypes.h>
#include <stdio.h>

#include "analyze/findings.h"
#include "hipvis/trace.h"

const char *hv_stream_text(uint64_t id, char *buf, size_t len)
{
    if (id & HV_STREAM_LEGACY)
        snprintf(buf, len, "legacy:%" PRIu64, id & 0xffffffffu);
    else if (id & HV_STREAM_PER_THREAD)
        snprintf(buf, len, "per-thread:%" PRIu64, id & 0xffffffffu);
    else if (id == 0)
        snprintf(buf, len, "none");
    else
        snprintf(buf, len, "0x%" PRIx64, id);
    return buf;
}

const char *hv_mem_text(int mem)
{
    static const char *const t[] = {"unknown", "device", "pinned", "registered", "pageable", "managed"};
    return mem >= 0 && mem < (int)(sizeof t / sizeof t[0]) ? t[mem] : "unknown";
}

const char *hv_dir_text(int dir)
{
    static const char *const t[] = {"?", "H2H", "H2D", "D2H", "D2D"};
    return dir >= 0 && dir < (int)(sizeof t / sizeof t[0]) ? t[dir] : "?";
}

const char *hv_access_text(int access)
{
    static const char *const t[] = {"unknown", "read", "write", "read-write"};
    return access >= 0 && access < (int)(sizeof t / sizeof t[0]) ? t[access] : "unknown";
}

const char *hv_origin_text(int origin)
{
    return origin == HV_ARG_METADATA ? "metadata" : origin == HV_ARG_INFERRED ? "inferred" : "unknown";
}

const char *hv_node_type_text(int type)
{
    static const char *const t[] = {"unknown", "kernel", "memcpy", "memset", "host", "graph", "empty",
                                    "event-wait", "event-record", "mem-alloc", "mem-free", "conditional",
                                    "other"};
    return type >= 0 && type < (int)(sizeof t / sizeof t[0]) ? t[type] : "unknown";
}

const char *hv_side_kind_text(int kind)
{
    static const char *const t[] = {"none", "copy", "memset", "kernel", "replay", "free", "trace", "launch",
                                     "sync", "host"};
    return kind >= 0 && kind < (int)(sizeof t / sizeof t[0]) ? t[kind] : "none";
}

const char *hv_arg_text(int arg_index, char *buf, size_t len)
{
    if (arg_index == HV_ARG_DST)
        snprintf(buf, len, "dst");
    else if (arg_index == HV_ARG_SRC)
        snprintf(buf, len, "src");
    else if (arg_index >= 0)
        snprintf(buf, len, "arg %d", arg_index);
    else
        snprintf(buf, len, "%s", "");
    return buf;
}

const char *hv_bytes_text(uint64_t n, char *buf, size_t len)
{
    if (n >= (1ull << 30) && n % (1ull << 30) == 0)
        snprintf(buf, len, "%" PRIu64 " GiB", n >> 30);
    else if (n >= (1ull << 20) && n % (1ull << 20) == 0)
        snprintf(buf, len, "%" PRIu64 " MiB", n >> 20);
    else if (n >= 1024 && n % 1024 == 0)
        snprintf(buf, len, "%" PRIu64 " KiB", n >> 10);
    else
        snprintf(buf, len, "%" PRIu64 " B", n);
    return buf;
}
