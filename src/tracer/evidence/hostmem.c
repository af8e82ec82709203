/*
 * Which host addresses can be read without faulting: a cache of the
 * readable mappings in /proc/self/maps, for copy sources that no traced
 * call allocated (pageable memory). Such a pointer could also be device
 * memory passed with a host copy kind (HIP and CUDA accept that on unified
 * addressing); GPU memory is either not mapped for the CPU (inside
 * PROT_NONE reservations) or mapped from a device file (/dev/kfd,
 * /dev/dri/renderD*, /dev/nvidia0...), and both are left out of the cache, so a
 * pointer the cache holds is ordinary host memory.
 *
 * Reads are lock-free (a sequence lock around the sorted ranges, as in
 * allocmap.c). A miss re-reads the maps at most every HV_MAPS_REFRESH_NS;
 * in between the caller falls back to hv_safe_read (a syscall), so a
 * program that maps memory all the time costs a syscall per copy, never a
 * maps re-read per copy.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "tracer/evidence/evidence_int.h"
#include "common/mono.h"

#define HV_MAPS_MAX 65536u
#define HV_MAPS_REFRESH_NS 10000000ull   /* 10 ms */

struct hrange {
    uint64_t lo, hi;
};

static struct hrange *ranges;            /* HV_MAPS_MAX entries, mapped on first refresh */
static _Atomic uint64_t version;         /* odd while a refresh writes */
static _Atomic uint32_t nranges;
static _Atomic uint64_t last_refresh;
static pthread_mutex_t refresh_lock = PTHREAD_MUTEX_INITIALIZER;

/* 1: [lo, hi) inside one cached range; 0: not; -1: no consistent answer. */
static int lookup(uint64_t lo, uint64_t hi)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        uint64_t v = atomic_load_explicit(&version, memory_order_acquire);
        if (v & 1)
            continue;
        uint32_t n = atomic_load_explicit(&nranges, memory_order_relaxed);
        uint32_t a = 0, b = n;   /* first range with hi > lo */
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (ranges[mid].hi > lo)
                b = mid;
            else
                a = mid + 1;
        }
        int in = a < n && ranges[a].lo <= lo && hi <= ranges[a].hi;
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&version, memory_order_relaxed) == v)
            return in;
    }
    return -1;
}

static uint64_t hex(const char **p)
{
    uint64_t v = 0;
    for (;; (*p)++) {
        char c = **p;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0)
            return v;
        v = v * 16 + (uint64_t)d;
    }
}

/* One line of /proc/self/maps: "lo-hi perms offset dev inode   path". */
static void add_line(const char *s, uint32_t *n)
{
    uint64_t lo = hex(&s);
    if (*s++ != '-')
        return;
    uint64_t hi = hex(&s);
    if (*s++ != ' ' || s[0] != 'r')
        return;
    for (int field = 0; field < 4 && *s; field++) {   /* perms, offset, dev, inode */
        while (*s && *s != ' ')
            s++;
        while (*s == ' ')
            s++;
    }
    if (strncmp(s, "/dev/", 5) == 0)
        return;
    if (*n && ranges[*n - 1].hi == lo)   /* adjacent: one range, so buffers across them fit */
        ranges[*n - 1].hi = hi;
    else if (*n < HV_MAPS_MAX)
        ranges[(*n)++] = (struct hrange){lo, hi};
}

/* Caller holds refresh_lock. */
static void refresh(void)
{
    if (!ranges) {
        void *m = mmap(NULL, HV_MAPS_MAX * sizeof *ranges, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        ranges = m;
    }
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    char buf[8192], line[4608];
    size_t used = 0;
    uint32_t n = 0;
    atomic_fetch_add_explicit(&version, 1, memory_order_acq_rel);   /* odd: readers retry or fall back */
    for (;;) {
        ssize_t got = read(fd, buf, sizeof buf);
        if (got <= 0)
            break;
        for (ssize_t i = 0; i < got; i++) {
            if (buf[i] != '\n') {
                if (used + 1 < sizeof line)
                    line[used++] = buf[i];
                continue;
            }
            line[used] = '\0';
            add_line(line, &n);
            used = 0;
        }
    }
    close(fd);
    atomic_store_explicit(&nranges, n, memory_order_relaxed);
    atomic_fetch_add_explicit(&version, 1, memory_order_release);
    atomic_store_explicit(&last_refresh, hv_mono_ns(), memory_order_relaxed);
}

int hv_host_readable(uint64_t p, uint64_t n)
{
    if (p + n < p)
        return 0;
    int in = ranges ? lookup(p, p + n) : -1;
    if (in == 1)
        return 1;
    uint64_t t = hv_mono_ns();
    if (t - atomic_load_explicit(&last_refresh, memory_order_relaxed) < HV_MAPS_REFRESH_NS ||
        pthread_mutex_trylock(&refresh_lock) != 0)
        return -1;
    refresh();
    pthread_mutex_unlock(&refresh_lock);
    return lookup(p, p + n) == 1 ? 1 : 0;
}

/* No refresh is half done across fork; the child has the parent's mappings. */
static void lock_before_fork(void) { pthread_mutex_lock(&refresh_lock); }
static void unlock_after_fork(void) { pthread_mutex_unlock(&refresh_lock); }
static void child_after_fork(void) { pthread_mutex_init(&refresh_lock, NULL); }

void hv_hostmem_setup(void)
{
    pthread_atfork(lock_before_fork, unlock_after_fork, child_after_fork);
}
