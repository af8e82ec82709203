/*
 * double_memory.c - allocations, copies, memsets and pointer attributes of
 * the HIP runtime test double, plus the h2a / h2b fault hooks.
 *
 * TEST-ONLY: tests/runtime-double is a host-memory stand-in for
 * libamdhip64.so.5 used by hipvis tests. Never installed.
 *
 * "Device" memory is aligned host memory. Freed device blocks stay mapped in
 * a quarantine, filled with 0xDB, so a kernel reading through a dangling
 * pointer sees garbage instead of crashing; hipMalloc of the same size reuses
 * the most recently freed block (same address), as a caching allocator does.
 * Copies and memsets execute as stream operations: a copy reads its source
 * when it executes (pinned and device sources), except pageable host sources
 * of asynchronous copies, which are snapshotted at enqueue as the real
 * runtime stages them. An asynchronous copy into pageable memory is
 * synchronous with the host.
 *
 * Pinned and managed memory are mapped twice from one memfd: the program's
 * mapping and an alias only the double's device side uses, as a GPU's DMA
 * engine and its kernels reach the physical pages and not the CPU's page
 * tables. The copy engine and memsets write and read such memory through the
 * alias, and a kernel's pointer arguments into managed memory are handed to
 * it as alias addresses (double_kernel.c). A tracer that revokes the host's
 * access to a range while an operation is in flight (hipvis
 * HIPVIS_HOSTCHECK) then sees only the program's accesses. Managed blocks
 * are not quarantined: hipFree unmaps both mappings.
 */
#include "double_int.h"

#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define QUARANTINE_MAX_BLOCKS 256
#define QUARANTINE_MAX_BYTES ((size_t)256 << 20)
#define POISON 0xDB

struct alloc {
    uintptr_t base;
    size_t size;
    enum hd_alloc_kind kind;
    unsigned flags;
    int device;
    bool freed;
    uint64_t free_order;
    uintptr_t dma;        /* pinned, managed: the device side's alias of [base, base+size), 0 none */
};

/* Sorted by base; blocks never overlap (quarantined blocks stay allocated). */
static struct alloc *g_allocs;
static size_t g_nallocs, g_cap_allocs;
static size_t g_quarantined, g_quarantined_bytes;
static uint64_t g_free_counter;
static pthread_mutex_t g_mem = PTHREAD_MUTEX_INITIALIZER;

/* h2a: the deferred window of the last copy into each destination. */
struct deferred {
    uintptr_t dst;
    unsigned char *bytes;
    size_t len;
    struct deferred *next;
};
static struct deferred *g_deferred;

/* Index of the block holding p (live or quarantined), or -1. g_mem held. */
static long find_block(uintptr_t p)
{
    size_t lo = 0, hi = g_nallocs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g_allocs[mid].base <= p)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return -1;
    struct alloc *a = &g_allocs[lo - 1];
    if (p < a->base + (a->size ? a->size : 1))
        return (long)(lo - 1);
    return -1;
}

static void insert_block(uintptr_t base, size_t size, enum hd_alloc_kind kind, unsigned flags,
                         int device, uintptr_t dma)
{
    if (g_nallocs == g_cap_allocs) {
        g_cap_allocs = g_cap_allocs ? g_cap_allocs * 2 : 64;
        g_allocs = hd_xrealloc(g_allocs, g_cap_allocs * sizeof *g_allocs);
    }
    size_t i = g_nallocs;
    while (i > 0 && g_allocs[i - 1].base > base) {
        g_allocs[i] = g_allocs[i - 1];
        i--;
    }
    g_allocs[i] = (struct alloc){base, size, kind, flags, device, false, 0, dma};
    g_nallocs++;
}

static void remove_block(long i)
{
    memmove(&g_allocs[i], &g_allocs[i + 1], (g_nallocs - (size_t)i - 1) * sizeof *g_allocs);
    g_nallocs--;
}

static void drop_deferred(uintptr_t base, size_t size)
{
    for (struct deferred **pp = &g_deferred; *pp;) {
        struct deferred *d = *pp;
        if (d->dst >= base && d->dst < base + size) {
            *pp = d->next;
            free(d->bytes);
            free(d);
        } else {
            pp = &d->next;
        }
    }
}

static void evict_quarantine(void)
{
    while (g_quarantined > QUARANTINE_MAX_BLOCKS || g_quarantined_bytes > QUARANTINE_MAX_BYTES) {
        long oldest = -1;
        for (size_t i = 0; i < g_nallocs; i++)
            if (g_allocs[i].freed &&
                (oldest < 0 || g_allocs[i].free_order < g_allocs[oldest].free_order))
                oldest = (long)i;
        if (oldest < 0)
            return;
        g_quarantined--;
        g_quarantined_bytes -= g_allocs[oldest].size;
        free((void *)g_allocs[oldest].base);
        remove_block(oldest);
    }
}

void *hd_managed_alias(const void *p)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    void *at = NULL;
    if (i >= 0 && !g_allocs[i].freed && g_allocs[i].kind == HD_A_DEVICE && g_allocs[i].dma)
        at = (void *)(g_allocs[i].dma + ((uintptr_t)p - g_allocs[i].base));
    pthread_mutex_unlock(&g_mem);
    return at;
}

void *hd_dma(const void *p)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    uintptr_t at = (uintptr_t)p;
    if (i >= 0 && g_allocs[i].dma)
        at = g_allocs[i].dma + (at - g_allocs[i].base);
    pthread_mutex_unlock(&g_mem);
    return (void *)at;
}

int hd_mem_lookup(const void *p, void **base, size_t *size)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    int kind = -1;
    if (i >= 0 && !g_allocs[i].freed) {
        kind = (int)g_allocs[i].kind;
        if (base)
            *base = (void *)g_allocs[i].base;
        if (size)
            *size = g_allocs[i].size;
    }
    pthread_mutex_unlock(&g_mem);
    return kind;
}

hipError_t hd_mem_check(const void *p, size_t n)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    hipError_t e = hipSuccess;
    if (i >= 0) {
        const struct alloc *a = &g_allocs[i];
        if (a->freed)
            e = hipErrorInvalidValue;
        else if (a->kind == HD_A_DEVICE && (uintptr_t)p + n > a->base + a->size)
            e = hipErrorInvalidValue;
    }
    pthread_mutex_unlock(&g_mem);
    return e;
}

