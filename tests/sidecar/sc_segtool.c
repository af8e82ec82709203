/*
 * Damages sidecar segments on purpose (TEST-ONLY), to show that the sidecar
 * reports and skips them instead of crashing:
 *
 *   sc_segtool garbage PATH            a 0600 file of nonzero junk (bad magic)
 *   sc_segtool geometry PATH           an existing segment: ring_bytes no longer matches its layout
 *   sc_segtool ring PATH               an existing segment: the record at ring 0's tail gets size 3
 *   sc_segtool tail PATH               an existing segment: ring 0's tail moves 4 bytes on (not 8-aligned)
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ring/ring.h"
#include "ring/shm_layout.h"

static int garbage(const char *path)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
    if (fd < 0)
        return perror(path), 1;
    char junk[8192];
    for (size_t i = 0; i < sizeof junk; i++)
        junk[i] = (char)(i * 131 + 7);
    int ok = write(fd, junk, sizeof junk) == (ssize_t)sizeof junk;
    close(fd);
    return ok ? 0 : 1;
}

static int damage(const char *path, int what)
{
    int fd = open(path, O_RDWR);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        return perror(path), 1;
    uint8_t *m = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return perror("mmap"), 1;
    struct hv_shm_header *h = (struct hv_shm_header *)m;
    int rc = 0;
    if (what == 'g') {
        h->ring_bytes = 3 * h->ring_bytes;
    } else {
        uint64_t off = atomic_load(&h->slot_offset[0]);
        if (!off || off + h->ring_stride > (uint64_t)st.st_size) {
            fprintf(stderr, "%s: no ring 0\n", path);
            rc = 1;
        } else {
            struct hv_ring *r = (struct hv_ring *)(m + off);
            uint64_t tail = atomic_load(&r->tail), head = atomic_load(&r->head);
            if (head == tail) {
                fprintf(stderr, "%s: ring 0 is empty\n", path);
                rc = 1;
            } else if (what == 't') {
                atomic_store(&r->tail, tail + 4);
            } else {
                struct hv_rec_header *rec = (struct hv_rec_header *)(hv_ring_data(r) + (tail & (r->capacity - 1)));
                rec->type = HV_REC_CALL;
                rec->size = 3;
            }
        }
    }
    munmap(m, (size_t)st.st_size);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: sc_segtool garbage|geometry|ring|tail PATH\n");
        return 2;
    }
    if (!strcmp(argv[1], "garbage"))
        return garbage(argv[2]);
    if (!strcmp(argv[1], "geometry"))
        return damage(argv[2], 'g');
    if (!strcmp(argv[1], "ring"))
        return damage(argv[2], 'r');
    if (!strcmp(argv[1], "tail"))
        return damage(argv[2], 't');
    fprintf(stderr, "sc_segtool: unknown action %s\n", argv[1]);
    return 2;
}
