/*
 * libFuzzer target for the analyzer engine (make fuzz-engine): the input is
 * a stream of trace records laid end to end, exactly as the reader hands
 * them over (struct hv_rec_header, then the body); see feed_engine.c. The
 * seeds are record streams cut out of real traces (engine_seeds), so
 * mutations start from calls, graphs, epochs and payloads the tracer really
 * writes and change their fields: api ids, stream and event handles,
 * addresses, sizes, counts, table indices.
 */
#include <stdint.h>
#include <stdio.h>

#include "feed_engine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        return 0;
    fe_feed(data, size, sink);
    return 0;
}
