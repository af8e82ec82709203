/* CPython frame reader; see pywalk.h. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/pyframes/pywalk.h"

/* Offsets into the interpreter's structures, per minor version. */
struct layout {
    uint32_t hex_minor;          /* 0x030b0000 ... */
    int cframe;                  /* ts -> _PyCFrame* (3.11, 3.12); -1: ts holds current_frame */
    int cframe_current;          /* _PyCFrame.current_frame */
    int ts_current;              /* ts.current_frame (3.13) */
    int f_previous, f_code, f_instr, f_owner;
    /* f_instr: prev_instr (3.11, 3.12) or instr_ptr (3.13); CPython's own
     * line lookup uses (ptr - first code unit) * 2 for both. */
    int co_filename, co_qualname, co_linetable, co_firstlineno, co_code;
    int ascii_size, compact_size; /* sizeof PyASCIIObject / PyCompactUnicodeObject */
    int u_length, u_state;
    int b_size, b_sval;
};

/* Checked against each version's own headers by tests/pyframes/offsets.sh. */
static const struct layout layouts[] = {
    {0x030b0000, 56, 8, -1, 48, 32, 56, 69, 112, 128, 136, 72, 184, 48, 72, 16, 32, 16, 32},
    {0x030c0000, 56, 0, -1, 8, 0, 56, 70, 112, 128, 136, 68, 192, 40, 56, 16, 32, 16, 32},
    {0x030d0000, -1, 0, 72, 8, 0, 56, 70, 112, 128, 136, 68, 200, 40, 56, 16, 32, 16, 32},
};

#define OWNED_BY_CSTACK 3        /* 3.12+: a C-stack shim frame, not Python code */

static struct {
    pthread_once_t once;
    int present;                 /* symbols found */
    uint32_t version;
    struct layout lay;           /* valid when have_layout */
    int have_layout;
    void *(*this_tstate)(void);
    uint64_t code_type, unicode_type, bytes_type;
} py HV_HOT_DATA = {PTHREAD_ONCE_INIT, 0, 0, {0}, 0, NULL, 0, 0, 0};

/* This thread's frames were read with bounds checks and type checks:
 * hv_py_frames_key may follow the same pointers directly. */
static __thread int walk_ok __attribute__((tls_model("initial-exec")));

static int rd(void *dst, uint64_t addr, size_t n)
{
    return addr && hv_safe_read(dst, (const void *)(uintptr_t)addr, n) == (ssize_t)n ? 0 : -1;
}

static uint64_t u64_at(const unsigned char *b, int off)
{
    uint64_t v;
    memcpy(&v, b + off, 8);
    return v;
}

static uint32_t u32_at(const unsigned char *b, int off)
{
    uint32_t v;
    memcpy(&v, b + off, 4);
    return v;
}

/* 3.13's _Py_DebugOffsets at the start of _PyRuntime: the interpreter's own
 * statement of its layout (positions of the 3.13 struct itself). */
static void debug_offsets(struct layout *l, void *runtime)
{
    unsigned char d[568];
    if (!runtime || rd(d, (uint64_t)(uintptr_t)runtime, sizeof d) != 0 || memcmp(d, "xdebugpy", 8) != 0)
        return;
    if ((u64_at(d, 8) & 0xffff0000u) != 0x030d0000u || u64_at(d, 16) != 0) {
        l->hex_minor = 0;        /* free-threaded: another layout */
        return;
    }
    l->ts_current = (int)u64_at(d, 152 + 4 * 8);
    l->f_previous = (int)u64_at(d, 224 + 1 * 8);
    l->f_code = (int)u64_at(d, 224 + 2 * 8);
    l->f_instr = (int)u64_at(d, 224 + 3 * 8);
    l->f_owner = (int)u64_at(d, 224 + 5 * 8);
    l->co_filename = (int)u64_at(d, 272 + 1 * 8);
    l->co_qualname = (int)u64_at(d, 272 + 3 * 8);
    l->co_linetable = (int)u64_at(d, 272 + 4 * 8);
    l->co_firstlineno = (int)u64_at(d, 272 + 5 * 8);
    l->co_code = (int)u64_at(d, 272 + 9 * 8);
    l->b_size = (int)u64_at(d, 512 + 1 * 8);
    l->b_sval = (int)u64_at(d, 512 + 2 * 8);
    l->u_state = (int)u64_at(d, 536 + 1 * 8);
    l->u_length = (int)u64_at(d, 536 + 2 * 8);
    l->ascii_size = (int)u64_at(d, 536 + 3 * 8);
}

