/*
 * Caller stacks (HIPVIS_STACKS=1; docs/evidence.md): at every copy, memset,
 * kernel launch and graph launch, the return addresses of the caller are
 * taken, hipvis's own frames dropped, and the stack deduplicated into a
 * per-process table: its first use is recorded in full (HV_REC_STACK with
 * frames), later uses by id. The analyzer symbolizes offline from memory
 * map snapshots (HV_REC_MAPS) and the ELF symbol tables of the files.
 *
 * Unwinder: libunwind's unw_backtrace (Debian libunwind8), loaded with
 * dlopen(RTLD_LOCAL) on first use rather than linked: linking it would put
 * its _Unwind_* and backtrace definitions into the global scope of every
 * traced process and change how C++ exceptions unwind there. Without it,
 * glibc's backtrace() (libgcc's unwinder) is used.
 *
 * Memory maps: a snapshot is recorded before the first stack and again
 * when a new stack holds an address outside every object of the last
 * snapshot and the loader's dlopen/dlclose counters moved since. dlopen is deliberately not
 * intercepted: glibc resolves a dlopen'ed name against the RUNPATH and
 * $ORIGIN of the object that called dlopen, which an interposed dlopen
 * would change to libhipvis's. An object unloaded and replaced by another
 * at the same addresses is not noticed (its stacks keep the old names).
 */
#include <dlfcn.h>
#include <execinfo.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/grow.h"
#include "common/u64map.h"
#include "tracer/evidence/evidence_int.h"

#define HV_STACK_IDS 16384u        /* distinct stacks with an id; more are recorded in full each time */
#define HV_STACK_SKIP_MAX 16u      /* hipvis frames above the caller, at most */

struct module {
    uint64_t lo, hi, bias;
    char *path;
};

static pthread_mutex_t stacks_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t unwinder_once = PTHREAD_ONCE_INIT;
static int (*unwind)(void **buf, int size);
static uint64_t self_lo, self_hi;          /* libhipvis's own code */
static struct hv_u64map stack_ids;        /* hash of the frames -> id */
static uint32_t next_id = 1;
static struct module *modules;
static uint32_t nmodules, generation;

/* [*lo, *hi): the extent of an object's loaded segments (empty: hi <= lo). */
static void load_extent(const struct dl_phdr_info *info, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        *lo = a < *lo ? a : *lo;
        *hi = a + ph->p_memsz > *hi ? a + ph->p_memsz : *hi;
    }
}

static int self_range(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    uint64_t want = (uint64_t)(uintptr_t)ctx, lo, hi;
    load_extent(info, &lo, &hi);
    if (want < lo || want >= hi)
        return 0;
    self_lo = lo;
    self_hi = hi;
    return 1;
}

static void load_unwinder(void)
{
    void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
    if (h) {
        unwind = (int (*)(void **, int))dlsym(h, "unw_backtrace");
        /* Per-thread caching of unwind info makes repeated stacks cheap
         * (UNW_CACHE_PER_THREAD = 2 in libunwind.h). */
        int (*policy)(void *, int) = (int (*)(void *, int))dlsym(h, "_ULx86_64_set_caching_policy");
        void **space = (void **)dlsym(h, "_ULx86_64_local_addr_space");
        if (policy && space)
            policy(*space, 2);
    }
    if (!unwind)
        unwind = backtrace;
    dl_iterate_phdr(self_range, (void *)(uintptr_t)&load_unwinder);
}

/* ---- memory maps ---- */

struct snap_ctx {
    struct module *m;
    uint32_t n, cap;
};

static int collect(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    struct snap_ctx *c = ctx;
    uint64_t lo, hi;
    load_extent(info, &lo, &hi);
    if (hi <= lo)
        return 0;
    if (!HV_GROW(c->m, c->n, c->cap, 64))
        return 1;
    char exe[4096];
    const char *path = info->dlpi_name;
    if (!path || !*path) {   /* the main program */
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        exe[n > 0 ? n : 0] = '\0';
        path = exe;
    }
    c->m[c->n++] = (struct module){lo, hi, info->dlpi_addr, strdup(path)};
    return 0;
}

static void free_modules(struct module *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        free(m[i].path);
    free(m);
}

static int maps_changed(void);

/* New snapshot, recorded after call `seq`. Caller holds stacks_lock. */
static void snapshot_maps(struct hv_thread_ctx *t, uint64_t seq)
{
    struct snap_ctx c = {NULL, 0, 0};
    if (!generation)
        maps_changed();   /* the counters this snapshot reflects */
    dl_iterate_phdr(collect, &c);
    free_modules(modules, nmodules);
    modules = c.m;
    nmodules = c.n;
    generation++;
    for (uint32_t i = 0; i < nmodules; i++) {
        const struct module *m = &modules[i];
        size_t len = m->path ? strlen(m->path) : 0;
        if (len > 4000)
            len = 4000;
        struct hv_map *r = hv_aux_begin(t, HV_REC_MAPS, (uint32_t)(sizeof *r + len), seq);
        if (!r)
            continue;
        r->lo = m->lo;
        r->hi = m->hi;
        r->bias = m->bias;
        r->generation = generation;
        r->index = i;
        r->count = nmodules;
        r->path_len = (uint32_t)len;
        memcpy(r + 1, m->path ? m->path : "", len);
        hv_aux_commit(t, r);
    }
}

