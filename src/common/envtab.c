/* The HIPVIS_* table and its helpers: see envtab.h. No allocation, no
 * stdio, no locale: this runs in the traced program's constructor. */
#include "common/envtab.h"

#include <stdlib.h>
#include <string.h>

#include "common/number.h"

static const char *const pyframes_words[] = {"0", "1", "first", NULL};   /* enum hv_pyframes_mode */
static const char *const start_words[] = {"all", "profiler", "signal", NULL};   /* enum hv_start_mode */
static const char *const record_words[] = {"full", "args", NULL};   /* enum hv_record_mode */
static const char *const guard_words[] = {"off", "stream-sync", "event-sync", "event-sync-nofence",
                                          "release-event", "copy-sync", NULL};   /* enum hv_guard_mode */
static const char *const guard_when_words[] = {"flagged", "always", NULL};
static const char *const hostcheck_words[] = {"0", "1", "managed", NULL};   /* enum hv_hostcheck_mode */

#define BOOL(dflt) HV_ENVT_BOOL, dflt, 0, 1, 0, NULL, NULL, NULL
#define NUMBER(dflt, lo, hi, flags) HV_ENVT_NUMBER, dflt, lo, hi, flags, NULL, NULL, NULL
#define HARNESS HV_ENVT_HARNESS, NULL, 0, 0, 0, NULL, NULL, NULL

