#include "tracer/intercept/hip/gpu_procs_int.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KFD_NODES "/sys/class/kfd/kfd/topology/nodes"

static char names[HV_GPU_PROCS_MAX][16];
static const char *list[HV_GPU_PROCS_MAX];
static int count;
static pthread_once_t once = PTHREAD_ONCE_INIT;

int hv_gfx_name(unsigned v, char *out, unsigned outlen)
{
    unsigned major = v / 10000, minor = (v / 100) % 100, step = v % 100;
    if (!v || minor > 9 || step > 15)
        return -1;
    return snprintf(out, outlen, "gfx%u%u%x", major, minor, step) < (int)outlen ? 0 : -1;
}

static void add(unsigned version)
{
    char n[16];
    if (count == HV_GPU_PROCS_MAX || hv_gfx_name(version, n, sizeof n) != 0)
        return;
    for (int i = 0; i < count; i++)
        if (!strcmp(names[i], n))
            return;
    memcpy(names[count], n, sizeof n);
    list[count] = names[count];
    count++;
}

/* "9.4.2" -> 90402 */
static unsigned override_version(const char *s)
{
    unsigned a, b, c;
    return s && sscanf(s, "%u.%u.%u", &a, &b, &c) == 3 ? a * 10000 + b * 100 + c : 0;
}

static void scan_kfd(void)
{
    DIR *d = opendir(KFD_NODES);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        char path[512], line[256];
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, KFD_NODES "/%s/properties", e->d_name);
        FILE *f = fopen(path, "re");
        unsigned v = 0;
        while (f && fgets(line, sizeof line, f))
            if (sscanf(line, "gfx_target_version %u", &v) == 1)
                break;
        if (f)
            fclose(f);
        add(v); /* CPU nodes report 0 and are skipped */
    }
    if (d)
        closedir(d);
}

static void detect(void)
{
    unsigned v = override_version(getenv("HSA_OVERRIDE_GFX_VERSION"));
    if (v)
        add(v);
    else
        scan_kfd();
}

int hv_gpu_procs(const char *const **procs)
{
    pthread_once(&once, detect);
    *procs = list;
    return count;
}
