#!/usr/bin/env python3
"""hc_py.py - TEST-ONLY: the host-access check's Python frames. Through
ctypes on the HIP runtime test double (LIB, the libamdhip64.so to load):
a D2H copy into pinned memory, then Python reads the destination before
synchronizing (the line marked RACE py-read) or after (--sync). Prints
what it read after the synchronize."""
import ctypes as C
import sys

N = 1024


def main():
    lib = C.CDLL(sys.argv[1])
    sync = "--sync" in sys.argv
    for name in ("hipMalloc", "hipHostMalloc", "hipStreamCreate"):
        getattr(lib, name).restype = C.c_int
    lib.hipMemcpyAsync.argtypes = [C.c_void_p, C.c_void_p, C.c_size_t, C.c_int, C.c_void_p]
    lib.hipMemcpy.argtypes = [C.c_void_p, C.c_void_p, C.c_size_t, C.c_int]
    lib.hipStreamSynchronize.argtypes = [C.c_void_p]
    dev, pinned, stream = C.c_void_p(), C.c_void_p(), C.c_void_p()
    assert lib.hipMalloc(C.byref(dev), N * 4) == 0
    assert lib.hipHostMalloc(C.byref(pinned), N * 4, 0) == 0
    assert lib.hipStreamCreate(C.byref(stream)) == 0
    src = (C.c_int * N)(*range(100, 100 + N))
    assert lib.hipMemcpy(dev, src, N * 4, 1) == 0
    view = (C.c_int * N).from_address(pinned.value)
    assert lib.hipMemcpyAsync(pinned, dev, N * 4, 2, stream) == 0
    if sync:
        lib.hipStreamSynchronize(stream)
    seen = view[3]  # RACE py-read
    lib.hipStreamSynchronize(stream)
    print(f"then {view[3]}")
    return 0 if seen in (0, 103) else 1


if __name__ == "__main__":
    sys.exit(main())