const struct hv_env_var hv_env_table[HV_ENV__COUNT] = {
    [HV_ENV_ENABLE] = {"HIPVIS_ENABLE", BOOL("1"), "0: the library is loaded but records nothing"},
    [HV_ENV_OUTPUT] = {"HIPVIS_OUTPUT", HV_ENVT_PATH, "hipvis.%p.zst", 0, 0, 0, NULL,
                       "a file path template (%p pid, %h host)", NULL,
                       "the trace file of each traced process (hipvis run -o DIR sets it)"},
    [HV_ENV_RING_KB] = {"HIPVIS_RING_KB", NUMBER("4096", 16, 1048576, HV_ENV_POW2),
                        "KiB of ring per tracing thread (docs/trace-format.md, \"Loss\")"},
    [HV_ENV_FLUSH_MS] = {"HIPVIS_FLUSH_MS", NUMBER("50", 1, 100, 0),
                         "longest wait, ms, before the writer thread drains the rings"},
    [HV_ENV_ZSTD_LEVEL] = {"HIPVIS_ZSTD_LEVEL", NUMBER("3", 1, 19, 0), "zstd level of the trace file"},
    [HV_ENV_QUIET] = {"HIPVIS_QUIET", BOOL("0"),
                      "1: no start or end line and no warning on stderr (a bad value is still named)"},
    [HV_ENV_END_LINE] = {"HIPVIS_END_LINE", BOOL("1"),
                         "0: no end line of the process's own (hipvis run sets it and prints one line per trace "
                         "after the command)"},
    [HV_ENV_WRITER_STATS] = {"HIPVIS_WRITER_STATS", BOOL("0"), "1: the writer thread's drain figures at exit"},
    [HV_ENV_SIDECAR] = {"HIPVIS_SIDECAR", BOOL("0"),
                        "1: shared-memory rings for hipvis-sidecar instead of a file (hipvis run --sidecar)"},
    [HV_ENV_SIDECAR_DIR] = {"HIPVIS_SIDECAR_DIR", HV_ENVT_PATH, "/dev/shm", 0, 0, HV_ENV_ABSOLUTE, NULL,
                            "an absolute directory path", NULL,
                            "directory of the sidecar's shared-memory segments (hipvis-sidecar reads it too)"},
    [HV_ENV_CODEOBJ_MB] = {"HIPVIS_CODEOBJ_MB", NUMBER("128", 0, 65536, 0),
                           "MiB of code objects stored in the trace, first use only (0: none)"},
    /* Payloads default off: they can carry user data (token ids), and a
     * serving loop's per-step metadata copy would cost the writer a few KiB
     * per step (docs/evidence.md "Defaults"). */
    [HV_ENV_PAYLOAD_BYTES] = {"HIPVIS_PAYLOAD_BYTES", NUMBER("0", 0, 16384, 0),
                              "source bytes recorded per H2D copy (user data; --find-value needs them)"},
    [HV_ENV_REWRITE_CHECK_KB] = {"HIPVIS_REWRITE_CHECK_KB", NUMBER("16", 0, 1024, 0),
                                 "pinned async H2D copies up to this many KiB are re-hashed when seen complete "
                                 "(0: off)"},
    [HV_ENV_REWRITE_EVERY] = {"HIPVIS_REWRITE_EVERY", NUMBER("256", 1, 65536, 0),
                              "the rewrite check samples one eligible copy in this many per thread (1: every copy)"},
    [HV_ENV_REWRITE_FIRST] = {"HIPVIS_REWRITE_FIRST", NUMBER("4096", 0, 1048576, 0),
                              "each thread's first this many copies are all checked before sampling starts"},
    [HV_ENV_LAUNCH_EVERY] = {"HIPVIS_LAUNCH_EVERY", NUMBER("16", 1, 65536, 0),
                             "an eager launch records its kernel and arguments with probability 1 in this many "
                             "(1: every launch)"},
    [HV_ENV_LAUNCH_FIRST] = {"HIPVIS_LAUNCH_FIRST", NUMBER("4096", 0, 1048576, 0),
                             "each thread's first this many launches all carry their evidence"},
    [HV_ENV_STACKS] = {"HIPVIS_STACKS", BOOL("0"), "1: caller stacks at writes and graph launches"},
    /* Python frames at the first call on each target by default: the
     * every-site key read is ~0.5 points of a GPU decode step
     * (docs/performance.md); a report marks
     * the lines a call inherited, and "1" records every site (docs/names.md). */
    [HV_ENV_PYFRAMES] = {"HIPVIS_PYFRAMES", HV_ENVT_ENUM, "first", 0, 0, 0, pyframes_words,
                         "0 (off), 1 (every site) or first (the first call on each target)", NULL,
                         "Python stacks at writes, replays, captures, instantiations and allocations"},
    [HV_ENV_RECORD_ARGV] = {"HIPVIS_RECORD_ARGV", BOOL("1"),
                            "1: the traced command line in the trace header (it may hold secrets)"},
    [HV_ENV_START] = {"HIPVIS_START", HV_ENVT_ENUM, "all", 0, 0, 0, start_words, NULL, NULL,
                      "when data calls are recorded: from the start, between profiler start and stop, "
                      "or toggled by SIGUSR2"},
    /* A window in time on top of HIPVIS_START, counted from the launch
     * (HIPVIS_LAUNCH_TIME_NS) so that every process of a job, however late
     * it starts, records the same stretch of wall-clock time. */
    [HV_ENV_START_DELAY_MS] = {"HIPVIS_START_DELAY_MS", NUMBER("0", 0, 2147483647, 0),
                               "data calls are recorded from this many ms after the launch on "
                               "(hipvis run --delay)"},
    [HV_ENV_DURATION_MS] = {"HIPVIS_DURATION_MS", NUMBER("0", 0, 2147483647, 0),
                            "data calls are recorded for this many ms from the delay on, 0: to the end "
                            "(hipvis run --duration)"},
    [HV_ENV_LAUNCH_TIME_NS] = {"HIPVIS_LAUNCH_TIME_NS", NUMBER("0", 0, 9223372036854775807LL, 0),
                               "set by hipvis run: the launch as wall-clock ns since the epoch, from which "
                               "every process counts the delay (0: from its own start)"},
    [HV_ENV_PROBE] = {"HIPVIS_PROBE", HV_ENVT_LIST, "off", 0, 0, 0, NULL,
                      "off, auto, or up to 16 ADDR:LEN ranges separated by commas (LEN 1..4096)", NULL,
                      "three-point D2D snapshots of device ranges (changes timing)"},
    [HV_ENV_RECORD] = {"HIPVIS_RECORD", HV_ENVT_ENUM, "args", 0, 0, 0, record_words, NULL, NULL,
                       "a serving step's calls as argument words (args) or derived in the process (full); "
                       "unset, a setting that needs full selects it"},
    [HV_ENV_FLOOR_APIS] = {"HIPVIS_FLOOR_APIS", HV_ENVT_LIST, NULL, 0, 0, 0, NULL,
                           "API names joined by + (those calls record at the floor), or all-NAME-NAME (every call "
                           "but those), e.g. cudaGraphLaunch+cudaStreamSynchronize",
                           NULL, "read only by a measurement build (-DHV_RECORD_FLOOR=3, 4 or 5)"},
    [HV_ENV_GUARD] = {"HIPVIS_GUARD", HV_ENVT_ENUM, "off", 0, 0, 0, guard_words, NULL, "guards disabled",
                      "synchronization applied before a graph launch that same-epoch-write would flag"},
    [HV_ENV_GUARD_WHEN] = {"HIPVIS_GUARD_WHEN", HV_ENVT_ENUM, "flagged", 0, 0, 0, guard_when_words, NULL,
                           "using flagged", "always: guard every launch (the cost baseline of an A/B)"},
    [HV_ENV_HOSTCHECK] = {"HIPVIS_HOSTCHECK", HV_ENVT_ENUM, "0", 0, 0, 0, hostcheck_words,
                          "0, 1 or managed", NULL,
                          "1: host accesses to memory an in-flight copy, memset or kernel uses fault once and "
                          "are recorded (docs/hostcheck.md); managed: managed memory with mprotect where the CPU "
                          "has no protection keys"},
    [HV_ENV_NAMES_CHECKED] = {"HIPVIS_NAMES_CHECKED", BOOL("0"),
                              "set to 1 by hipvis run once it has named the unknown HIPVIS_* variables, "
                              "so the traced processes do not repeat it"},
    /* Read by the Python package (python/hipvis), never by the library: a
     * setting all the same, since a user sets it; a path, but with no
     * default path (the package searches), hence a LIST its owner parses. */
    [HV_ENV_ANALYZE] = {"HIPVIS_ANALYZE", HV_ENVT_LIST, NULL, 0, 0, 0, NULL, "a path to hipvis-analyze", NULL,
                        "the hipvis-analyze that the Python package's hipvis.analyze() runs (unset: beside its "
                        "install prefix, then PATH, then the checkout's build/)"},
    [HV_ENV_REQUIRE_CUDA] = {"HIPVIS_REQUIRE_CUDA", HARNESS,
                             "make check: 1 fails the CUDA suites, instead of skipping them, without the toolkit"},
    [HV_ENV_NO_BOOTSTRAP] = {"HIPVIS_NO_BOOTSTRAP", HARNESS, "make: 1 skips installing the build's packages"},
    [HV_ENV_SETUP_MSG] = {"HIPVIS_SETUP_MSG", HARNESS, ".ci/run --deps: stdout puts its error line on stdout"},
    [HV_ENV_FRESH_DIR] = {"HIPVIS_FRESH_DIR", HARNESS, "tests/setup/fresh_chroot.sh: the chroot's directory"},
    [HV_ENV_CHROMIUM] = {"HIPVIS_CHROMIUM", HARNESS, "tests/html: the browser the HTML report tests drive"},
    [HV_ENV_LIB] = {"HIPVIS_LIB", HARNESS, "tests/gpu cost scripts: the libhipvis.so they preload"},
    [HV_ENV_LIBPATH] = {"HIPVIS_LIBPATH", HARNESS, "tests/gpu cost scripts: the libraries it may need"},
    [HV_ENV_DUMP] = {"HIPVIS_DUMP", HARNESS, "tests/gpu and tests/cuda scripts: the hipvis-dump they run"},
    [HV_ENV_WORK] = {"HIPVIS_WORK", HARNESS, "tests/gpu cost scripts: their scratch directory"},
};