static void init(void)
{
    const unsigned long *ver = hv_real_dlsym(RTLD_DEFAULT, "Py_Version");  /* 3.11+ */
    void *tstate = hv_real_dlsym(RTLD_DEFAULT, "PyGILState_GetThisThreadState");
    if (!tstate)
        return;
    py.present = 1;
    py.this_tstate = (void *(*)(void))tstate;
    py.code_type = (uint64_t)(uintptr_t)hv_real_dlsym(RTLD_DEFAULT, "PyCode_Type");
    py.unicode_type = (uint64_t)(uintptr_t)hv_real_dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    py.bytes_type = (uint64_t)(uintptr_t)hv_real_dlsym(RTLD_DEFAULT, "PyBytes_Type");
    unsigned long v = 0;
    if (ver && rd(&v, (uint64_t)(uintptr_t)ver, sizeof v) == 0)
        py.version = (uint32_t)v;
    if (!py.code_type || !py.unicode_type || !py.bytes_type)
        return;
    for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
        if ((py.version & 0xffff0000u) == layouts[i].hex_minor) {
            py.lay = layouts[i];
            if (py.lay.hex_minor == 0x030d0000u)
                debug_offsets(&py.lay, hv_real_dlsym(RTLD_DEFAULT, "_PyRuntime"));
            py.have_layout = py.lay.hex_minor != 0;
        }
}

int hv_py_present(uint32_t *version)
{
    pthread_once(&py.once, init);
    if (version)
        *version = py.version;
    return py.present;
}

/* ---- location tables (Objects/locations.md, 3.11+) ---- */

static unsigned varint(const uint8_t *p, const uint8_t *end, const uint8_t **next)
{
    unsigned v = 0, shift = 0;
    while (p < end) {
        unsigned b = *p++;
        v |= (b & 63u) << shift;
        shift += 6;
        if (!(b & 64u) || shift > 24)
            break;
    }
    *next = p;
    return v;
}

static int svarint(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *n;
    unsigned u = varint(p, end, &n);
    return (u & 1) ? -(int)(u >> 1) : (int)(u >> 1);
}

int hv_py_addr2line(const uint8_t *t, uint32_t len, int first, int addr)
{
    if (addr < 0)
        return first;
    const uint8_t *p = t, *end = t + len;
    int line = first, start = 0;
    while (p < end) {
        unsigned b = *p;
        unsigned code = (b >> 3) & 15u;
        int units = (int)(b & 7u) + 1;
        switch (code) {
        case 13: /* no columns */
        case 14: /* long form */
            line += svarint(p + 1, end);
            break;
        case 11: line += 1; break;
        case 12: line += 2; break;
        default: break;  /* 0..9 short forms, 10 one-line +0, 15 no location */
        }
        int end_addr = start + units * 2;
        if (addr >= start && addr < end_addr)
            return code == 15 ? -1 : line;
        start = end_addr;
        do
            p++;
        while (p < end && !(*p & 128u));
    }
    return -1;
}

/* ---- objects ---- */

/* A str object as UTF-8 into out[cap]. 0, or -1 when unreadable. */
static int read_str(uint64_t obj, char *out, size_t cap)
{
    const struct layout *l = &py.lay;
    unsigned char b[512];
    out[0] = '\0';
    /* The ASCII header first: a short string object may end before a
     * compact one's header would, at the end of a mapping. */
    if (rd(b, obj, (size_t)l->ascii_size) != 0 || u64_at(b, 8) != py.unicode_type)
        return -1;
    uint64_t n = u64_at(b, l->u_length);
    uint32_t state = u32_at(b, l->u_state);
    unsigned kind = (state >> 2) & 7u, compact = (state >> 5) & 1u, ascii = (state >> 6) & 1u;
    if (!compact || (kind != 1 && kind != 2 && kind != 4))
        return -1;
    uint64_t data = obj + (uint64_t)(ascii ? l->ascii_size : l->compact_size);
    uint64_t want = n * kind;
    if (want > sizeof b)
        want = sizeof b - sizeof b % kind;
    if (rd(b, data, (size_t)want) != 0)
        return -1;
    size_t o = 0;
    for (uint64_t i = 0; i < want / kind; i++) {
        uint32_t c = kind == 1 ? b[i] : kind == 2 ? (uint32_t)(b[2 * i] | b[2 * i + 1] << 8) : u32_at(b, (int)(4 * i));
        unsigned char u[4];
        size_t k = c < 0x80 ? (u[0] = (unsigned char)c, 1)
                   : c < 0x800 ? (u[0] = (unsigned char)(0xC0 | c >> 6), u[1] = (unsigned char)(0x80 | (c & 63)), 2)
                   : c < 0x10000 ? (u[0] = (unsigned char)(0xE0 | c >> 12), u[1] = (unsigned char)(0x80 | (c >> 6 & 63)),
                                    u[2] = (unsigned char)(0x80 | (c & 63)), 3)
                                 : (u[0] = (unsigned char)(0xF0 | c >> 18), u[1] = (unsigned char)(0x80 | (c >> 12 & 63)),
                                    u[2] = (unsigned char)(0x80 | (c >> 6 & 63)), u[3] = (unsigned char)(0x80 | (c & 63)), 4);
        if (o + k + 1 > cap)
            break;
        memcpy(out + o, u, k);
        o += k;
    }
    out[o] = '\0';
    return 0;
}

