/*
 * double_int.h - internals of the HIP runtime test double.
 *
 * TEST-ONLY: part of tests/runtime-double (a host-memory stand-in for
 * libamdhip64.so.5 used by hipvis tests). Never installed.
 *
 * Structure:
 *   double_core.c    config, handle registry, errors, devices, streams, the
 *                    executor (lazy / thread), events, synchronization
 *   double_memory.c  allocations, copies, memsets, pointer attributes, h2a/h2b
 *   double_kernel.c  kernel registry, modules, launches, h3 scalar cache
 *   double_graph.c   graphs, stream capture, instantiate / launch, h1, h4 and
 *                    the runtime-errata models (rs11501, rs11357, rs11403)
 *
 * Rules: every exported HIP function is a thin wrapper over hd_* internals
 * (hidden visibility); no exported function is ever called from inside the
 * library, so an LD_PRELOAD tracer sees only the application's calls.
 */
#ifndef HV_TESTS_RUNTIME_DOUBLE_DOUBLE_INT_H
#define HV_TESTS_RUNTIME_DOUBLE_DOUBLE_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The HIP headers push default visibility around their declarations; the
 * declarations of hipdouble.h get the same treatment so that exactly the
 * HIP API and hipdouble_* are exported (the build uses -fvisibility=hidden). */
#pragma GCC visibility push(default)
#include "hipdouble.h"
#pragma GCC visibility pop

#define HD_MAX_DEVICES 8
#define HD_MAX_QUEUES 8

/* ---- configuration ------------------------------------------------------ */

enum {
    HD_FAULT_H1 = 1u << 0,
    HD_FAULT_H2A = 1u << 1,
    HD_FAULT_H2B = 1u << 2,
    HD_FAULT_H3 = 1u << 3,
    HD_FAULT_H4 = 1u << 4,
    /* Published runtime errata (src/analyze/errata, docs/errata.md). */
    HD_FAULT_RS11501 = 1u << 5,
    HD_FAULT_RS11357 = 1u << 6,
    HD_FAULT_RS11403 = 1u << 7,
};
/* The names HIPDOUBLE_FAULT takes, by bit. */
#define HD_FAULT_NAMES {"h1", "h2a", "h2b", "h3", "h4", "rs11501", "rs11357", "rs11403"}

struct hd_config {
    bool thread_mode;
    _Atomic unsigned faults; /* HD_FAULT_*; hipdouble_set_faults may change it */
    int graph_queues;
    size_t h2a_offset, h2a_bytes;
    bool sdma;               /* not HSA_ENABLE_SDMA=0: h2a's late write is the copy engine's */
    size_t blit_copy_bytes;  /* GPU_FORCE_BLIT_COPY_SIZE (KiB) in bytes: copies up to it are blit kernels */
    size_t sdma_min_bytes;   /* rs11403: graph copies above it use SDMA (GPU_FORCE_BLIT_COPY_SIZE, default 16 KiB) */
    unsigned h2b_delay_us;
    size_t h4_nodes;         /* h4: nodes a segment-scheduled launch keeps */
    bool segment_scheduling; /* neither DEBUG_HIP_GRAPH_SEGMENT_SCHEDULING=0 nor DEBUG_HIP_GRAPH_CLASSIC_PATH=1 */
    int devices;
};
extern struct hd_config hd_cfg;

/* ---- generic helpers ---------------------------------------------------- */

void *hd_xmalloc(size_t n);
void *hd_xcalloc(size_t n, size_t m);
void *hd_xrealloc(void *p, size_t n);
char *hd_xstrdup(const char *s);
double hd_now_ms(void);

/* Pointer set used as a registry of live handles. */
struct hd_set {
    void **slots;
    size_t cap, used, live;
};
void hd_set_add(struct hd_set *s, const void *p);
void hd_set_del(struct hd_set *s, const void *p);
bool hd_set_has(const struct hd_set *s, const void *p);

/* Growable array of graph nodes. */
struct hd_node;
struct hd_nodevec {
    struct hd_node **v;
    size_t n, cap;
};
void hd_nodevec_push(struct hd_nodevec *nv, struct hd_node *n);
bool hd_nodevec_has(const struct hd_nodevec *nv, const struct hd_node *n);
void hd_nodevec_free(struct hd_nodevec *nv);

/* ---- global lock -------------------------------------------------------- */

/* One lock guards streams, events, graphs, captures and registries. Work is
 * executed with the lock released. */
void hd_lock(void);
void hd_unlock(void);
void hd_wait_cond(void);
void hd_broadcast(void);

extern struct hd_set hd_streams, hd_events, hd_graphs, hd_nodes, hd_execs, hd_modules,
    hd_functions;

/* Called at the top of every API entry point. */
void hd_init(void);

/* Records `e` as the thread's last error (sticky until hipGetLastError,
 * CUDA-style) and returns it. hipSuccess and hipErrorNotReady are not
 * recorded. */