/* ---- allocation API ----------------------------------------------------- */

static hipError_t device_alloc(void **ptr, size_t size, unsigned flags)
{
    hd_init();
    if (!ptr)
        return hd_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return hipSuccess;
    int dev = hd_current_device();
    pthread_mutex_lock(&g_mem);
    long reuse = -1;
    for (size_t i = 0; i < g_nallocs; i++) {
        const struct alloc *a = &g_allocs[i];
        if (a->freed && a->size == size && a->device == dev &&
            (reuse < 0 || a->free_order > g_allocs[reuse].free_order))
            reuse = (long)i;
    }
    if (reuse >= 0) {
        struct alloc *a = &g_allocs[reuse];
        a->freed = false;
        a->flags = flags;
        g_quarantined--;
        g_quarantined_bytes -= a->size;
        *ptr = (void *)a->base;
    } else {
        void *p = NULL;
        if (posix_memalign(&p, 256, size) != 0) {
            pthread_mutex_unlock(&g_mem);
            return hd_ret(hipErrorOutOfMemory);
        }
        memset(p, 0, size);
        insert_block((uintptr_t)p, size, HD_A_DEVICE, flags, dev, 0);
        *ptr = p;
    }
    pthread_mutex_unlock(&g_mem);
    return hipSuccess;
}

hipError_t hipMalloc(void **ptr, size_t size) { return device_alloc(ptr, size, 0); }

hipError_t hipExtMallocWithFlags(void **ptr, size_t sizeBytes, unsigned int flags)
{
    if (flags > 3) /* default, fine-grained, signal memory, uncached */
        return hd_ret(hipErrorInvalidValue);
    return device_alloc(ptr, sizeBytes, flags);
}

static hipError_t malloc_async(void **dev_ptr, size_t size, hipStream_t stream)
{
    hd_init();
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, false);
    hipError_t e = !s ? hipErrorInvalidHandle : s->cap ? hipErrorStreamCaptureUnsupported : hipSuccess;
    hd_unlock();
    if (e != hipSuccess)
        return hd_ret(e);
    return device_alloc(dev_ptr, size, 0);
}

hipError_t hipMallocAsync(void **dev_ptr, size_t size, hipStream_t stream)
{
    return malloc_async(dev_ptr, size, stream);
}

/* Pools are not modelled: every pool allocates as the device's default
 * pool does (hipMallocAsync). */
hipError_t hipMallocFromPoolAsync(void **dev_ptr, size_t size, hipMemPool_t mem_pool, hipStream_t stream)
{
    if (!mem_pool)
        return hd_ret(hipErrorInvalidValue);
    return malloc_async(dev_ptr, size, stream);
}

/* Length of both mappings of a pinned or managed block. */
static size_t mapped_len(size_t size) { return (size + 4095) & ~(size_t)4095; }

/* Maps `size` bytes twice from one memfd: *p for the program, *alias for the
 * device side. Returns false (nothing mapped) when it cannot. */
static bool map_twice(const char *name, size_t size, void **p, void **alias)
{
    size_t len = mapped_len(size);
    void *a = MAP_FAILED, *b = MAP_FAILED;
    int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0 && ftruncate(fd, (off_t)len) == 0) {
        a = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        b = a != MAP_FAILED ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    }
    if (fd >= 0)
        close(fd);
    if (a == MAP_FAILED || b == MAP_FAILED) {
        if (a != MAP_FAILED)
            munmap(a, len);
        return false;
    }
    *p = a;
    *alias = b;
    return true;
}

/* Unmaps a pinned or managed block's two mappings and forgets it. g_mem held. */
static void unmap_block(long i)
{
    struct alloc *a = &g_allocs[i];
    drop_deferred(a->base, a->size);
    munmap((void *)a->dma, mapped_len(a->size));
    munmap((void *)a->base, mapped_len(a->size));
    remove_block(i);
}

/* Moves a device block to the quarantine. g_mem held. */
static void quarantine(long i)
{
    struct alloc *a = &g_allocs[i];
    memset((void *)a->base, POISON, a->size);
    drop_deferred(a->base, a->size);
    a->freed = true;
    a->free_order = ++g_free_counter;
    g_quarantined++;
    g_quarantined_bytes += a->size;
    evict_quarantine();
}

void hd_mem_free_now(void *p)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    if (i >= 0 && !g_allocs[i].freed && g_allocs[i].base == (uintptr_t)p &&
        g_allocs[i].kind == HD_A_DEVICE) {
        if (g_allocs[i].dma)
            unmap_block(i);
        else
            quarantine(i);
    }
    pthread_mutex_unlock(&g_mem);
}

/* Frees a device, managed or pinned block after the implicit device
 * synchronization that hipFree / hipHostFree perform. */
static hipError_t free_common(void *ptr, bool host_api)
{
    hd_init();
    if (!ptr)
        return hipSuccess;
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)ptr);
    bool ok = i >= 0 && !g_allocs[i].freed && g_allocs[i].base == (uintptr_t)ptr &&
              (host_api ? g_allocs[i].kind == HD_A_PINNED : g_allocs[i].kind != HD_A_REGISTERED);
    pthread_mutex_unlock(&g_mem);
    if (!ok)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    hipError_t e = hd_capture_unsafe_call();
    if (e == hipSuccess)
        hd_all_devices_drain();
    hd_unlock();
    if (e != hipSuccess)
        return hd_ret(e);
    pthread_mutex_lock(&g_mem);
    i = find_block((uintptr_t)ptr);
    if (i < 0 || g_allocs[i].freed || g_allocs[i].base != (uintptr_t)ptr) {
        e = hipErrorInvalidValue; /* freed concurrently */
    } else if (g_allocs[i].kind == HD_A_DEVICE && !g_allocs[i].dma) {
        quarantine(i);
    } else {
        unmap_block(i);
    }
    pthread_mutex_unlock(&g_mem);
    return hd_ret(e);
}

hipError_t hipFree(void *ptr) { return free_common(ptr, false); }
hipError_t hipHostFree(void *ptr) { return free_common(ptr, true); }
/* hipFreeHost releases hipMallocHost memory (CLR hip_memory.cpp). */
hipError_t hipFreeHost(void *ptr) { return free_common(ptr, true); }

