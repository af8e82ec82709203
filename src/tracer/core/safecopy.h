/*
 * Copying an image the caller handed over without a length
 * (hipModuleLoadData) without trusting it: its own headers say how long it
 * is, and a corrupt header must not make the tracer read unmapped memory
 * and crash a program that the runtime let through.
 */
#ifndef HV_TRACER_CORE_SAFECOPY_H
#define HV_TRACER_CORE_SAFECOPY_H

#include <stddef.h>
#include <sys/types.h>

/* Copies n bytes at src into dst without faulting: returns the bytes read
 * (short at the first unreadable page, 0 when none), or -1 when the kernel
 * refuses the read (process_vm_readv unavailable). */
ssize_t hv_safe_read(void *dst, const void *src, size_t n);

/* The same for n scattered pieces in one system call: local[i] receives
 * remote[i], in order, up to the first piece that cannot be read whole.
 * Returns the bytes read, or -1 as hv_safe_read. */
struct iovec;
ssize_t hv_safe_readv(const struct iovec *local, const struct iovec *remote, unsigned n);

/* Reads the image at `p` into a new buffer (*out, free() it), growing the
 * read until `extent(buf, got)` says how long the image is or a read stops
 * at unreadable memory or `max`. `extent` returns 0 while `got` bytes are
 * not enough to tell. Returns the bytes to decode: the image's extent, or
 * everything readable when it never told (a truncated image, decoded to
 * count why); 0 with *out NULL when nothing could be read. */
size_t hv_safecopy_image(const void *p, size_t max, size_t (*extent)(const void *, size_t), void **out);

#endif
