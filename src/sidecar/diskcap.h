/*
 * The total disk cap on trace files. The output directory is the sidecar's
 * own: every regular file named hipvis.*.zst in it counts, including files
 * an earlier sidecar left. When the total exceeds the cap, closed files are
 * deleted oldest first (by modification time, i.e. when their last frame was
 * written) until it fits. Files still open are never deleted: the cap can
 * only be kept when --rotate-bytes x (processes at once) fits in it, which
 * the sidecar checks at start and logs.
 */
#ifndef HV_SIDECAR_DISKCAP_H
#define HV_SIDECAR_DISKCAP_H

#include <stddef.h>
#include <stdint.h>

struct sc_diskcap_result {
    uint64_t total_bytes;       /* after deletions */
    uint64_t deleted_files, deleted_bytes;
    int over;                   /* still over the cap: open files alone exceed it */
};

/* `is_open(ctx, path)` says whether a path is a file being written. */
void sc_diskcap_enforce(const char *dir, uint64_t cap, int (*is_open)(void *ctx, const char *path), void *ctx,
                        struct sc_diskcap_result *out);

#endif
