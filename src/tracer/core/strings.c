/*
 * Interned strings (tracer.h hv_string_id): each text gets an id and one
 * HV_REC_STRING record, the first time it is named.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "common/strset.h"
#include "tracer/core/tracer_int.h"

/* Cold path, so a mutex-protected set is fine. */
#define HV_STRING_IDS 8192u   /* distinct strings with an id; more go without */
static struct hv_strset strings;   /* id - 1 -> text */
static pthread_mutex_t string_lock = PTHREAD_MUTEX_INITIALIZER;

uint32_t hv_string_id(struct hv_thread_ctx *t, const char *s, uint64_t seq)
{
    if (!s)
        return 0;
    pthread_mutex_lock(&string_lock);
    uint32_t i = hv_strset_find(&strings, s);
    int fresh = i == HV_U64MAP_NONE && strings.n < HV_STRING_IDS &&
                (i = hv_strset_intern(&strings, s)) != HV_U64MAP_NONE;
    uint32_t id = i == HV_U64MAP_NONE ? 0 : i + 1;
    pthread_mutex_unlock(&string_lock);
    if (fresh) {
        size_t len = strlen(s);
        if (len > 4000)
            len = 4000;
        struct hv_string *rec = hv_aux_begin(t, HV_REC_STRING, (uint32_t)(sizeof *rec + len), seq);
        if (rec) {
            rec->id = id;
            rec->len = (uint32_t)len;
            memcpy(rec + 1, s, len);
            hv_aux_commit(t, rec);
        }
    }
    return id;
}


void hv_strings_before_fork(void) { pthread_mutex_lock(&string_lock); }
void hv_strings_after_fork_parent(void) { pthread_mutex_unlock(&string_lock); }
void hv_strings_after_fork_child(void) { pthread_mutex_init(&string_lock, NULL); }