hipError_t hipFreeAsync(void *dev_ptr, hipStream_t stream)
{
    hd_init();
    if (!dev_ptr)
        return hipSuccess;
    if (hd_mem_lookup(dev_ptr, NULL, NULL) != HD_A_DEVICE)
        return hd_ret(hipErrorInvalidValue);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, false);
    hipError_t e = hipErrorInvalidHandle;
    if (s && s->cap) {
        e = hipErrorStreamCaptureUnsupported;
    } else if (s) {
        struct hd_work w = {.kind = HD_W_FREE};
        w.u.free_ptr = dev_ptr;
        e = hd_submit_work(s, &w, NULL);
    }
    hd_unlock();
    return hd_ret(e);
}

static hipError_t host_alloc(void **ptr, size_t size, unsigned int flags)
{
    hd_init();
    const unsigned known = hipHostMallocPortable | hipHostMallocMapped |
                           hipHostMallocWriteCombined | hipHostMallocNumaUser |
                           hipHostMallocCoherent | hipHostMallocNonCoherent;
    if (!ptr || (flags & ~known) ||
        ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)))
        return hd_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return hipSuccess;
    void *p, *dma;
    if (!map_twice("hipdouble-pinned", size, &p, &dma))
        return hd_ret(hipErrorOutOfMemory);
    pthread_mutex_lock(&g_mem);
    insert_block((uintptr_t)p, size, HD_A_PINNED, flags, hd_current_device(), (uintptr_t)dma);
    pthread_mutex_unlock(&g_mem);
    *ptr = p;
    return hipSuccess;
}

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags)
{
    return host_alloc(ptr, size, flags);
}
hipError_t hipMallocHost(void **ptr, size_t size) { return host_alloc(ptr, size, 0); }
hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    return host_alloc(ptr, size, flags);
}

hipError_t hipHostRegister(void *hostPtr, size_t sizeBytes, unsigned int flags)
{
    hd_init();
    if (!hostPtr || !sizeBytes || flags > 0xF)
        return hd_ret(hipErrorInvalidValue);
    hipError_t e = hipSuccess;
    pthread_mutex_lock(&g_mem);
    uintptr_t b = (uintptr_t)hostPtr;
    for (size_t i = 0; i < g_nallocs; i++) {
        const struct alloc *a = &g_allocs[i];
        if (b < a->base + a->size && a->base < b + sizeBytes)
            e = hipErrorHostMemoryAlreadyRegistered;
    }
    if (e == hipSuccess)
        insert_block(b, sizeBytes, HD_A_REGISTERED, flags, hd_current_device(), 0);
    pthread_mutex_unlock(&g_mem);
    return hd_ret(e);
}

hipError_t hipHostUnregister(void *hostPtr)
{
    hd_init();
    pthread_mutex_lock(&g_mem);
    long i = hostPtr ? find_block((uintptr_t)hostPtr) : -1;
    hipError_t e = hipErrorHostMemoryNotRegistered;
    if (i >= 0 && g_allocs[i].kind == HD_A_REGISTERED && g_allocs[i].base == (uintptr_t)hostPtr) {
        drop_deferred(g_allocs[i].base, g_allocs[i].size);
        remove_block(i);
        e = hipSuccess;
    }
    pthread_mutex_unlock(&g_mem);
    return hd_ret(e);
}

/* ---- pointer attributes ------------------------------------------------- */

static bool pointer_info(const void *p, struct alloc *out)
{
    pthread_mutex_lock(&g_mem);
    long i = find_block((uintptr_t)p);
    bool ok = i >= 0 && !g_allocs[i].freed;
    if (ok)
        *out = g_allocs[i];
    pthread_mutex_unlock(&g_mem);
    return ok;
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr)
{
    hd_init();
    struct alloc a;
    if (!attributes || !ptr)
        return hd_ret(hipErrorInvalidValue);
    if (!pointer_info(ptr, &a))
        return hd_ret(hipErrorInvalidValue);
    memset(attributes, 0, sizeof *attributes);
    attributes->device = a.device;
    attributes->allocationFlags = a.flags;
    attributes->devicePointer = (void *)ptr;
    if (a.kind == HD_A_DEVICE) {
        attributes->memoryType = hipMemoryTypeDevice;
    } else {
        attributes->memoryType = hipMemoryTypeHost;
        attributes->hostPointer = (void *)ptr;
    }
    return hipSuccess;
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t ptr)
{
    hd_init();
    struct alloc a;
    if (!data || !ptr)
        return hd_ret(hipErrorInvalidValue);
    bool known = pointer_info(ptr, &a);
    if (attribute == HIP_POINTER_ATTRIBUTE_MAPPED) {
        *(int *)data = known;
        return hipSuccess;
    }
    if (!known)
        return hd_ret(hipErrorInvalidValue);
    switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = a.kind == HD_A_DEVICE ? hipMemoryTypeDevice : hipMemoryTypeHost;
        break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
        *(void **)data = ptr;
        break;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
        *(void **)data = a.kind == HD_A_DEVICE ? NULL : ptr;
        break;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
        *(int *)data = a.device;
        break;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
        *(void **)data = (void *)a.base;
        break;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
        *(size_t *)data = a.size;
        break;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID:
        *(unsigned long long *)data = (unsigned long long)a.base;
        break;
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
        *(int *)data = 0;
        break;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
        *(int *)data = 1;
        break;
    default:
        return hd_ret(hipErrorNotSupported);
    }
    return hipSuccess;
}

/* ---- copy and memset execution ----------------------------------------- */

bool hd_copy_needs_delay(const struct hd_work *w)
{
    return hd_cfg.thread_mode && (hd_cfg.faults & HD_FAULT_H2B) && w->u.copy.pinned_src &&
           !w->u.copy.staged;
}

/* h2a: the window [off, off+len) of a copy from the host into device memory is written
 * late: the copy lands, then the previous copy's window to the same
 * destination lands over it (an older write arriving after the current one),
 * and this copy's window is kept to land after the next copy. `dst` is the
 * destination as the program names it, `at` where the copy engine writes it. */
