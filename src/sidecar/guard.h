/*
 * Reading another process's shared memory safely. A segment truncated under
 * the sidecar (a buggy or hostile producer, a tmpfs that ran out of space)
 * turns every access to the vanished pages into SIGBUS; the sidecar must
 * report that segment and go on with the others, never crash. sc_guarded()
 * runs a function with SIGBUS turned into a -1 return.
 *
 * The guarded function must leave everything consistent at every access to
 * the segment (it is abandoned mid-way): the sidecar's readers copy a record
 * out of the ring before acting on it.
 */
#ifndef HV_SIDECAR_GUARD_H
#define HV_SIDECAR_GUARD_H

/* Installs the SIGBUS handler (once, at start). 0 or -1. */
int sc_guard_install(void);
/* Runs fn(arg); returns 0, or -1 when it hit SIGBUS. Not reentrant. */
int sc_guarded(void (*fn)(void *), void *arg);

#endif