const struct hv_env_var *hv_env_find(const char *name, size_t len)
{
    for (int i = 0; i < HV_ENV__COUNT; i++)
        if (strncmp(hv_env_table[i].name, name, len) == 0 && hv_env_table[i].name[len] == '\0')
            return &hv_env_table[i];
    return NULL;
}

int hv_env_parse(enum hv_env_id id, const char *s, long long *out)
{
    const struct hv_env_var *e = &hv_env_table[id];
    if (!s || !*s)
        s = e->dflt;
    if (!s)
        return -1;
    if (e->type == HV_ENVT_BOOL || e->type == HV_ENVT_NUMBER) {
        long long x = 0;
        if (hv_num_range(s, 0, e->min, e->max, &x) != 0 || ((e->flags & HV_ENV_POW2) && (x & (x - 1)) != 0))
            return -1;
        *out = x;
        return 0;
    }
    if (e->type == HV_ENVT_ENUM)
        for (int i = 0; e->words[i]; i++)
            if (strcmp(s, e->words[i]) == 0) {
                *out = i;
                return 0;
            }
    return -1;
}

/* Appends s[0..n) to out[cap] at *used, keeping the NUL. */
static void put(char *out, size_t cap, size_t *used, const char *s, size_t n)
{
    if (*used + 1 >= cap)
        return;
    if (n > cap - 1 - *used)
        n = cap - 1 - *used;
    memcpy(out + *used, s, n);
    *used += n;
    out[*used] = '\0';
}

