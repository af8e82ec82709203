/*
 * safe_file — how hipvis creates files (docs/output-files.md).
 *
 * A sidecar often runs as root and writes into directories other users can
 * write (a node_exporter textfile directory, /tmp, a shared trace dir), and
 * traces hold bytes of the traced program's memory. So every file hipvis
 * creates:
 *   - is opened with O_NOFOLLOW (a planted symlink is refused, never
 *     followed) and, when created, O_EXCL (no race with a planted file);
 *   - is replaced, when it must be (metrics), by writing a temporary file
 *     with an unpredictable name made with O_EXCL in the target's own
 *     directory through a directory descriptor, then renameat() over the
 *     target: readers see the old or the new file, never a half-written one,
 *     and the rename cannot be redirected;
 *   - is appended to (alerts) only when it is a regular file owned by us
 *     with a single link (a hard link planted to another file is refused);
 *   - gets an owner-only mode unless the caller says otherwise: traces and
 *     alerts 0600 (they carry user data), metrics 0644 (a collector running
 *     as another user must read them; they carry counts only).
 * All functions return a file descriptor / 0, or -errno, and set no global
 * state (the preload library uses them from its writer thread).
 */
#ifndef HV_COMMON_SAFE_FILE_H
#define HV_COMMON_SAFE_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* Creates path, which must not exist (O_EXCL | O_NOFOLLOW). fd or -errno. */
int hv_file_create_excl(const char *path, mode_t mode);

/* Opens path for appending, creating it with `mode` if missing; an existing
 * path must be a regular file owned by the effective uid with one link.
 * fd or -errno (-ELOOP: a symlink, -EPERM: owner or links, -EINVAL: not a
 * regular file). */
int hv_file_open_append(const char *path, mode_t mode);

/* Opens path for writing from scratch (truncating an existing regular file
 * of ours, refusing symlinks and files of other users, as above). fd or
 * -errno. */
int hv_file_open_trunc(const char *path, mode_t mode);

/* Replaces path atomically with `len` bytes of `data` (temp file in the
 * same directory, O_EXCL, random name, renameat). 0 or -errno. */
int hv_file_replace(const char *path, const void *data, size_t len, mode_t mode);

/* Whether the directory that would hold path exists and is a directory we
 * can create files in (access W_OK|X_OK). 0 or -errno. */
int hv_file_dir_usable(const char *path);

#endif
