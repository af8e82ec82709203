/*
 * hip_ok.h - TEST-ONLY: OK(call), a HIP call the program needs to succeed,
 * for the programs of tests/observe. A failure is reported with the call and
 * the runtime's error name, prefixed by OK_PROG (defined before including
 * this), and makes the program's exit status 1 (`return ok_failed;`): the
 * program goes on, so that one failed call does not hide what the rest of
 * the trace shows.
 */
#ifndef HV_TESTS_OBSERVE_HIP_OK_H
#define HV_TESTS_OBSERVE_HIP_OK_H

#include <stdio.h>

#include "../runtime-double/hipdouble.h"

static int ok_failed;

#define OK(x)                                                                    \
    do {                                                                         \
        hipError_t e_ = (x);                                                     \
        if (e_ != hipSuccess) {                                                  \
            fprintf(stderr, "%s: %s: %s\n", OK_PROG, #x, hipGetErrorName(e_));   \
            ok_failed = 1;                                                       \
        }                                                                        \
    } while (0)

#endif