hipError_t hd_ret(hipError_t e);

int hd_current_device(void);

/* ---- kernels ----------------------------------------------------------- */

struct hd_kdesc {
    struct hd_kdesc *next;
    const void *key; /* host stub; NULL for by-name kernels */
    char *name;
    hipdouble_kernel_fn fn;
    void *user;
    unsigned nargs;
    size_t *sizes;
};

/* Kernel arguments copied out of the caller's memory. */
struct hd_kargs {
    unsigned char *buf; /* packed argument bytes */
    size_t len;
    unsigned nargs;
    void **argv;   /* nargs pointers into buf, NULL when nargs == 0 */
    void **extra;  /* {BUFFER_POINTER, buf, BUFFER_SIZE, &size, END} when launched with extra */
};

/* ---- work items: the payload of both stream operations and graph nodes -- */

enum hd_work_kind {
    HD_W_NOP = 0,
    HD_W_KERNEL,
    HD_W_COPY,
    HD_W_MEMSET,
    HD_W_HOST,
    HD_W_EVENT_RECORD,
    HD_W_EVENT_WAIT,
    HD_W_EMPTY,
    HD_W_CHILD,
    HD_W_FREE,
};

struct hd_event;
struct hd_graph;

struct hd_work {
    enum hd_work_kind kind;
    bool from_graph;
    union {
        struct {
            struct hd_kdesc *k; /* may be NULL: no-op kernel */
            const void *func;   /* stub or hipFunction_t, as the app passed it */
            char *name;         /* kernel name (for scalar-read lookup), may be NULL */
            dim3 grid, block;
            unsigned shmem;
            struct hd_kargs a;
        } kern;
        struct {
            hipMemcpy3DParms p;
            unsigned char *staged; /* snapshot of a pageable source, owned */
            bool pinned_src;       /* source is pinned/registered host memory */
        } copy;
        hipMemsetParams memset;
        hipHostNodeParams host;
        struct {
            struct hd_event *ev; /* holds a reference */
            uint64_t epoch;
        } ev;
        struct hd_graph *child; /* owned */
        void *free_ptr;
    } u;
};

void hd_work_clone(struct hd_work *dst, const struct hd_work *src);
void hd_work_release(struct hd_work *w); /* lock held (drops event refs) */

/* ---- streams and operations -------------------------------------------- */

enum hd_stream_kind { HD_S_LEGACY, HD_S_PERTHREAD, HD_S_USER, HD_S_INTERNAL };

struct hd_wait {
    struct hd_stream *s; /* holds a reference */
    uint64_t seq;
};

struct hd_op {
    struct hd_op *next;
    uint64_t seq;
    struct hd_work w;
    unsigned nwaits, capw;
    struct hd_wait *waits;
};

struct hd_capture;

struct hd_stream {
    enum hd_stream_kind kind;
    int device;
    unsigned flags;
    int priority;
    int refs;
    bool destroyed;
    struct hd_op *head, *tail;
    uint64_t submitted, completed;
    bool running;
    bool has_worker, stop;
    pthread_t worker;
    struct hd_capture *cap;
    struct hd_nodevec deps; /* capture dependency set */
    struct hd_stream *next_all;
};

struct hd_capture {
    unsigned long long id;
    hipStreamCaptureMode mode;
    pthread_t thread;
    struct hd_stream *origin;
    struct hd_graph *g;
    bool invalidated;
};

extern struct hd_stream *hd_all_streams;

/* Resolves an API stream handle. `spt` makes the null handle mean the
 * per-thread stream (the _spt entry points). Lock held. NULL = invalid. */
struct hd_stream *hd_stream_resolve(hipStream_t h, bool spt);
struct hd_stream *hd_internal_queue(int device, int index);
bool hd_stream_blocking(const struct hd_stream *s);

struct hd_op *hd_op_new(void);
void hd_op_add_wait(struct hd_op *op, struct hd_stream *s, uint64_t seq);
void hd_op_free(struct hd_op *op); /* lock held */

/* Submits work to a stream: becomes a graph node when the stream captures,
 * otherwise an operation at the tail of its FIFO (legacy-stream implicit
 * synchronization added here). Takes ownership of `op` in every case. Lock
 * held. `seq_out` gets the operation's sequence number (0 when captured). */
hipError_t hd_submit(struct hd_stream *s, struct hd_op *op, uint64_t *seq_out);
/* Submits a single work item (wrapping it in an operation). */
hipError_t hd_submit_work(struct hd_stream *s, struct hd_work *w, uint64_t *seq_out);

/* Runs (lazy) or waits for (thread) stream `s` up to `seq`. Lock held. */
void hd_stream_wait_seq(struct hd_stream *s, uint64_t seq);
/* Waits for everything submitted to `s` so far; for the legacy stream also for
 * the blocking streams of its device. Lock held. */
