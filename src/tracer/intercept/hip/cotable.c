#include "tracer/intercept/hip/cotable_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "tracer/intercept/hip/gpu_procs_int.h"
#include "tracer/core/costore.h"

#define MAX_PROCS 32

/* Which objects one loaded image added. */
struct modrec {
    uint64_t module;
    uint32_t first, end; /* objects [first, end) of the table */
    long dup;            /* a bare ELF already in the table: its object, else -1 */
    struct modrec *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t fork_once = PTHREAD_ONCE_INIT;
static struct hv_co_table table;
static struct hv_co_store **stores; /* parallel to table.objects */
static size_t nstores;
static struct modrec *mods;
static const char *procs[MAX_PROCS]; /* distinct processors in the table */
static int nprocs;

static void note_procs(size_t from)
{
    for (size_t o = from; o < table.nobjects; o++) {
        int known = 0;
        for (int i = 0; i < nprocs && !known; i++)
            known = !strcmp(procs[i], table.objects[o].proc);
        if (!known && nprocs < MAX_PROCS)
            procs[nprocs++] = table.objects[o].proc;
    }
}

/* Creates the stores of objects [from, table.nobjects). */
static void add_stores(size_t from)
{
    if (table.nobjects <= from)
        return;
    struct hv_co_store **s = realloc(stores, table.nobjects * sizeof *s);
    if (!s)
        return;
    stores = s;
    for (size_t o = from; o < table.nobjects; o++) {
        const struct hv_co_object *ob = &table.objects[o];
        stores[o] = hv_costore_object(ob->hash, ob->elf, ob->len, ob->target);
    }
    nstores = table.nobjects;
}

static struct modrec *find_mod(uint64_t module)
{
    struct modrec *m = mods;
    while (m && m->module != module)
        m = m->next;
    return m;
}

/* A handle is reused after hipModuleUnload: the newest load wins. */
static void set_mod(uint64_t module, uint32_t first, uint32_t end, long dup)
{
    struct modrec *m = find_mod(module);
    if (!m && (m = calloc(1, sizeof *m)) != NULL) {
        m->module = module;
        m->next = mods;
        mods = m;
    }
    if (m)
        *m = (struct modrec){module, first, end, dup, m->next};
}

/* Whether some new object of [from, table.nobjects) points into `buf`. */
static int references(const void *buf, size_t len, size_t from)
{
    for (size_t o = from; o < table.nobjects; o++) {
        const unsigned char *e = table.objects[o].elf;
        if (!table.objects[o].owned && e >= (const unsigned char *)buf && e < (const unsigned char *)buf + len)
            return 1;
    }
    return 0;
}

/* fork() while another thread holds the lock must not leave it held in the
 * child, which may load modules too. */
static void lock_table(void) { pthread_mutex_lock(&lock); }
static void unlock_table(void) { pthread_mutex_unlock(&lock); }
static void register_atfork(void) { pthread_atfork(lock_table, unlock_table, unlock_table); }

void hv_cotab_load(uint64_t module, const void *image, size_t len, void *copy, struct hv_cotab_load *out)
{
    pthread_once(&fork_once, register_atfork);
    memset(out, 0, sizeof *out);
    memset(out->first_offset, 0xff, sizeof out->first_offset);
    if (!image || !len) {
        free(copy);
        return;
    }
    out->image_hash = hv_co_hash64(image, len);
    pthread_mutex_lock(&lock);
    size_t first = table.nobjects;
    /* The same bare ELF loaded again (one module per device, or per
     * process restart of a JIT cache): nothing new to decode. */
    long dup = len >= 4 && !memcmp(image, "\x7f" "ELF", 4) ? hv_co_find_object(&table, out->image_hash) : -1;
    if (dup >= 0) {
        out->nkernels = table.objects[dup].nkernels;
    } else {
        uint32_t before[HV_CO_ERR__COUNT], nissues = table.nissues;
        memcpy(before, table.errors, sizeof before);
        int n = hv_co_parse(&table, image, len, NULL);
        out->nkernels = n > 0 ? (uint32_t)n : 0;
        for (int e = 0; e < HV_CO_ERR__COUNT; e++) {
            out->errors[e] = table.errors[e] - before[e];
            out->problems += out->errors[e];
        }
        /* The table logs the offsets of the process's first few issues. */
        for (uint32_t i = nissues; i < table.nissues && i < HV_CO_MAX_ISSUES; i++)
            if (out->first_offset[table.issues[i].err] == UINT64_MAX)
                out->first_offset[table.issues[i].err] = table.issues[i].offset;
        note_procs(first);
        add_stores(first);
    }
    set_mod(module, (uint32_t)first, (uint32_t)table.nobjects, dup);
    if (copy && !references(copy, len, first))
        free(copy); /* otherwise kept for good: the stores read it */
    pthread_mutex_unlock(&lock);
}

void hv_cotab_unload(uint64_t module)
{
    pthread_mutex_lock(&lock);
    struct modrec *m = find_mod(module);
    for (uint32_t o = m ? m->first : 0; m && o < m->end && o < nstores; o++)
        if (!table.objects[o].owned)
            hv_costore_forget(stores[o]);
    pthread_mutex_unlock(&lock);
}

/* Kernel `name` in object o, -1 if none. The name index gives the lowest
 * kernel of that name of o's processor; when that one is in another object
 * (another module with a kernel of the same name), o is searched itself. */
static long kernel_in(size_t o, const char *name)
{
    const struct hv_co_object *ob = &table.objects[o];
    const struct hv_co_kernel *k = hv_co_find_arch(&table, name, ob->proc);
    if (!k)
        return -1;
    if (k->object == o)
        return k - table.kernels;
    for (uint32_t i = ob->first_kernel; i < ob->first_kernel + ob->nkernels; i++)
        if (!strcmp(table.kernels[i].name, name))
            return i;
    return -1;
}

/* Candidate kernels (one per object) for `name` of `module`. */
static uint32_t candidates(uint64_t module, const char *name, long *out)
{
    uint32_t n = 0;
    const struct modrec *m = find_mod(module);
    for (uint32_t o = m ? m->first : 0; m && o < m->end && n < HV_CO_MAX_CANDIDATES; o++)
        if ((out[n] = kernel_in(o, name)) >= 0)
            n++;
    if (m && m->dup >= 0 && n < HV_CO_MAX_CANDIDATES && (out[n] = kernel_in((size_t)m->dup, name)) >= 0)
        n++;
    /* Registered functions whose fat binary was not decoded (or a module
     * handle we did not see load): any processor's copy of the name. */
    for (int p = 0; n == 0 && p < nprocs; p++) {
        const struct hv_co_kernel *k = hv_co_find_arch(&table, name, procs[p]);
        if (k && n < HV_CO_MAX_CANDIDATES)
            out[n++] = k - table.kernels;
    }
    return n;
}

/* Keeps the candidates built for this machine's GPUs, when known and
 * present; a kernel that has none for them cannot run here anyway. */
static uint32_t for_this_machine(long *k, uint32_t n)
{
    const char *const *gpu;
    int ngpu = hv_gpu_procs(&gpu);
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; i++)
        for (int g = 0; g < ngpu; g++)
            if (!strcmp(table.kernels[k[i]].arch, gpu[g])) {
                k[kept++] = k[i];
                break;
            }
    return kept ? kept : n;
}

