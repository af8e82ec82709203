/* util.h - helpers shared by the codeobj test programs. */
#ifndef HV_TESTS_CODEOBJ_UTIL_H
#define HV_TESTS_CODEOBJ_UTIL_H

#include "codeobj/codeobj.h"

#include <stddef.h>
#include <stdio.h>

/* Whole file into malloc'd memory; NULL (and a message) on failure. */
unsigned char *co_test_read_file(const char *path, size_t *len);

/* The canonical text form of one object and its kernels, the same lines
 * meta_check.py derives from llvm-readelf: comparing these is the
 * metadata correctness test. */
void co_test_dump_object(FILE *f, const struct hv_co_table *t, size_t obj);

#endif