static void h2a_apply(const unsigned char *dst, unsigned char *at, size_t n)
{
    size_t off = hd_cfg.h2a_offset, len = hd_cfg.h2a_bytes;
    if (n < off + len || hd_mem_lookup(dst, NULL, NULL) != HD_A_DEVICE)
        return;
    pthread_mutex_lock(&g_mem);
    struct deferred *d = g_deferred;
    while (d && d->dst != (uintptr_t)dst)
        d = d->next;
    unsigned char *mine = hd_xmalloc(len);
    memcpy(mine, at + off, len);
    if (d) {
        memcpy(at + off, d->bytes, d->len < len ? d->len : len);
        free(d->bytes);
    } else {
        d = hd_xcalloc(1, sizeof *d);
        d->dst = (uintptr_t)dst;
        d->next = g_deferred;
        g_deferred = d;
    }
    d->bytes = mine;
    d->len = len;
    pthread_mutex_unlock(&g_mem);
}

void hd_copy_execute(struct hd_work *w, int device)
{
    (void)device;
    const hipMemcpy3DParms *p = &w->u.copy.p;
    size_t width = p->extent.width, height = p->extent.height, depth = p->extent.depth;
    /* Pinned and managed memory through the copy engine's alias. */
    size_t doff = p->dstPos.x + p->dstPos.y * p->dstPtr.pitch + p->dstPos.z * p->dstPtr.pitch * p->dstPtr.ysize;
    unsigned char *dbase = (unsigned char *)hd_dma(p->dstPtr.ptr) + doff;
    const unsigned char *sbase;
    size_t spitch, sysize;
    if (w->u.copy.staged) {
        sbase = w->u.copy.staged;
        spitch = width;
        sysize = height;
    } else {
        sbase = (const unsigned char *)hd_dma(p->srcPtr.ptr) + p->srcPos.x + p->srcPos.y * p->srcPtr.pitch +
                p->srcPos.z * p->srcPtr.pitch * p->srcPtr.ysize;
        spitch = p->srcPtr.pitch;
        sysize = p->srcPtr.ysize;
    }
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < height; y++)
            memmove(dbase + z * p->dstPtr.pitch * p->dstPtr.ysize + y * p->dstPtr.pitch,
                    sbase + z * spitch * sysize + y * spitch, width);
    /* h2a models a late write against an H2D copy (ROCm/ATOM#1468): device
     * sources (D2D copies, a tracer's probe snapshots) are left alone. The
     * late write is the copy engine's (SDMA): copies the runtime runs as
     * blit kernels (HSA_ENABLE_SDMA=0, or at most GPU_FORCE_BLIT_COPY_SIZE
     * KiB) land in order. */
    if ((hd_cfg.faults & HD_FAULT_H2A) && hd_cfg.sdma && width > hd_cfg.blit_copy_bytes && height == 1 &&
        depth == 1 &&
        (w->u.copy.staged || hd_mem_lookup(p->srcPtr.ptr, NULL, NULL) != HD_A_DEVICE))
        h2a_apply((const unsigned char *)p->dstPtr.ptr + doff, dbase, width);
}

void hd_memset_execute(struct hd_work *w)
{
    const hipMemsetParams *p = &w->u.memset;
    size_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;
    for (size_t y = 0; y < p->height; y++) {
        unsigned char *row = (unsigned char *)hd_dma(p->dst) + y * pitch;
        for (size_t x = 0; x < p->width; x++) {
            switch (p->elementSize) {
            case 1:
                row[x] = (unsigned char)p->value;
                break;
            case 2: {
                uint16_t v = (uint16_t)p->value;
                memcpy(row + 2 * x, &v, 2);
                break;
            }
            default: {
                uint32_t v = p->value;
                memcpy(row + 4 * x, &v, 4);
                break;
            }
            }
        }
    }
}

/* ---- copy and memset API ----------------------------------------------- */

static bool host_side(int kind) { return kind == HD_A_PINNED || kind == HD_A_REGISTERED; }

/* Fills a 2D copy work item; stages a pageable source when `stage`. */
static void copy_work(struct hd_work *w, void *dst, size_t dpitch, const void *src, size_t spitch,
                      size_t width, size_t height, bool stage)
{
    memset(w, 0, sizeof *w);
    w->kind = HD_W_COPY;
    hipMemcpy3DParms *p = &w->u.copy.p;
    p->srcPtr = (hipPitchedPtr){(void *)src, spitch, width, height};
    p->dstPtr = (hipPitchedPtr){dst, dpitch, width, height};
    p->extent = (hipExtent){width, height, 1};
    p->kind = hipMemcpyDefault;
    int sk = hd_mem_lookup(src, NULL, NULL);
    w->u.copy.pinned_src = host_side(sk);
    if (stage && sk < 0) {
        unsigned char *buf = hd_xmalloc(width * height);
        for (size_t y = 0; y < height; y++)
            memcpy(buf + y * width, (const unsigned char *)src + y * spitch, width);
        w->u.copy.staged = buf;
    }
}

hipError_t hd_copy_work_1d(struct hd_work *w, void *dst, const void *src, size_t n,
                           bool stage_pageable)
{
    if (!dst || !src)
        return hipErrorInvalidValue;
    hipError_t e = hd_mem_check(dst, n);
    if (e == hipSuccess)
        e = hd_mem_check(src, n);
    if (e == hipSuccess)
        copy_work(w, dst, n, src, n, n, 1, stage_pageable);
    return e;
}

enum sync_kind { ASYNC, BLOCKING };

static hipError_t copy_common(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind, hipStream_t stream,
                              bool spt, enum sync_kind sync)
{
    hd_init();
    if ((unsigned)kind > hipMemcpyDefault)
        return hd_ret(hipErrorInvalidMemcpyDirection);
    if (width == 0 || height == 0)
        return hipSuccess;
    if (!dst || !src)
        return hd_ret(hipErrorInvalidValue);
    if (dpitch < width || spitch < width)
        return hd_ret(hipErrorInvalidPitchValue);
    hipError_t e = hd_mem_check(dst, dpitch * (height - 1) + width);
    if (e == hipSuccess)
        e = hd_mem_check(src, spitch * (height - 1) + width);
    if (e != hipSuccess)
        return hd_ret(e);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    if (!s) {
        hd_unlock();
        return hd_ret(hipErrorInvalidHandle);
    }
    /* Copies into pageable memory complete before the call returns. */
    if (!s->cap && hd_mem_lookup(dst, NULL, NULL) < 0)
        sync = BLOCKING;
    struct hd_work w;
    copy_work(&w, dst, dpitch, src, spitch, width, height, sync == ASYNC && !s->cap);
    e = sync == BLOCKING ? hd_submit_blocking(s, &w) : hd_submit_work(s, &w, NULL);
    hd_unlock();
    return hd_ret(e);
}