void hd_stream_drain(struct hd_stream *s);
/* Lazy mode: runs every operation of an internal queue that has no unmet
 * dependency (h1's free-running roots). No-op in thread mode. Lock held. */
void hd_stream_kick(struct hd_stream *s);
void hd_device_drain(int device); /* lock held */
void hd_all_devices_drain(void);  /* lock held */

/* Blocking call on `s`: submits `w` and waits for it to finish. */
hipError_t hd_submit_blocking(struct hd_stream *s, struct hd_work *w);

/* ---- events ------------------------------------------------------------- */

struct hd_event {
    unsigned flags;
    int refs;
    bool destroyed;
    bool recorded;
    struct hd_stream *rs; /* holds a reference */
    uint64_t rseq;
    uint64_t epoch;
    double t_ms;
    bool timed;
    unsigned long long cap_id; /* capture the event was last recorded in */
    struct hd_nodevec cap_deps;
};
void hd_event_unref(struct hd_event *e); /* lock held */
/* Records `e` on `s` (stream operation or capture dependency). Lock held. */
hipError_t hd_event_record(struct hd_event *e, struct hd_stream *s, unsigned flags, bool from_graph);
/* Makes `s` wait for `e`. Lock held. */
hipError_t hd_stream_wait_event(struct hd_stream *s, struct hd_event *e, unsigned flags);

/* ---- capture (double_graph.c) ------------------------------------------ */

/* Turns `w` into a node of the stream's capture graph (moving its payload;
 * `w` becomes HD_W_NOP on success). Lock held. */
hipError_t hd_capture_work(struct hd_stream *s, struct hd_work *w);
/* hipStreamWaitEvent when `s` captures or `e` was recorded in capture `c`
 * (NULL when not). Lock held. */
hipError_t hd_capture_wait_event(struct hd_stream *s, struct hd_event *e, struct hd_capture *c,
                                 unsigned flags);
struct hd_capture *hd_capture_find(unsigned long long id);           /* lock held */
void hd_capture_invalidate(struct hd_capture *c);
/* Fails (and invalidates the offending captures) when the calling thread may
 * not make a synchronizing call because of an ongoing capture. Lock held. */
hipError_t hd_capture_unsafe_call(void);

/* ---- graphs ------------------------------------------------------------- */

struct hd_node {
    struct hd_graph *g;
    unsigned idx;
    hipGraphNodeType type;
    struct hd_work w;
    struct hd_nodevec in, out;
};

struct hd_graph {
    struct hd_nodevec nodes;
};

struct hd_graph *hd_graph_new(void);
struct hd_node *hd_graph_add(struct hd_graph *g, hipGraphNodeType type, struct hd_work *w,
                             struct hd_node *const *deps, size_t ndeps);
void hd_graph_free(struct hd_graph *g, bool registered); /* lock held */
struct hd_graph *hd_graph_clone(const struct hd_graph *g); /* unregistered copy */

/* ---- memory (double_memory.c) ------------------------------------------ */

enum hd_alloc_kind { HD_A_DEVICE, HD_A_PINNED, HD_A_REGISTERED };

/* Returns the kind of the live allocation holding `p`, or -1 (pageable /
 * unknown); `base` and `size` describe the allocation when found. */
int hd_mem_lookup(const void *p, void **base, size_t *size);
/* Where the device side reaches p: the alias of a pinned or managed block,
 * p itself for any other memory (double_memory.c). */
void *hd_dma(const void *p);
/* The alias of p when p is in a live managed block, else NULL. */
void *hd_managed_alias(const void *p);
/* hipErrorInvalidValue when [p, p+n) touches freed device memory or runs
 * past the end of its device allocation. */
hipError_t hd_mem_check(const void *p, size_t n);
void hd_mem_free_now(void *p); /* executes a hipFreeAsync */
void hd_copy_execute(struct hd_work *w, int device);
void hd_memset_execute(struct hd_work *w);
/* Prepares a 1D copy work item (staging pageable sources). */
hipError_t hd_copy_work_1d(struct hd_work *w, void *dst, const void *src, size_t n,
                           bool stage_pageable);
bool hd_copy_needs_delay(const struct hd_work *w); /* h2b in thread mode */

/* ---- kernels (double_kernel.c) ----------------------------------------- */

struct hd_kdesc *hd_kernel_by_func(const void *func, char **name_out); /* lock held */
hipError_t hd_kargs_build(struct hd_kargs *a, const struct hd_kdesc *k, void **params,
                          void **extra);
void hd_kargs_clone(struct hd_kargs *dst, const struct hd_kargs *src);
void hd_kargs_free(struct hd_kargs *a);
void hd_kernel_execute(struct hd_work *w, int device);
void hd_scalar_cache_invalidate(int device); /* h3 */

#endif /* HV_TESTS_RUNTIME_DOUBLE_DOUBLE_INT_H */
