/*
 * HV_FREE_ALL(p, q, ...): free() every pointer named, in order.
 *
 * The teardown of a struct that owns many plain heap arrays (an index, a
 * model, a report's tables) is otherwise one free() a field, a list that
 * each owner spells out again; this is the one loop behind all of them.
 * Each argument is converted to void *, so a field of any object pointer
 * type may be named (NULL among them is fine, as for free()).
 */
#ifndef HV_COMMON_FREE_ALL_H
#define HV_COMMON_FREE_ALL_H

#include <stddef.h>
#include <stdlib.h>

static inline void hv_free_all_(void *const *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(p[i]);
}

/* sizeof does not evaluate its operand: the arguments are evaluated once. */
#define HV_FREE_ALL(...) \
    hv_free_all_((void *const[]){__VA_ARGS__}, sizeof((void *const[]){__VA_ARGS__}) / sizeof(void *))

#endif
