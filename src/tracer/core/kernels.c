#include "tracer/core/kernels.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HV_KERNEL_SLOTS 65536u

static _Atomic(struct hv_kernel_info *) slots[HV_KERNEL_SLOTS];
static pthread_mutex_t insert_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t slot_of(uint64_t func) { return (uint32_t)((func * 0x9E3779B97F4A7C15ull) >> 40) & (HV_KERNEL_SLOTS - 1); }

int hv_kernels_add(const struct hv_kernel_info *info)
{
    struct hv_kernel_info *copy = malloc(sizeof *copy);
    struct hv_kernel_arg *args = info->nargs ? calloc(info->nargs, sizeof *args) : NULL;
    if (!copy || (info->nargs && !args)) {
        free(copy);
        free(args);
        return -1;
    }
    *copy = *info;
    if (args)
        memcpy(args, info->args, info->nargs * sizeof *args);
    copy->args = args;
    copy->learn = calloc(1, sizeof *copy->learn);   /* NULL: launches scan fully */
    int rc = -1;
    pthread_mutex_lock(&insert_lock);
    for (uint32_t i = slot_of(info->func), n = 0; n < HV_KERNEL_SLOTS; n++, i = (i + 1) & (HV_KERNEL_SLOTS - 1)) {
        struct hv_kernel_info *cur = atomic_load_explicit(&slots[i], memory_order_relaxed);
        if (!cur || cur->func == info->func) {
            /* A re-registered handle gets the newer layout; the old entry is
             * kept alive because a reader may hold it. */
            atomic_store_explicit(&slots[i], copy, memory_order_release);
            rc = 0;
            break;
        }
    }
    pthread_mutex_unlock(&insert_lock);
    if (rc != 0) {
        free(copy->learn);
        free(args);
        free(copy);
    }
    return rc;
}

const struct hv_kernel_info *hv_kernels_find(uint64_t func)
{
    for (uint32_t i = slot_of(func), n = 0; n < HV_KERNEL_SLOTS; n++, i = (i + 1) & (HV_KERNEL_SLOTS - 1)) {
        struct hv_kernel_info *cur = atomic_load_explicit(&slots[i], memory_order_acquire);
        if (!cur)
            return NULL;
        if (cur->func == func)
            return cur;
    }
    return NULL;
}
