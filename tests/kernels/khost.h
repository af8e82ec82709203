/*
 * TEST-ONLY. Host implementations of kernels950.cl's kernels for the HIP
 * runtime test double (tests/runtime-double), registered by name through a
 * `hipdouble_register_module_kernel` the caller looked up (absent on a real
 * runtime: then nothing is registered and the programs still start).
 */
#ifndef HV_TESTS_KERNELS_KHOST_H
#define HV_TESTS_KERNELS_KHOST_H

#include <stdio.h>
#include <stdlib.h>

#include "../runtime-double/hipdouble.h"

#define KN 64 /* elements per buffer */

static void k_producer(void **a, dim3 g, dim3 b, void *u)
{
    const float *in = *(float **)a[0];
    float *out = *(float **)a[1];
    (void)g, (void)b, (void)u;
    for (int i = 0; i < *(int *)a[2]; i++)
        out[i] = 2.0f * in[i];
}

static void k_accum(void **a, dim3 g, dim3 b, void *u)
{
    float *acc = *(float **)a[0];
    const float *x = *(float **)a[1];
    (void)g, (void)b, (void)u;
    for (int i = 0; i < *(int *)a[2]; i++)
        acc[i] += x[i];
}

static void k_consume(void **a, dim3 g, dim3 b, void *u)
{
    const float *x = *(float **)a[0], *y = *(float **)a[1];
    float *out = *(float **)a[2];
    (void)g, (void)b, (void)u;
    for (int i = 0; i < *(int *)a[3]; i++)
        out[i] = x[i] + y[i];
}

/* The whole file at `path` (malloc'ed, *len its size), NULL on failure. */
static inline void *khost_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    void *buf = NULL;
    long n = -1;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (buf = malloc(n)))
        *len = fread(buf, 1, (size_t)n, f);
    if (f)
        fclose(f);
    return buf;
}

typedef int (*khost_reg_fn)(const char *, hipdouble_kernel_fn, int, const size_t *, void *);

static void khost_register(khost_reg_fn reg)
{
    static const size_t s3[] = {8, 8, 4}, s4[] = {8, 8, 8, 4};
    if (!reg)
        return;
    reg("producer", k_producer, 3, s3, NULL);
    reg("accum", k_accum, 3, s3, NULL);
    reg("consume", k_consume, 4, s4, NULL);
}

#endif
