/* describe: value -> words for reports. See describe.h. */
#include "analyze/report/describe.h"

#include <inttypes.h>
#include <stdio.h>

#include "analyze/findings.h"
#include "format/names.h"
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
    const char *name = origin >= 0 ? hv_arg_origin_name((unsigned)origin) : NULL;
    return name ? name : "unknown";
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

const char *hv_side_role(int kind)
{
    switch (kind) {
    case HV_SIDE_COPY:
    case HV_SIDE_MEMSET:
    case HV_SIDE_KERNEL: return "write";
    case HV_SIDE_REPLAY: return "replay";
    case HV_SIDE_LAUNCH: return "read";
    case HV_SIDE_FREE: return "release";
    case HV_SIDE_SYNC: return "observe";
    case HV_SIDE_HOST: return "access";
    default: return NULL;
    }
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

const struct hv_fside *hv_pointer_side(const struct hv_finding *f)
{
    const struct hv_fside *sides[] = {&f->b, &f->a};
    for (size_t i = 0; i < 2; i++)
        if ((sides[i]->kind == HV_SIDE_REPLAY || sides[i]->kind == HV_SIDE_LAUNCH) &&
            (sides[i]->origin == HV_ARG_INFERRED || sides[i]->origin == HV_ARG_CONFIRMED))
            return sides[i];
    return NULL;
}

/* "scalar loads, vector stores"-style list of what the code does. */
static void uses_text(unsigned u, char *buf, size_t len)
{
    static const char *const t[] = {"scalar loads", "vector loads", "stores", "atomics", "passed on"};
    size_t o = 0;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof t / sizeof t[0] && o < len; i++)
        if (u & (1u << i))
            o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", t[i]);
}

const char *hv_pointer_text(const struct hv_fside *s, char *buf, size_t len)
{
    char at[48], uses[96];
    const char *kernel = s->name ? s->name : "the kernel";
    if (s->arg_offset == HV_KARG_OFFSET_UNKNOWN)
        snprintf(at, sizeof at, "arg %d (first word; no layout)", s->arg_index);
    else
        snprintf(at, sizeof at, "arg %d, kernarg +0x%x", s->arg_index, s->arg_offset);
    uses_text(s->deref_uses, uses, sizeof uses);
    const char *why = "a word of the arguments equal to an address in the buffer";
    switch (s->deref) {
    case HV_DEREF_SEEN:
        snprintf(buf, len, "%s: confirmed: %s loads it from its kernarg segment and uses it as an address (%s)",
                 at, kernel, uses);
        break;
    case HV_DEREF_NOT_SEEN:
        snprintf(buf, len, "%s: inferred (%s); %s's code never uses it as an address%s%s%s", at, why, kernel,
                 uses[0] ? " (" : "", uses, uses[0] ? ")" : "");
        break;
    case HV_DEREF_NO_ARG:
        snprintf(buf, len, "%s: refuted: %s takes no argument %d, the word was read past the end of the launch's "
                 "params array; reported as info", at, kernel, s->arg_index);
        break;
    case HV_DEREF_NOT_STORED:
        snprintf(buf, len, "%s: inferred (%s); the tracer read %s's code object but did not store it in the trace",
                 at, why, kernel);
        break;
    case HV_DEREF_NO_DISASM:
        snprintf(buf, len, "%s: inferred (%s); no disassembler here for %s's code (an analyzer built with LLVM 22 "
                 "confirms it)", at, why, kernel);
        break;
    case HV_DEREF_NO_CODE:
        snprintf(buf, len, "%s: inferred (%s); no code object of %s in the trace or --code-object to confirm it "
                 "from", at, why, kernel);
        break;
    default:
        snprintf(buf, len, "%s: inferred (%s)", at, why);
        break;
    }
    return buf;
}