static void puts_(char *out, size_t cap, size_t *used, const char *s) { put(out, cap, used, s, strlen(s)); }

static void put_num(char *out, size_t cap, size_t *used, long long v)
{
    char digits[24];
    size_t n = sizeof digits;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        digits[--n] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        digits[--n] = '-';
    put(out, cap, used, digits + n, sizeof digits - n);
}

void hv_env_accepted(enum hv_env_id id, char *buf, size_t cap)
{
    const struct hv_env_var *e = &hv_env_table[id];
    size_t used = 0;
    if (cap)
        buf[0] = '\0';
    if (e->accepted) {
        puts_(buf, cap, &used, e->accepted);
    } else if (e->type == HV_ENVT_BOOL || e->type == HV_ENVT_NUMBER) {
        puts_(buf, cap, &used, "an integer ");
        put_num(buf, cap, &used, e->min);
        puts_(buf, cap, &used, "..");
        put_num(buf, cap, &used, e->max);
        if (e->flags & HV_ENV_POW2)
            puts_(buf, cap, &used, " that is a power of two");
    } else if (e->type == HV_ENVT_ENUM) {
        for (int i = 0; e->words[i]; i++) {
            if (i)
                puts_(buf, cap, &used, e->words[i + 1] ? ", " : " or ");
            puts_(buf, cap, &used, e->words[i]);
        }
    }
}

const char *hv_env_value(enum hv_env_id id)
{
    const char *v = getenv(hv_env_table[id].name);
    return v && *v ? v : hv_env_table[id].dflt;
}

#define NEAR_MAX 64   /* longest name (after HIPVIS_) that gets a suggestion */

/* Edit distance (insert, delete, substitute) of a[0..na) and b[0..nb), both
 * at most NEAR_MAX bytes. */
static unsigned distance(const char *a, size_t na, const char *b, size_t nb)
{
    unsigned row[NEAR_MAX + 1];
    for (size_t j = 0; j <= nb; j++)
        row[j] = (unsigned)j;
    for (size_t i = 1; i <= na; i++) {
        unsigned diag = row[0];
        row[0] = (unsigned)i;
        for (size_t j = 1; j <= nb; j++) {
            unsigned up = row[j];
            unsigned best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[nb];
}

/* The known name nearest to name[0..len), when it is near enough to be the
 * one meant: at most half the longer name (after the common HIPVIS_) apart. */
static const char *nearest(const char *name, size_t len)
{
    static const size_t skip = sizeof "HIPVIS_" - 1;
    const char *best = NULL;
    unsigned best_d = ~0u;
    if (len - skip > NEAR_MAX)
        return NULL;
    for (int i = 0; i < HV_ENV__COUNT; i++) {
        const char *k = hv_env_table[i].name + skip;
        size_t nk = strlen(k);
        if (nk > NEAR_MAX)
            continue;
        unsigned d = distance(name + skip, len - skip, k, nk);
        size_t longer = nk > len - skip ? nk : len - skip;
        if (d < best_d && d * 2 <= longer) {
            best_d = d;
            best = hv_env_table[i].name;
        }
    }
    return best;
}

unsigned hv_env_unknown_names(char *const *envp, char *out, size_t cap)
{
    unsigned n = 0;
    size_t used = cap ? strlen(out) : 0;
    for (size_t i = 0; envp && envp[i]; i++) {
        const char *v = envp[i];
        if (strncmp(v, "HIPVIS_", 7) != 0)
            continue;
        size_t len = strcspn(v, "=");
        if (hv_env_find(v, len))
            continue;
        n++;
        const char *near = nearest(v, len);
        puts_(out, cap, &used, "hipvis: ");
        put(out, cap, &used, v, len > 200 ? 200 : len);
        puts_(out, cap, &used, " is not a hipvis setting (");
        if (near) {
            puts_(out, cap, &used, "did you mean ");
            puts_(out, cap, &used, near);
            puts_(out, cap, &used, "?)\n");
        } else {
            puts_(out, cap, &used, "hipvis run --help-env lists them)\n");
        }
    }
    return n;
}
