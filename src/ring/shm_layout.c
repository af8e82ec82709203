/* Segment naming and geometry, shared by the producer and the sidecar (see
 * record/shm_layout.h). No allocation, no stdio on the producer's paths. */
#include "ring/shm_layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "ring/ring.h"

#define HV_SHM_PAGE 4096u

static uint64_t page_round(uint64_t n) { return (n + HV_SHM_PAGE - 1) & ~(uint64_t)(HV_SHM_PAGE - 1); }

void hv_shm_geometry(uint64_t ring_bytes, struct hv_shm_geometry *g)
{
    g->collector_offset = page_round(sizeof(struct hv_shm_header));
    g->collector_bytes = sizeof(struct hv_collector);
    g->rings_offset = page_round(g->collector_offset + g->collector_bytes);
    g->ring_stride = page_round(hv_ring_footprint(ring_bytes));
}

int hv_shm_path(char *buf, size_t cap, const char *dir, uint64_t uid, uint64_t pid, uint64_t nonce)
{
    int n = snprintf(buf, cap, "%s/" HV_SHM_PREFIX "%llu.%llu.%016llx" HV_SHM_SUFFIX, dir, (unsigned long long)uid,
                     (unsigned long long)pid, (unsigned long long)nonce);
    return n < 0 || (size_t)n >= cap ? -1 : n;
}

/* Reads a decimal field ending at `stop`; -1 unless it is all digits. */
static int take_u64(const char **p, char stop, uint64_t *out)
{
    const char *s = *p;
    uint64_t v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    for (; *s >= '0' && *s <= '9'; s++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    if (*s != stop)
        return -1;
    *out = v;
    *p = s + 1;
    return 0;
}

/* Exactly HV_SHM_NONCE_DIGITS lowercase hex digits, then the end. */
static int is_nonce(const char *p)
{
    for (int i = 0; i < HV_SHM_NONCE_DIGITS; i++, p++)
        if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
            return 0;
    return *p == '.' && p[1] == '\0';
}

int hv_shm_parse_name(const char *name, uint64_t *uid, uint64_t *pid)
{
    size_t n = strlen(name), pl = strlen(HV_SHM_PREFIX), sl = strlen(HV_SHM_SUFFIX);
    if (n <= pl + sl || strncmp(name, HV_SHM_PREFIX, pl) != 0 || strcmp(name + n - sl, HV_SHM_SUFFIX) != 0)
        return -1;
    char body[64];
    if (n - pl - sl + 2 > sizeof body)   /* room for the added '.' and the NUL */
        return -1;
    memcpy(body, name + pl, n - pl - sl);
    body[n - pl - sl] = '.';          /* every field now ends with '.' */
    body[n - pl - sl + 1] = '\0';
    const char *p = body;
    if (take_u64(&p, '.', uid) < 0 || take_u64(&p, '.', pid) < 0 || !is_nonce(p))
        return -1;
    return 0;
}

int hv_shm_proc_start(uint64_t pid, uint64_t *start_ticks, char *state)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%llu/stat", (unsigned long long)pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    /* comm (field 2) may hold spaces and parentheses: fields resume after
     * the last ')'. Then: state (3) ... starttime (22). */
    char *p = strrchr(buf, ')');
    if (!p || p[1] != ' ')
        return -1;
    p += 2;
    *state = *p;
    for (int field = 3; field < 22; field++) {
        p = strchr(p, ' ');
        if (!p)
            return -1;
        p++;
    }
    *start_ticks = strtoull(p, NULL, 10);
    return 0;
}

/* f_type values (linux/magic.h), kept here so no kernel header is needed. */
#define FS_TMPFS 0x01021994UL
#define FS_RAMFS 0x858458f6UL
#define FS_HUGETLBFS 0x958458f6UL
#define FS_EXT4 0xef53UL
#define FS_XFS 0x58465342UL
#define FS_BTRFS 0x9123683eUL
#define FS_OVERLAY 0x794c7630UL
#define FS_NFS 0x6969UL

int hv_shm_fs_in_memory(int fd, char *name, size_t cap)
{
    struct statfs st;
    if (fstatfs(fd, &st) != 0)
        return -errno;
    unsigned long t = (unsigned long)st.f_type;
    if (t == FS_TMPFS || t == FS_RAMFS || t == FS_HUGETLBFS)
        return 1;
    const char *known = t == FS_EXT4      ? "ext2/ext3/ext4"
                        : t == FS_XFS     ? "xfs"
                        : t == FS_BTRFS   ? "btrfs"
                        : t == FS_OVERLAY ? "overlayfs"
                        : t == FS_NFS     ? "nfs"
                                          : NULL;
    if (known)
        snprintf(name, cap, "%s", known);
    else
        snprintf(name, cap, "type 0x%lx", t);
    return 0;
}