#define COPY1(dst, src, n, kind, stream, spt, sync) \
    copy_common((void *)(dst), (n), (src), (n), (n), 1, (kind), (stream), (spt), (sync))

hipError_t hipMemcpy(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
    return COPY1(dst, src, sizeBytes, kind, NULL, false, BLOCKING);
}
hipError_t hipMemcpy_spt(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind)
{
    return COPY1(dst, src, sizeBytes, kind, NULL, true, BLOCKING);
}
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                          hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, kind, stream, false, ASYNC);
}
hipError_t hipMemcpyAsync_spt(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                              hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, kind, stream, true, ASYNC);
}
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t sizeBytes, hipMemcpyKind kind,
                               hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, kind, stream, false, BLOCKING);
}
hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t sizeBytes)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyHostToDevice, NULL, false, BLOCKING);
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t sizeBytes)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToHost, NULL, false, BLOCKING);
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToDevice, NULL, false, BLOCKING);
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t sizeBytes, hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyHostToDevice, stream, false, ASYNC);
}
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t sizeBytes, hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream, false, ASYNC);
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                              hipStream_t stream)
{
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, false, ASYNC);
}
hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                       size_t height, hipMemcpyKind kind)
{
    return copy_common(dst, dpitch, src, spitch, width, height, kind, NULL, false, BLOCKING);
}
hipError_t hipMemcpy2D_spt(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                           size_t height, hipMemcpyKind kind)
{
    return copy_common(dst, dpitch, src, spitch, width, height, kind, NULL, true, BLOCKING);
}
hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                            size_t height, hipMemcpyKind kind, hipStream_t stream)
{
    return copy_common(dst, dpitch, src, spitch, width, height, kind, stream, false, ASYNC);
}
hipError_t hipMemcpy2DAsync_spt(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, hipMemcpyKind kind,
                                hipStream_t stream)
{
    return copy_common(dst, dpitch, src, spitch, width, height, kind, stream, true, ASYNC);
}

static hipError_t copy3d(const hipMemcpy3DParms *p, hipStream_t stream, bool spt,
                         enum sync_kind sync)
{
    hd_init();
    if (!p)
        return hd_ret(hipErrorInvalidValue);
    if (p->srcArray || p->dstArray)
        return hd_ret(hipErrorNotSupported);
    if ((unsigned)p->kind > hipMemcpyDefault)
        return hd_ret(hipErrorInvalidMemcpyDirection);
    size_t w = p->extent.width, h = p->extent.height, d = p->extent.depth;
    if (!w || !h || !d)
        return hipSuccess;
    if (!p->srcPtr.ptr || !p->dstPtr.ptr || p->srcPtr.pitch < p->srcPos.x + w ||
        p->dstPtr.pitch < p->dstPos.x + w || p->srcPtr.ysize < p->srcPos.y + h ||
        p->dstPtr.ysize < p->dstPos.y + h)
        return hd_ret(hipErrorInvalidValue);
    const unsigned char *src = (const unsigned char *)p->srcPtr.ptr + p->srcPos.x +
                               p->srcPos.y * p->srcPtr.pitch +
                               p->srcPos.z * p->srcPtr.pitch * p->srcPtr.ysize;
    size_t slice = p->srcPtr.pitch * p->srcPtr.ysize;
    hipError_t e = hd_mem_check(p->dstPtr.ptr, p->dstPtr.pitch * p->dstPtr.ysize * (p->dstPos.z + d));
    if (e == hipSuccess)
        e = hd_mem_check(p->srcPtr.ptr, slice * (p->srcPos.z + d));
    if (e != hipSuccess)
        return hd_ret(e);
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    if (!s) {
        hd_unlock();
        return hd_ret(hipErrorInvalidHandle);
    }
    if (!s->cap && hd_mem_lookup(p->dstPtr.ptr, NULL, NULL) < 0)
        sync = BLOCKING;
    struct hd_work wk = {.kind = HD_W_COPY};
    wk.u.copy.p = *p;
    int sk = hd_mem_lookup(p->srcPtr.ptr, NULL, NULL);
    wk.u.copy.pinned_src = host_side(sk);
    if (sync == ASYNC && !s->cap && sk < 0) {
        unsigned char *buf = hd_xmalloc(w * h * d);
        for (size_t z = 0; z < d; z++)
            for (size_t y = 0; y < h; y++)
                memcpy(buf + (z * h + y) * w, src + z * slice + y * p->srcPtr.pitch, w);
        wk.u.copy.staged = buf;
    }
    e = sync == BLOCKING ? hd_submit_blocking(s, &wk) : hd_submit_work(s, &wk, NULL);
    hd_unlock();
    return hd_ret(e);
}

hipError_t hipMemcpy3D(const hipMemcpy3DParms *p) { return copy3d(p, NULL, false, BLOCKING); }
hipError_t hipMemcpy3D_spt(const hipMemcpy3DParms *p) { return copy3d(p, NULL, true, BLOCKING); }
hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t stream)
{
    return copy3d(p, stream, false, ASYNC);
}

/* hipDrvMemcpy3D(Async) with the HIP 5.2 HIP_MEMCPY3D this double is built
 * against (hipMemoryType: host 0, device 1, array 2, unified 3): the same
 * copy as hipMemcpy3D of the pitched pointers it names. */
