/*
 * envtab — the one table of HIPVIS_* environment variables.
 *
 * Every variable hipvis reads, sets for its children, or tolerates in the
 * environment is declared here once: its name, its kind of value, its
 * default, what it accepts and a one-line help. The tracer's parser
 * (src/tracer/core/config.c) reads its values through this table, the
 * tools read their few through it, `hipvis run --help-env` prints it, and
 * tests/docs holds hipvis(1) and README.md to it.
 *
 * Part of libhvformat, so it is linked into the preload library and runs in
 * the constructor of arbitrary programs: nothing here allocates, takes a
 * lock or depends on the locale.
 */
#ifndef HIPVIS_COMMON_ENVTAB_H
#define HIPVIS_COMMON_ENVTAB_H

#include <stddef.h>

enum hv_env_type {
    HV_ENVT_BOOL,      /* 0 or 1 (parsed as the integer 0..1) */
    HV_ENVT_NUMBER,    /* a decimal integer in [min, max] (common/number.h) */
    HV_ENVT_ENUM,      /* one of `words`; its value is the word's index */
    HV_ENVT_PATH,      /* a path (HV_ENV_ABSOLUTE: starting with '/') */
    HV_ENVT_LIST,      /* a setting with its own syntax, parsed by its owner; `accepted` says it */
    HV_ENVT_HARNESS,   /* read by the build or the test scripts, never by hipvis: listed so it draws no warning */
};

#define HV_ENV_POW2     1u   /* HV_ENVT_NUMBER: a power of two too */
#define HV_ENV_ABSOLUTE 2u   /* HV_ENVT_PATH: an absolute path */

/* Index of each variable in hv_env_table (envtab.c holds the names). */
enum hv_env_id {
    HV_ENV_ENABLE,
    HV_ENV_OUTPUT,
    HV_ENV_RING_KB,
    HV_ENV_FLUSH_MS,
    HV_ENV_ZSTD_LEVEL,
    HV_ENV_QUIET,
    HV_ENV_END_LINE,
    HV_ENV_WRITER_STATS,
    HV_ENV_SIDECAR,
    HV_ENV_SIDECAR_DIR,
    HV_ENV_CODEOBJ_MB,
    HV_ENV_PAYLOAD_BYTES,
    HV_ENV_REWRITE_CHECK_KB,
    HV_ENV_REWRITE_EVERY,
    HV_ENV_REWRITE_FIRST,
    HV_ENV_LAUNCH_EVERY,
    HV_ENV_LAUNCH_FIRST,
    HV_ENV_STACKS,
    HV_ENV_PYFRAMES,
    HV_ENV_RECORD_ARGV,
    HV_ENV_START,
    HV_ENV_START_DELAY_MS,
    HV_ENV_DURATION_MS,
    HV_ENV_LAUNCH_TIME_NS,
    HV_ENV_PROBE,
    HV_ENV_RECORD,
    HV_ENV_FLOOR_APIS,
    HV_ENV_GUARD,
    HV_ENV_GUARD_WHEN,
    HV_ENV_HOSTCHECK,
    HV_ENV_NAMES_CHECKED,
    HV_ENV_ANALYZE,
    HV_ENV_REQUIRE_CUDA,
    HV_ENV_NO_BOOTSTRAP,
    HV_ENV_SETUP_MSG,
    HV_ENV_FRESH_DIR,
    HV_ENV_CHROMIUM,
    HV_ENV_LIB,
    HV_ENV_LIBPATH,
    HV_ENV_DUMP,
    HV_ENV_WORK,
    HV_ENV__COUNT
};

struct hv_env_var {
    const char *name;          /* "HIPVIS_RING_KB" */
    enum hv_env_type type;
    const char *dflt;          /* the value an unset or empty variable stands for, as a user would
                                  write it; NULL: none (the setting is off) */
    long long min, max;        /* HV_ENVT_BOOL, HV_ENVT_NUMBER */
    unsigned flags;            /* HV_ENV_POW2, HV_ENV_ABSOLUTE */
    const char *const *words;  /* HV_ENVT_ENUM: its values in the order of the enum they index, NULL-ended */
    const char *accepted;      /* what a bad value's message says is expected, where min/max or words
                                  do not say it (HV_ENVT_ENUM: may add what each word means) */
    const char *on_bad;        /* NULL: a bad value switches tracing off; else what happens instead
                                  ("guards disabled"), tracing going on */
    const char *help;          /* one line */
};

extern const struct hv_env_var hv_env_table[HV_ENV__COUNT];

/* The entry named `name` (up to `len` bytes, no NUL needed), or NULL. */
const struct hv_env_var *hv_env_find(const char *name, size_t len);

/* Parses `s` as the value of table entry `id` (HV_ENVT_BOOL, HV_ENVT_NUMBER,
 * HV_ENVT_ENUM): an unset or empty `s` stands for the default. 0 and *out
 * (the number, or the word's index), or -1 with *out untouched. Other types:
 * -1. */
int hv_env_parse(enum hv_env_id id, const char *s, long long *out);

/* What entry `id` accepts, in words, into buf (NUL-terminated, truncated):
 * "an integer 16..1048576 that is a power of two", "full or args". */
void hv_env_accepted(enum hv_env_id id, char *buf, size_t cap);

/* getenv of entry `id`, or its default where unset or empty (NULL when it
 * has none). For the tools; the tracer reads its configuration once, in
 * src/tracer/core/config.c. */
const char *hv_env_value(enum hv_env_id id);

/*
 * The HIPVIS_* names of `envp` (an environ-style array) that the table does
 * not hold, one line each appended to out[cap] (NUL-terminated, truncated),
 * with the closest known name when one is near:
 *   hipvis: HIPVIS_RING is not a hipvis setting (did you mean HIPVIS_RING_KB?)
 * Returns how many there are.
 */
unsigned hv_env_unknown_names(char *const *envp, char *out, size_t cap);

#endif
