/*
 * Growing a counted array by doubling: the one definition every module uses.
 *
 *   HV_GROW(arr, n, cap, init)               room for one more after n elements
 *   HV_GROW_TO(arr, need, cap, init)         room for `need` elements
 *   HV_GROW_ZERO(arr, need, cap, init)       the same, the new elements zeroed
 *   HV_GROW_UPTO(arr, need, cap, init, max)  the same, the capacity never past max
 *   HV_GROW2(a, b, n, cap, init)             two parallel arrays sharing one cap
 *
 * `cap` doubles from `init` until it holds what is asked; it keeps its own
 * unsigned integer type, `arr` is a typed pointer. Each evaluates to 1 when
 * there is room and to 0 out of memory, or when the capacity would not fit
 * `cap`'s type, a byte count or `max`: then `cap` and the elements are
 * unchanged (the array may have moved; `arr` follows it).
 */
#ifndef HV_COMMON_GROW_H
#define HV_COMMON_GROW_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The capacity that holds `need`: `cap` (`init` when 0) doubled until it
 * does, the last step cut to `max`; 0 when `need` is past `max`. */
static inline size_t hv_grow_cap(size_t cap, size_t init, size_t need, size_t max)
{
    size_t c = cap ? cap : init ? init : 1;
    if (need > max)
        return 0;
    if (c > max)
        c = max;
    while (c < need)
        c = c > max / 2 ? max : c * 2;
    return c;
}

/* The most elements `cap`'s type and a size_t byte count allow, and at most `max`. */
#define HV_GROW_LIMIT_(arr, cap, max)                                                \
    ({                                                                                \
        _Static_assert((__typeof__(cap))-1 > 0, "a capacity is unsigned");           \
        size_t l_ = (size_t)(__typeof__(cap))-1 < SIZE_MAX / sizeof *(arr)           \
                        ? (size_t)(__typeof__(cap))-1                                 \
                        : SIZE_MAX / sizeof *(arr);                                   \
        (size_t)(max) < l_ ? (size_t)(max) : l_;                                      \
    })

/* The one growth step behind every form above. */
#define HV_GROW_STEP_(arr, need, cap, init, max, zero)                                \
    ((size_t)(need) <= (size_t)(cap) ? 1 : ({                                         \
        size_t oc_ = (size_t)(cap);                                                   \
        size_t nc_ = hv_grow_cap(oc_, (init), (need), HV_GROW_LIMIT_(arr, cap, max)); \
        __typeof__(arr) na_ = nc_ ? realloc((arr), nc_ * sizeof *(arr)) : NULL;      \
        if (na_) {                                                                    \
            if (zero)                                                                 \
                memset(na_ + oc_, 0, (nc_ - oc_) * sizeof *(arr));                    \
            (arr) = na_;                                                              \
            (cap) = (__typeof__(cap))nc_;                                             \
        }                                                                             \
        na_ != NULL;                                                                  \
    }))

#define HV_GROW_TO(arr, need, cap, init) HV_GROW_STEP_(arr, need, cap, init, SIZE_MAX, 0)
#define HV_GROW_ZERO(arr, need, cap, init) HV_GROW_STEP_(arr, need, cap, init, SIZE_MAX, 1)
#define HV_GROW_UPTO(arr, need, cap, init, max) HV_GROW_STEP_(arr, need, cap, init, max, 0)
#define HV_GROW(arr, n, cap, init) HV_GROW_TO(arr, (size_t)(n) + 1, cap, init)

/* Both arrays get the new capacity or `cap` stays (one that did grow only
 * holds more room than `cap` says). */
#define HV_GROW2(a, b, n, cap, init)                                                  \
    ((size_t)(n) < (size_t)(cap) ? 1 : ({                                             \
        __typeof__(cap) ca_ = (cap), cb_ = (cap);                                     \
        int ok_ = HV_GROW(a, n, ca_, init) && HV_GROW(b, n, cb_, init);               \
        if (ok_)                                                                      \
            (cap) = ca_;                                                              \
        ok_;                                                                          \
    }))

#endif