static hipError_t drv_copy3d(const HIP_MEMCPY3D *c, hipStream_t stream, enum sync_kind sync)
{
    hd_init();
    if (!c)
        return hd_ret(hipErrorInvalidValue);
    if (c->srcMemoryType == hipMemoryTypeArray || c->dstMemoryType == hipMemoryTypeArray)
        return hd_ret(hipErrorNotSupported);
    hipMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    void *src = c->srcMemoryType == hipMemoryTypeHost ? (void *)c->srcHost : (void *)c->srcDevice;
    void *dst = c->dstMemoryType == hipMemoryTypeHost ? c->dstHost : (void *)c->dstDevice;
    p.srcPtr = (hipPitchedPtr){src, c->srcPitch, c->WidthInBytes, c->srcHeight};
    p.dstPtr = (hipPitchedPtr){dst, c->dstPitch, c->WidthInBytes, c->dstHeight};
    p.srcPos = (hipPos){c->srcXInBytes, c->srcY, c->srcZ};
    p.dstPos = (hipPos){c->dstXInBytes, c->dstY, c->dstZ};
    p.extent = (hipExtent){c->WidthInBytes, c->Height, c->Depth};
    p.kind = hipMemcpyDefault;
    return copy3d(&p, stream, false, sync);
}

hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy) { return drv_copy3d(pCopy, NULL, BLOCKING); }
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream)
{
    return drv_copy3d(pCopy, stream, ASYNC);
}

/* hipMemcpyBatchAsync (ROCm 7.1+, hip_memory.cpp): each copy in order on
 * the stream as hipMemcpyAsync of kind Default; the first one refused is
 * reported through failIdx. Sources are read in stream order whatever the
 * attributes' srcAccessOrder says (Stream is the strictest). */
struct hd_copy_attr {
    int src_access_order;
    int src_loc[2], dst_loc[2];
    unsigned flags;
};
_Static_assert(sizeof(struct hd_copy_attr) == 24, "hipMemcpyAttributes");

hipError_t hipMemcpyBatchAsync(void **dsts, void **srcs, size_t *sizes, size_t count, void *attrs,
                               size_t *attrsIdxs, size_t numAttrs, size_t *failIdx, hipStream_t stream)
{
    hd_init();
    if (failIdx)
        *failIdx = SIZE_MAX;
    if (!count || !dsts || !srcs || !sizes || numAttrs > count || (numAttrs && (!attrs || !attrsIdxs)))
        return hd_ret(hipErrorInvalidValue);
    const struct hd_copy_attr *a = attrs;
    for (size_t k = 0; k < numAttrs; k++)
        if ((k == 0 ? attrsIdxs[k] != 0 : attrsIdxs[k] <= attrsIdxs[k - 1]) || attrsIdxs[k] >= count ||
            a[k].src_access_order < 1 || a[k].src_access_order > 3)
            return hd_ret(hipErrorInvalidValue);
        else if (a[k].flags & 0x200u) /* hipMemcpyFlagExtOpSwap */
            return hd_ret(hipErrorNotSupported);
    for (size_t i = 0; i < count; i++) {
        hipError_t e = sizes[i] && dsts[i] && srcs[i]
                           ? COPY1(dsts[i], srcs[i], sizes[i], hipMemcpyDefault, stream, false, ASYNC)
                           : hipErrorInvalidValue;
        if (e != hipSuccess) {
            if (failIdx)
                *failIdx = i;
            return hd_ret(e);
        }
    }
    return hipSuccess;
}

/* hipMemcpy3DBatchOp: pointer operands (type 1) with rows of rowLength
 * bytes and layers of layerHeight rows (0: packed by the extent). */
struct hd_operand {
    int type;
    union {
        struct {
            void *ptr;
            size_t row_length, layer_height;
            int loc[2];
        } ptr;
        struct {
            void *array;
            size_t x, y, z;
        } array;
    } op;
};
struct hd_op3d {
    struct hd_operand src, dst;
    hipExtent extent;
    int src_access_order;
    unsigned flags;
};
_Static_assert(sizeof(struct hd_op3d) == 112, "hipMemcpy3DBatchOp");

static hipPitchedPtr operand_ptr(const struct hd_operand *o, const hipExtent *e)
{
    size_t pitch = o->op.ptr.row_length ? o->op.ptr.row_length : e->width;
    size_t ysize = o->op.ptr.layer_height ? o->op.ptr.layer_height : e->height;
    return (hipPitchedPtr){o->op.ptr.ptr, pitch, e->width, ysize};
}

hipError_t hipMemcpy3DBatchAsync(size_t numOps, void *opList, size_t *failIdx, unsigned long long flags,
                                 hipStream_t stream)
{
    hd_init();
    if (failIdx)
        *failIdx = SIZE_MAX;
    if (!numOps || !opList || flags)
        return hd_ret(hipErrorInvalidValue);
    const struct hd_op3d *ops = opList;
    for (size_t i = 0; i < numOps; i++) {
        hipError_t e = hipSuccess;
        if (ops[i].src.type != 1 || ops[i].dst.type != 1)
            e = ops[i].src.type == 2 || ops[i].dst.type == 2 ? hipErrorNotSupported : hipErrorInvalidValue;
        else if (!ops[i].extent.width || !ops[i].extent.height || !ops[i].extent.depth)
            e = hipErrorInvalidValue;
        if (e == hipSuccess) {
            hipMemcpy3DParms p;
            memset(&p, 0, sizeof p);
            p.srcPtr = operand_ptr(&ops[i].src, &ops[i].extent);
            p.dstPtr = operand_ptr(&ops[i].dst, &ops[i].extent);
            p.extent = ops[i].extent;
            p.kind = hipMemcpyDefault;
            e = copy3d(&p, stream, false, ASYNC);
        }
        if (e != hipSuccess) {
            if (failIdx)
                *failIdx = i;
            return hd_ret(e);
        }
    }
    return hipSuccess;
}

static hipError_t peer_check(int dstDevice, int srcDevice)
{
    hd_init();
    if (dstDevice < 0 || dstDevice >= hd_cfg.devices || srcDevice < 0 ||
        srcDevice >= hd_cfg.devices)
        return hipErrorInvalidDevice;
    return hipSuccess;
}

hipError_t hipMemcpyPeer(void *dst, int dstDeviceId, const void *src, int srcDeviceId,
                         size_t sizeBytes)
{
    hipError_t e = peer_check(dstDeviceId, srcDeviceId);
    if (e != hipSuccess)
        return hd_ret(e);
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToDevice, NULL, false, BLOCKING);
}
hipError_t hipMemcpyPeerAsync(void *dst, int dstDeviceId, const void *src, int srcDevice,
                              size_t sizeBytes, hipStream_t stream)
{
    hipError_t e = peer_check(dstDeviceId, srcDevice);
    if (e != hipSuccess)
        return hd_ret(e);
    return COPY1(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, false, ASYNC);
}

