/*
 * Interned strings (tracer.h hv_string_id): each text gets an id and one
 * HV_REC_STRING record, the first time it is named.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/core/tracer_int.h"

/* ---- strings: cold path, so a mutex-protected table is fine ---- */

#define HV_STRING_SLOTS 8192u
struct string_slot {
    uint64_t hash;
    uint32_t id;
    char *text;
};
static struct string_slot *string_slots;
static uint32_t string_next_id = 1;
static pthread_mutex_t string_lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 0x100000001b3ull;
    return h;
}

uint32_t hv_string_id(struct hv_thread_ctx *t, const char *s, uint64_t seq)
{
    if (!s)
        return 0;
    uint64_t h = fnv1a(s);
    uint32_t id = 0;
    int fresh = 0;
    pthread_mutex_lock(&string_lock);
    if (!string_slots)
        string_slots = hv_map_zeroed(HV_STRING_SLOTS * sizeof *string_slots);
    if (string_slots) {
        for (uint32_t i = (uint32_t)h & (HV_STRING_SLOTS - 1), n = 0; n < HV_STRING_SLOTS;
             n++, i = (i + 1) & (HV_STRING_SLOTS - 1)) {
            struct string_slot *sl = &string_slots[i];
            if (sl->text && sl->hash == h && strcmp(sl->text, s) == 0) {
                id = sl->id;
                break;
            }
            if (!sl->text) {
                sl->text = strdup(s);
                if (sl->text) {
                    sl->hash = h;
                    sl->id = id = string_next_id++;
                    fresh = 1;
                }
                break;
            }
        }
    }
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
