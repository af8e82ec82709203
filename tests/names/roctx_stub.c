/* TEST-ONLY stand-in for ROCm's libroctx64.so (not installed here): the
 * marker API with nesting depths, so a program can link against it and
 * hipvis's interposed roctx functions have a real one to call. */
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

static __thread int depth;
static uint64_t next_id = 1;

EXPORT int roctxRangePushA(const char *message)
{
    (void)message;
    return depth++;
}

EXPORT int roctxRangePop(void) { return depth > 0 ? --depth : -1; }

EXPORT void roctxMarkA(const char *message) { (void)message; }

EXPORT uint64_t roctxRangeStartA(const char *message)
{
    (void)message;
    return __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
}

EXPORT void roctxRangeStop(uint64_t id) { (void)id; }