static hipError_t memset_common(void *dst, unsigned value, unsigned elem, size_t pitch,
                                size_t width, size_t height, hipStream_t stream, bool spt,
                                enum sync_kind sync)
{
    hd_init();
    if (width == 0 || height == 0)
        return hipSuccess;
    if (!dst)
        return hd_ret(hipErrorInvalidValue);
    if (height > 1 && pitch < width * elem)
        return hd_ret(hipErrorInvalidPitchValue);
    hipError_t e = hd_mem_check(dst, (height > 1 ? pitch * (height - 1) : 0) + width * elem);
    if (e != hipSuccess)
        return hd_ret(e);
    struct hd_work w = {.kind = HD_W_MEMSET};
    w.u.memset = (hipMemsetParams){.dst = dst,
                                   .elementSize = elem,
                                   .height = height,
                                   .pitch = height > 1 ? pitch : 0,
                                   .value = value,
                                   .width = width};
    hd_lock();
    struct hd_stream *s = hd_stream_resolve(stream, spt);
    if (!s)
        e = hipErrorInvalidHandle;
    else
        e = sync == BLOCKING ? hd_submit_blocking(s, &w) : hd_submit_work(s, &w, NULL);
    hd_unlock();
    return hd_ret(e);
}

#define SET1(dst, v, elem, count, stream, spt, sync) \
    memset_common((void *)(dst), (v), (elem), 0, (count), 1, (stream), (spt), (sync))

hipError_t hipMemset(void *dst, int value, size_t sizeBytes)
{
    return SET1(dst, (unsigned char)value, 1, sizeBytes, NULL, false, BLOCKING);
}
hipError_t hipMemset_spt(void *dst, int value, size_t sizeBytes)
{
    return SET1(dst, (unsigned char)value, 1, sizeBytes, NULL, true, BLOCKING);
}
hipError_t hipMemsetAsync(void *dst, int value, size_t sizeBytes, hipStream_t stream)
{
    return SET1(dst, (unsigned char)value, 1, sizeBytes, stream, false, ASYNC);
}
hipError_t hipMemsetAsync_spt(void *dst, int value, size_t sizeBytes, hipStream_t stream)
{
    return SET1(dst, (unsigned char)value, 1, sizeBytes, stream, true, ASYNC);
}
hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count)
{
    return SET1(dest, value, 1, count, NULL, false, BLOCKING);
}
hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count)
{
    return SET1(dest, value, 2, count, NULL, false, BLOCKING);
}
hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count)
{
    return SET1(dest, (unsigned)value, 4, count, NULL, false, BLOCKING);
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                            hipStream_t stream)
{
    return SET1(dest, value, 1, count, stream, false, ASYNC);
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                             hipStream_t stream)
{
    return SET1(dest, value, 2, count, stream, false, ASYNC);
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream)
{
    return SET1(dst, (unsigned)value, 4, count, stream, false, ASYNC);
}
hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    return memset_common(dst, (unsigned char)value, 1, pitch, width, height, NULL, false,
                         BLOCKING);
}
hipError_t hipMemset2D_spt(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    return memset_common(dst, (unsigned char)value, 1, pitch, width, height, NULL, true,
                         BLOCKING);
}
hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height,
                            hipStream_t stream)
{
    return memset_common(dst, (unsigned char)value, 1, pitch, width, height, stream, false,
                         ASYNC);
}
hipError_t hipMemset2DAsync_spt(void *dst, size_t pitch, int value, size_t width, size_t height,
                                hipStream_t stream)
{
    return memset_common(dst, (unsigned char)value, 1, pitch, width, height, stream, true,
                         ASYNC);
}

/* ---- symbols (docs/semantics.md C9, C10) --------------------------------
 * The double has no device globals: a symbol is its own device address
 * (tests pass memory from hipMalloc as the symbol). hipGetSymbolAddress
 * answers accordingly; the copies are hipMemcpy(Async) at symbol + offset. */
hipError_t hipGetSymbolAddress(void **devPtr, const void *symbol)
{
    hd_init();
    if (!devPtr || !symbol)
        return hd_ret(hipErrorInvalidSymbol);
    *devPtr = (void *)symbol;
    return hipSuccess;
}
hipError_t hipGetSymbolSize(size_t *size, const void *symbol)
{
    hd_init();
    size_t n = 0;
    void *base = NULL;
    if (!size || !symbol || hd_mem_lookup(symbol, &base, &n) < 0)
        return hd_ret(hipErrorInvalidSymbol);
    *size = n - (size_t)((const char *)symbol - (const char *)base);
    return hipSuccess;
}

#define SYM(sym, off) ((char *)(uintptr_t)(sym) + (off))
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t n, size_t off, hipMemcpyKind kind)
{
    return COPY1(SYM(symbol, off), src, n, kind, NULL, false, BLOCKING);
}
hipError_t hipMemcpyToSymbol_spt(const void *symbol, const void *src, size_t n, size_t off, hipMemcpyKind kind)
{
    return COPY1(SYM(symbol, off), src, n, kind, NULL, true, BLOCKING);
}
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t n, size_t off, hipMemcpyKind kind)
{
    return COPY1(dst, SYM(symbol, off), n, kind, NULL, false, BLOCKING);
}
hipError_t hipMemcpyFromSymbol_spt(void *dst, const void *symbol, size_t n, size_t off, hipMemcpyKind kind)
{
    return COPY1(dst, SYM(symbol, off), n, kind, NULL, true, BLOCKING);
}
hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t n, size_t off, hipMemcpyKind kind,
                                  hipStream_t stream)
{
    return COPY1(SYM(symbol, off), src, n, kind, stream, false, ASYNC);
}
hipError_t hipMemcpyToSymbolAsync_spt(const void *symbol, const void *src, size_t n, size_t off,
                                      hipMemcpyKind kind, hipStream_t stream)
{
    return COPY1(SYM(symbol, off), src, n, kind, stream, true, ASYNC);
}
hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t n, size_t off, hipMemcpyKind kind,
                                    hipStream_t stream)
{
    return COPY1(dst, SYM(symbol, off), n, kind, stream, false, ASYNC);
}
hipError_t hipMemcpyFromSymbolAsync_spt(void *dst, const void *symbol, size_t n, size_t off, hipMemcpyKind kind,
                                        hipStream_t stream)
{
    return COPY1(dst, SYM(symbol, off), n, kind, stream, true, ASYNC);
}

