/*
 * The sidecar's log: one line per event on stderr ("hipvis-sidecar: <UTC
 * time> <message>"), so systemd/journald or a redirect keeps it. Every
 * refusal, corruption, rotation and deletion is logged with its reason.
 */
#ifndef HV_SIDECAR_LOG_H
#define HV_SIDECAR_LOG_H

void sc_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* 0: every line; 1: warnings and errors only (--quiet). */
extern int sc_log_quiet;
void sc_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
