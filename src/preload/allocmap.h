/*
 * The allocations the runtime handed out or registered, so a record can say
 * whether a copy's host side is pinned and which allocation a kernel's
 * pointer argument falls in.
 *
 * Reads (on every copy and launch) are lock-free: a sorted array under a
 * sequence lock, retried a bounded number of times and answered "unknown"
 * if updates keep racing. Updates (alloc/free, far rarer) serialise on a
 * mutex among themselves; that mutex is taken around fork so a child never
 * inherits it locked.
 */
#ifndef HIPVIS_ALLOCMAP_H
#define HIPVIS_ALLOCMAP_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "hipvis/trace.h"

#define HV_ALLOC_CAPACITY 65536u

struct hv_alloc_range {
    uint64_t base, bytes;
    uint8_t mem;        /* enum hv_mem */
    int8_t device;
};

struct hv_alloc_map {
    pthread_mutex_t update_lock;
    _Atomic uint64_t version;          /* odd while an update is in progress */
    _Atomic uint32_t count;
    _Atomic uint64_t overflow;         /* allocations not tracked: map full */
    struct hv_alloc_range ranges[HV_ALLOC_CAPACITY];
};

void hv_alloc_map_init(struct hv_alloc_map *m);
void hv_alloc_add(struct hv_alloc_map *m, uint64_t base, uint64_t bytes, enum hv_mem mem, int device);
/* Removes the allocation starting at base; returns its size (0 unknown). */
uint64_t hv_alloc_remove(struct hv_alloc_map *m, uint64_t base);
/* Finds the allocation containing addr. Returns 1 and fills *out, 0 when
 * not tracked (or the answer could not be read consistently). */
int hv_alloc_find(struct hv_alloc_map *m, uint64_t addr, struct hv_alloc_range *out);

/* Memory kind of a pointer: tracked kind, or pageable/unknown by heuristics. */
enum hv_mem hv_alloc_kind(struct hv_alloc_map *m, uint64_t addr);

#endif