/* ---- 3D memsets (M5, M6): one 2D memset of the rows when the slices are
 * contiguous in rows (ysize == height), else one per slice ---------------- */
static hipError_t memset3d(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream, bool spt,
                           enum sync_kind sync)
{
    if (!e.depth || !e.height || !e.width)
        return hipSuccess;
    if (p.ysize == e.height || e.depth == 1)
        return memset_common(p.ptr, (unsigned char)value, 1, p.pitch, e.width, e.height * e.depth, stream, spt,
                             sync);
    hipError_t r = hipSuccess;
    for (size_t z = 0; r == hipSuccess && z < e.depth; z++)
        r = memset_common((char *)p.ptr + z * p.ysize * p.pitch, (unsigned char)value, 1, p.pitch, e.width,
                          e.height, stream, spt, sync);
    return r;
}
hipError_t hipMemset3D(hipPitchedPtr p, int value, hipExtent e) { return memset3d(p, value, e, NULL, false, BLOCKING); }
hipError_t hipMemset3D_spt(hipPitchedPtr p, int value, hipExtent e)
{
    return memset3d(p, value, e, NULL, true, BLOCKING);
}
hipError_t hipMemset3DAsync(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream)
{
    return memset3d(p, value, e, stream, false, ASYNC);
}
hipError_t hipMemset3DAsync_spt(hipPitchedPtr p, int value, hipExtent e, hipStream_t stream)
{
    return memset3d(p, value, e, stream, true, ASYNC);
}

hipError_t hipMemcpy3DAsync_spt(const hipMemcpy3DParms *p, hipStream_t stream)
{
    return copy3d(p, stream, true, ASYNC);
}

/* hipMemcpyParam2D(Async) with the HIP 5.2 hip_Memcpy2D this double is
 * built against (hipMemoryType host 0, device 1, array 2): the 2D copy of
 * the pitched pointers it names. */
static const unsigned char *param2d_side(hipMemoryType t, const void *host, hipDeviceptr_t dev, size_t x, size_t y,
                                         size_t pitch)
{
    const unsigned char *p = t == hipMemoryTypeHost ? host : (const unsigned char *)dev;
    return p ? p + y * pitch + x : NULL;
}
static hipError_t param2d(const hip_Memcpy2D *c, hipStream_t stream, enum sync_kind sync)
{
    hd_init();
    if (!c)
        return hd_ret(hipErrorInvalidValue);
    if (c->srcMemoryType == hipMemoryTypeArray || c->dstMemoryType == hipMemoryTypeArray)
        return hd_ret(hipErrorNotSupported);
    const unsigned char *src = param2d_side(c->srcMemoryType, c->srcHost, c->srcDevice, c->srcXInBytes, c->srcY,
                                            c->srcPitch);
    const unsigned char *dst = param2d_side(c->dstMemoryType, c->dstHost, c->dstDevice, c->dstXInBytes, c->dstY,
                                            c->dstPitch);
    return copy_common((void *)dst, c->dstPitch, src, c->srcPitch, c->WidthInBytes, c->Height, hipMemcpyDefault,
                       stream, false, sync);
}
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy) { return param2d(pCopy, NULL, BLOCKING); }
/* CLR: the same copy through a HIP_MEMCPY3D of depth 1. */
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy) { return param2d(pCopy, NULL, BLOCKING); }
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream)
{
    return param2d(pCopy, stream, ASYNC);
}

/* ---- pitched and managed allocations (A1) -------------------------------
 * Rows are padded to 256 bytes, as the real runtime's pitch alignment. */
static hipError_t pitch_alloc(void **ptr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return hd_ret(hipErrorInvalidValue);
    size_t p = (width + 255) & ~(size_t)255;
    hipError_t e = device_alloc(ptr, p * height, 0);
    if (e == hipSuccess)
        *pitch = p;
    return e;
}
hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height)
{
    return pitch_alloc(ptr, pitch, width, height);
}
/* The driver-style twin: the element size only bounds the pitch's
 * alignment in the real runtime; rows are padded the same here. */
hipError_t hipMemAllocPitch(hipDeviceptr_t *dptr, size_t *pitch, size_t widthInBytes, size_t height,
                            unsigned int elementSizeBytes)
{
    if (elementSizeBytes != 4 && elementSizeBytes != 8 && elementSizeBytes != 16)
        return hd_ret(hipErrorInvalidValue);
    return pitch_alloc((void **)dptr, pitch, widthInBytes, height);
}
hipError_t hipMalloc3D(hipPitchedPtr *pp, hipExtent ext)
{
    if (!pp)
        return hd_ret(hipErrorInvalidValue);
    size_t p = (ext.width + 255) & ~(size_t)255;
    void *ptr = NULL;
    hipError_t e = device_alloc(&ptr, p * ext.height * (ext.depth ? ext.depth : 1), 0);
    if (e == hipSuccess)
        *pp = (hipPitchedPtr){ptr, p, ext.width, ext.height};
    return e;
}
/* Managed memory is device memory to every check of the double (bounds,
 * pointer attributes, copy directions); only its bytes live in a mapping
 * the device side reaches through an alias (see the top of this file). */
hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags)
{
    (void)flags;
    hd_init();
    if (!ptr)
        return hd_ret(hipErrorInvalidValue);
    *ptr = NULL;
    if (size == 0)
        return hipSuccess;
    void *p, *dev;
    if (!map_twice("hipdouble-managed", size, &p, &dev))
        return hd_ret(hipErrorOutOfMemory);
    pthread_mutex_lock(&g_mem);
    insert_block((uintptr_t)p, size, HD_A_DEVICE, 0, hd_current_device(), (uintptr_t)dev);
    pthread_mutex_unlock(&g_mem);
    *ptr = p;
    return hipSuccess;
}