#define TABLE_MAX (64u << 10)

/* Line of the frame's current instruction. */
static int frame_line(const unsigned char *co, uint64_t code, uint64_t instr)
{
    const struct layout *l = &py.lay;
    int first = (int)u32_at(co, l->co_firstlineno);
    uint64_t tab = u64_at(co, l->co_linetable);
    unsigned char hdr[64];
    if (rd(hdr, tab, (size_t)l->b_sval) != 0 || u64_at(hdr, 8) != py.bytes_type)
        return -1;
    uint64_t n = u64_at(hdr, l->b_size);
    if (n > TABLE_MAX)
        n = TABLE_MAX;
    int64_t units = ((int64_t)instr - (int64_t)(code + (uint64_t)l->co_code)) / 2;
    int addr = (int)(units < -1 ? -1 : units > (1 << 28) ? (1 << 28) : units) * 2;
    uint8_t small[1024], *t = n <= sizeof small ? small : malloc(n);
    if (!t)
        return -1;
    int line = rd(t, tab + (uint64_t)l->b_sval, n) == 0 ? hv_py_addr2line(t, (uint32_t)n, first, addr) : -1;
    if (t != small)
        free(t);
    return line;
}

#define KEY_FRAMES 4

uint64_t hv_py_thread_walked(void) { return walk_ok != 0; }

uint64_t hv_py_frames_key(void)
{
    if (!walk_ok)
        return 0;
    const struct layout *l = &py.lay;
    const char *ts = py.this_tstate();
    if (!ts)
        return 0;
    const char *frame;
    if (l->cframe >= 0) {
        const char *cf = *(const char *const *)(ts + l->cframe);
        frame = cf ? *(const char *const *)(cf + l->cframe_current) : NULL;
    } else {
        frame = *(const char *const *)(ts + l->ts_current);
    }
    uint64_t h = 0;
    for (int i = 0; i < KEY_FRAMES && frame; i++) {
        h = (h ^ *(const uint64_t *)(frame + l->f_instr)) * 0x100000001b3ull;
        frame = *(const char *const *)(frame + l->f_previous);
    }
    return h;
}

int hv_py_walk(hv_py_frame_fn fn, void *ctx, uint32_t max, uint32_t *more)
{
    *more = 0;
    if (!hv_py_present(NULL))
        return HV_PY_NO_THREAD;
    if (!py.have_layout)
        return HV_PY_UNSUPPORTED;
    const struct layout *l = &py.lay;
    uint64_t ts = (uint64_t)(uintptr_t)py.this_tstate();
    if (!ts)
        return HV_PY_NO_THREAD;
    uint64_t frame;
    if (l->cframe >= 0) {
        uint64_t cf;
        if (rd(&cf, ts + (uint64_t)l->cframe, 8) != 0 || rd(&frame, cf + (uint64_t)l->cframe_current, 8) != 0)
            return cf ? HV_PY_UNREADABLE : HV_PY_OK;
    } else if (rd(&frame, ts + (uint64_t)l->ts_current, 8) != 0) {
        return HV_PY_UNREADABLE;
    }
    struct hv_py_frame_text out;
    uint32_t n = 0;
    /* A frame chain is at most a few thousand deep (the recursion limit);
     * the bound keeps a corrupt cycle from spinning. */
    for (uint32_t guard = 0; frame && guard < 100000; guard++) {
        unsigned char f[80], co[256];
        if (rd(f, frame, (size_t)l->f_owner + 1) != 0)
            return HV_PY_UNREADABLE;
        uint64_t prev = u64_at(f, l->f_previous);
        if (f[l->f_owner] == OWNED_BY_CSTACK && l->hex_minor >= 0x030c0000u) {
            frame = prev;
            continue;
        }
        uint64_t code = u64_at(f, l->f_code);
        if (rd(co, code, (size_t)l->co_code) != 0 || u64_at(co, 8) != py.code_type)
            return HV_PY_UNREADABLE;
        if (n == max) {
            (*more)++;
            frame = prev;
            continue;
        }
        uint64_t instr = u64_at(f, l->f_instr);
        if (read_str(u64_at(co, l->co_filename), out.file, sizeof out.file) != 0 ||
            read_str(u64_at(co, l->co_qualname), out.func, sizeof out.func) != 0)
            return HV_PY_UNREADABLE;
        out.line = frame_line(co, code, instr);
        n++;
        walk_ok = 1;
        if (fn(ctx, &out))
            break;
        frame = prev;
    }
    return HV_PY_OK;
}
