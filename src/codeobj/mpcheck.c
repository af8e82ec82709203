/* mpcheck.c - structural pre-check of a msgpack blob before msgpack-c sees it.
 *
 * msgpack-c's object unpacker allocates an array's or map's element storage
 * from the count in its header, before reading the elements. A 5-byte
 * array32 header claiming 0xffffffff elements asks for 64 GiB; under ASan
 * that aborts the process, elsewhere it is at best a wasted syscall. Every
 * element needs at least one byte, so we walk the headers and refuse any
 * blob whose outstanding element count exceeds the bytes left. That bounds
 * msgpack-c's allocations to a small multiple of the blob size. */
#include "codeobj/codeobj_int.h"

static uint64_t be(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

bool co_msgpack_plausible(const unsigned char *p, size_t n)
{
    uint64_t pending = 1; /* objects still to read */
    size_t off = 0;
    while (pending) {
        if (off >= n)
            return false;
        unsigned b = p[off++];
        uint64_t skip = 0, children = 0;
        unsigned lenbytes = 0;
        pending--;
        if (b <= 0x7f || b >= 0xe0 || b == 0xc0 || b == 0xc2 || b == 0xc3)
            ; /* fixint, nil, bool: the byte is the whole object */
        else if (b <= 0x8f)
            children = 2 * (uint64_t)(b & 0x0f);
        else if (b <= 0x9f)
            children = b & 0x0f;
        else if (b <= 0xbf)
            skip = b & 0x1f;
        else
            switch (b) {
            case 0xc4: case 0xd9: lenbytes = 1; break; /* bin8, str8 */
            case 0xc5: case 0xda: lenbytes = 2; break; /* bin16, str16 */
            case 0xc6: case 0xdb: lenbytes = 4; break; /* bin32, str32 */
            case 0xc7: lenbytes = 1; skip = 1; break;  /* ext8: len, type */
            case 0xc8: lenbytes = 2; skip = 1; break;
            case 0xc9: lenbytes = 4; skip = 1; break;
            case 0xca: skip = 4; break;
            case 0xcb: skip = 8; break;
            case 0xcc: case 0xd0: skip = 1; break;
            case 0xcd: case 0xd1: skip = 2; break;
            case 0xce: case 0xd2: skip = 4; break;
            case 0xcf: case 0xd3: skip = 8; break;
            case 0xd4: skip = 2; break; /* fixext1: type + 1 */
            case 0xd5: skip = 3; break;
            case 0xd6: skip = 5; break;
            case 0xd7: skip = 9; break;
            case 0xd8: skip = 17; break;
            case 0xdc: case 0xdd: case 0xde: case 0xdf:
                if (!co_in(n, off, b & 1 ? 4 : 2))
                    return false;
                children = be(p + off, b & 1 ? 4 : 2);
                off += b & 1 ? 4 : 2;
                if (b >= 0xde)
                    children *= 2;
                break;
            default:
                return false; /* 0xc1: never used */
            }
        if (lenbytes) {
            if (!co_in(n, off, lenbytes))
                return false;
            skip += be(p + off, lenbytes);
            off += lenbytes;
        }
        if (!co_in(n, off, skip))
            return false;
        off += (size_t)skip;
        pending += children;
        if (pending > n - off)
            return false;
    }
    return true;
}
