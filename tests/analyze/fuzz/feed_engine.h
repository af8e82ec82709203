/* Byte string -> record stream -> engine -> reports (see feed_engine.c). */
#ifndef HV_TESTS_ANALYZE_FUZZ_FEED_ENGINE_H
#define HV_TESTS_ANALYZE_FUZZ_FEED_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Returns the number of finding groups. */
size_t fe_feed(const uint8_t *data, size_t size, FILE *sink);

#endif
