/* Growing a counted array by doubling: one definition for every module. */
#ifndef HIPVIS_UTIL_GROW_H
#define HIPVIS_UTIL_GROW_H

#include <stdlib.h>

/* Makes room for one more element of array `arr` holding `n` of `cap`,
 * doubling `cap` from `init`; 0 out of memory (the array is unchanged).
 * `cap` keeps its own integer type. */
#define HV_GROW(arr, n, cap, init)                                                   \
    ((n) < (cap) ? 1 : ({                                                             \
        __typeof__(cap) nc_ = (cap) ? (cap) * 2 : (init);                             \
        __typeof__(arr) na_ = realloc((arr), (size_t)nc_ * sizeof *(arr));            \
        if (na_) {                                                                    \
            (arr) = na_;                                                              \
            (cap) = nc_;                                                              \
        }                                                                             \
        na_ != NULL;                                                                  \
    }))

#endif
