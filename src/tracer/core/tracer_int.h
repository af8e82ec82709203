/*
 * The core's own state, shared by its files (lifecycle.c, record.c,
 * strings.c, observe.c, switch.c, costore.c) and by nothing else: the
 * rest of the library sees the core through tracer.h.
 */
#ifndef HV_TRACER_CORE_TRACER_INT_H
#define HV_TRACER_CORE_TRACER_INT_H

#include <stddef.h>

#include "tracer/core/tracer.h"
#include "tracer/record/collector.h"
#include "tracer/record/shm_transport.h"
#include "tracer/record/writer_thread.h"

/* The rest of the process-wide state; what every call reads is in hv_hot
 * (hot.h: the state, the stream and allocation tables, the flags), the
 * configuration in hv_tracer_cfg (tracer.h). */
struct hv_tracer {
    struct hv_collector *col;
    struct hv_writer_thread writer;
    struct hv_shm_transport shm;     /* HIPVIS_SIDECAR=1: used instead of the writer */
};

/* The single instance. Everything process-wide hangs off it, by name. */
extern struct hv_tracer hv_tracer;

/* Anonymous zeroed pages; NULL when the system has none. */
void *hv_map_zeroed(size_t bytes);

/* The string table's lock around fork (strings.c): taken before, released
 * in the parent, made anew in the child. */
void hv_strings_before_fork(void);
void hv_strings_after_fork_parent(void);
void hv_strings_after_fork_child(void);

/* The features (tracer.h struct hv_feature), in link order: the linker
 * defines these two around section hv_features, as realsym.c's around
 * hv_wrappers. */
extern const struct hv_feature *const __start_hv_features[] __attribute__((visibility("hidden")));
extern const struct hv_feature *const __stop_hv_features[] __attribute__((visibility("hidden")));
#define HV_FEATURES_EACH(f)                                                                        \
    for (const struct hv_feature *const *f##_at_ = __start_hv_features, *f;                        \
         f##_at_ < __stop_hv_features && (f = *f##_at_, 1); f##_at_++)

#endif