/* dlopen/dlclose counters: a snapshot is only worth taking when they moved
 * (a pc outside every object can also be JIT code or a libffi closure). */
static int load_counts(struct dl_phdr_info *info, size_t size, void *ctx)
{
    (void)size;
    *(unsigned long long *)ctx = info->dlpi_adds * 1000003ull + info->dlpi_subs;
    return 1;
}

static unsigned long long maps_sig;

static int maps_changed(void)
{
    unsigned long long sig = 0;
    dl_iterate_phdr(load_counts, &sig);
    if (sig == maps_sig)
        return 0;
    maps_sig = sig;
    return 1;
}

static int all_mapped(void *const *pc, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t a = (uint64_t)(uintptr_t)pc[i];
        uint32_t k = 0;
        while (k < nmodules && (a < modules[k].lo || a >= modules[k].hi))
            k++;
        if (k == nmodules)
            return 0;
    }
    return 1;
}

/* ---- the stack table ---- */

static void lock_before_fork(void) { pthread_mutex_lock(&stacks_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&stacks_lock); }
/* The child's trace is a new file: its stacks and maps start over. */
static void child_after_fork(void)
{
    pthread_mutex_init(&stacks_lock, NULL);
    hv_u64map_clear(&stack_ids);
    next_id = 1;
    generation = 0;
    maps_sig = 0;
}

static void setup_once(void)
{
    load_unwinder();
    pthread_atfork(lock_before_fork, unlock_after_fork, child_after_fork);
}

/* Id of the stack with this hash: *fresh when it was just entered. 0 when
 * HV_STACK_IDS are given out (or out of memory). Caller holds stacks_lock. */
static uint32_t stack_id(uint64_t hash, int *fresh)
{
    uint32_t id = hv_u64map_get(&stack_ids, hash);
    *fresh = id == HV_U64MAP_NONE && next_id <= HV_STACK_IDS && hv_u64map_put(&stack_ids, hash, next_id) == 0;
    if (*fresh)
        return next_id++;
    return id == HV_U64MAP_NONE ? 0 : id;
}

void hv_stacks_emit(struct hv_thread_ctx *t, uint64_t seq)
{
    void *buf[HV_STACK_MAX_FRAMES + HV_STACK_SKIP_MAX];
    pthread_once(&unwinder_once, setup_once);
    int n = unwind(buf, (int)(sizeof buf / sizeof buf[0]));
    int skip = 0;
    while (skip < n && (uint64_t)(uintptr_t)buf[skip] >= self_lo && (uint64_t)(uintptr_t)buf[skip] < self_hi)
        skip++;
    void **pc = buf + skip;
    n -= skip;
    if (n > (int)HV_STACK_MAX_FRAMES)
        n = HV_STACK_MAX_FRAMES;
    if (n < 0)
        n = 0;
    uint64_t hash = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
    for (int i = 0; i < n; i++)
        hash = hv_mix64(hash ^ (uint64_t)(uintptr_t)pc[i]);

    int fresh;
    pthread_mutex_lock(&stacks_lock);
    uint32_t id = stack_id(hash, &fresh);
    if ((fresh || !id) && (!generation || (!all_mapped(pc, n) && maps_changed())))
        snapshot_maps(t, seq);
    pthread_mutex_unlock(&stacks_lock);

    uint32_t nframes = fresh || !id ? (uint32_t)n : 0;
    struct hv_stack *r = hv_aux_begin(t, HV_REC_STACK, (uint32_t)(sizeof *r + 8u * nframes), seq);
    if (!r)
        return;
    r->id = id;
    r->nframes = nframes;
    for (uint32_t i = 0; i < nframes; i++) {
        uint64_t v = (uint64_t)(uintptr_t)pc[i];
        memcpy((char *)(r + 1) + 8u * i, &v, 8);
    }
    hv_aux_commit(t, r);
}

/* For a caller that takes stacks in a signal handler, which must not load
 * the unwinder itself (hostcheck): libunwind's unw_backtrace, loaded now,
 * or NULL without it (glibc's backtrace is not safe there). */
int (*hv_stacks_unwinder(void))(void **, int)
{
    pthread_once(&unwinder_once, setup_once);
    return unwind == backtrace ? NULL : unwind;
}

/* A memory-map snapshot after call `seq` unless the last one still holds
 * (pcs recorded outside HV_REC_STACK need one to be symbolized). */
void hv_stacks_maps(struct hv_thread_ctx *t, uint64_t seq)
{
    pthread_once(&unwinder_once, setup_once);
    pthread_mutex_lock(&stacks_lock);
    if (!generation || maps_changed())
        snapshot_maps(t, seq);
    pthread_mutex_unlock(&stacks_lock);
}
