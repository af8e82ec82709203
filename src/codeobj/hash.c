/* hash.c - XXH64 (seed 0), the content key of code objects.
 *
 * Why XXH64: code objects are keyed by content so each distinct one is
 * stored once in the trace. Fat binaries of large frameworks run to hundreds
 * of MB and are hashed inside the traced process at load time, so a
 * byte-at-a-time hash (FNV-1a) is too slow. The key is shared across runs
 * and tools, so it stays XXH64 (copy sources moved to XXH3: srchash.h).
 * The code is Debian's xxhash.h (libxxhash-dev), which the copy-source hash
 * uses too, compiled in with every symbol hidden. Its low 32 bits equal a
 * zstd frame checksum, which the tests use as an independent check. */
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "codeobj/codeobj_int.h"

uint64_t hv_co_hash64(const void *data, size_t len) { return XXH64(data, len, 0); }