/* The access the runtime must assume (AMDGPUUsage, code object V3+
 * metadata): .actual_access, else .access, else what .is_const implies. */
static uint8_t access_of(const struct hv_co_arg *a)
{
    switch (hv_co_arg_access(a)) {
    case HV_CO_ACC_READ_ONLY: return HV_ACCESS_READ;
    case HV_CO_ACC_WRITE_ONLY: return HV_ACCESS_WRITE;
    case HV_CO_ACC_READ_WRITE: return HV_ACCESS_READ_WRITE;
    case HV_CO_ACC_UNKNOWN: return a->is_const ? HV_ACCESS_READ : HV_ACCESS_READ_WRITE;
    default: return HV_ACCESS_UNKNOWN;
    }
}

uint64_t hv_cotab_bind(uint64_t module, const char *name, struct hv_kernel_info *info, struct hv_kernel_arg *args,
                       const char **names)
{
    long cand[HV_CO_MAX_CANDIDATES];
    struct hv_co_store *s[HV_CO_MAX_CANDIDATES];
    uint64_t hash = 0;
    info->args = args;
    info->nargs = info->kernarg_bytes = 0;
    info->co = NULL;
    if (!name)
        return 0;
    pthread_mutex_lock(&lock);
    uint32_t n = for_this_machine(cand, candidates(module, name, cand));
    if (n) {
        const struct hv_co_kernel *k = &table.kernels[cand[0]];
        hash = k->code_object_hash;
        info->kernarg_bytes = k->kernarg_size;
        for (uint32_t i = 0; i < k->nargs && info->nargs < HV_MAX_KERNEL_ARGS; i++) {
            const struct hv_co_arg *a = &k->args[i];
            if (a->value_kind == HV_CO_VK_HIDDEN)
                continue; /* the runtime fills these; they are not in a params array */
            if (names)   /* table strings: kept until the process ends */
                names[info->nargs] = a->name;
            args[info->nargs++] = (struct hv_kernel_arg){
                a->offset, a->size, a->value_kind == HV_CO_VK_GLOBAL_BUFFER ? HV_ARGK_POINTER : HV_ARGK_BY_VALUE,
                a->value_kind == HV_CO_VK_GLOBAL_BUFFER ? access_of(a) : HV_ACCESS_UNKNOWN};
        }
        uint32_t ns = 0;
        for (uint32_t i = 0; i < n; i++)
            if (table.kernels[cand[i]].object < nstores && stores[table.kernels[cand[i]].object])
                s[ns++] = stores[table.kernels[cand[i]].object];
        info->co = hv_costore_use(s, ns);
    }
    pthread_mutex_unlock(&lock);
    return hash;
}
