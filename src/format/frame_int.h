/*
 * Byte-level framing shared by the trace writer and the reader (internal).
 *
 * The file is a plain sequence of zstd frames (see include/hipvis/trace.h):
 * skippable frames carry the header and the footer, ordinary frames carry one
 * chunk each. Keeping the magic numbers and limits in one place is what keeps
 * the writer and the reader from drifting apart.
 */
#ifndef HV_FORMAT_FRAME_INT_H
#define HV_FORMAT_FRAME_INT_H

#include <stdint.h>
#include <string.h>

#include "hipvis/trace.h"

/* Records are written as raw little-endian structs; a big-endian host would
 * need byte swapping everywhere, which this code does not do. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "hipvis traces are little-endian");

#define HV_ZSTD_MAGIC          0xFD2FB528u   /* first 4 bytes of an ordinary zstd frame */
#define HV_SKIPPABLE_BASE      0x184D2A50u   /* 0x184D2A50..0x184D2A5F: skippable frames */
#define HV_SKIPPABLE_MASK      0xFFFFFFF0u
#define HV_SKIPPABLE_HDR_BYTES 8u            /* magic + 32-bit payload size */

/* A chunk (decompressed frame) larger than this is rejected as corrupt. It is
 * the reader's memory bound per frame and the ceiling of the writer's chunk
 * size; the writer never gets close (HV_WRITER_MAX_CHUNK_BYTES). */
#define HV_CHUNK_MAX_BYTES     (64u << 20)

/* Header/footer frames are small; a larger size field means damage. */
#define HV_META_FRAME_MAX      (1u << 20)

/* The part of the header every version has and the reader checks first. */
#define HV_HEADER_MIN_BYTES    16u           /* magic[8] + format_version + header_size */

static inline uint32_t hv_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void hv_put_le32(uint8_t *p, uint32_t v) { memcpy(p, &v, sizeof v); }

static inline int hv_is_skippable(uint32_t magic)
{
    return (magic & HV_SKIPPABLE_MASK) == HV_SKIPPABLE_BASE;
}

#endif
