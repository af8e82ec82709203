/*
 * pyframes — the Python stack of the calling thread, read from inside a
 * runtime call without the GIL (docs/names.md).
 *
 * PyTorch and ctypes release the GIL before they reach the GPU runtime, and
 * taking it back from inside a wrapper can deadlock, so nothing here calls
 * into the interpreter except PyGILState_GetThisThreadState(), which only
 * reads a thread-specific key. The calling thread is blocked inside the
 * runtime call, so its own frame chain cannot change while it is read.
 * Every read goes through hv_safe_read (process_vm_readv on ourselves):
 * a wrong layout or a freed object gives "unreadable", never a fault.
 * Types are checked against PyCode_Type / PyUnicode_Type / PyBytes_Type.
 *
 * Layouts are per CPython minor version: 3.11, 3.12 and 3.13 are known (the
 * offsets are checked against each version's own headers by
 * tests/pyframes when those are installed; 3.13 reads them from the
 * interpreter's _Py_DebugOffsets when it exports them). Other versions, and
 * free-threaded builds, give HV_PY_UNSUPPORTED. Symbols are found through
 * dlsym: nothing links libpython, and a `python3` whose symbols live in the
 * executable works the same.
 */
#ifndef HV_TRACER_PYFRAMES_PYWALK_H
#define HV_TRACER_PYFRAMES_PYWALK_H

#include <stdint.h>

#include "hipvis/trace.h"
#include "tracer/core/tracer.h"

#define HV_PY_FILE_MAX 512u
#define HV_PY_FUNC_MAX 256u

/* One frame as read: strings NUL-terminated UTF-8 (truncated to fit). */
struct hv_py_frame_text {
    char file[HV_PY_FILE_MAX];
    char func[HV_PY_FUNC_MAX];
    int32_t line;               /* -1 unknown */
};

/* Called per frame, innermost first; returns nonzero to stop. */
typedef int (*hv_py_frame_fn)(void *ctx, const struct hv_py_frame_text *f);

/* Whether this process runs a CPython interpreter (symbols found). Cheap
 * after the first call. *version gets PY_VERSION_HEX (0 unknown). */
int hv_py_present(uint32_t *version);

/* Walks the calling thread's Python frames, at most `max`; *more gets the
 * count of frames beyond `max` that exist (0 when unknown). Returns an enum
 * hv_py_status: HV_PY_OK (possibly with no frame: a Python thread in no
 * Python code), HV_PY_NO_THREAD, HV_PY_UNSUPPORTED, HV_PY_UNREADABLE. */
int hv_py_walk(hv_py_frame_fn fn, void *ctx, uint32_t max, uint32_t *more);

/* A key of the calling thread's innermost Python frames (their instruction
 * pointers), cheap enough for every call: direct loads through the layout,
 * used only on a thread where hv_py_walk already succeeded (the layout read
 * its frames with bounds checks); 0 before that, or with no Python frame. */
HV_STEP_FN uint64_t hv_py_frames_key(void);
/* 1 once hv_py_walk succeeded on the calling thread, else 0: what
 * HIPVIS_PYFRAMES=first keys a site by instead (reads no frame). */
HV_STEP_FN uint64_t hv_py_thread_walked(void);

/* Line of byte offset `addr` of a code object with first line `first`,
 * from its 3.11+ location table (exposed for the unit test). -1: none. */
int hv_py_addr2line(const uint8_t *table, uint32_t len, int first, int addr);

#endif
