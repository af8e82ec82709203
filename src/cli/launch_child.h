/*
 * hipvis run's command as a child of the launcher, which waits for it so
 * that it can speak after it (the traces' end lines) and still end the way
 * the command ended.
 *
 * The child stays in the launcher's process group: the terminal's Ctrl-C,
 * Ctrl-\ and Ctrl-Z reach it directly, as they did when the launcher
 * exec'd it, and job control sees one job. SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT, SIGUSR1 and SIGUSR2 sent to the launcher alone (kill PID) are
 * passed on to the child; the same signals from the terminal (the kernel
 * sent them to the whole group, the child included) or from the child are
 * not, so that none arrives twice.
 */
#ifndef HIPVIS_CLI_LAUNCH_CHILD_H
#define HIPVIS_CLI_LAUNCH_CHILD_H

/* Runs argv (argv[0] searched on PATH) and waits for it: 0 with its wait
 * status in *status; or, after saying why on stderr prefixed with prog,
 * 127 (not found), 126 (not executable) or 2 (no process). */
int hv_launch_run_child(const char *prog, char **argv, int *status);

/* Ends as the wait status says: returns the exit code of a command that
 * exited; re-raises the signal that killed it on this process, its default
 * action restored and core dumps off (the command dumped its own), so the
 * shell sees the same death. Returns 128 + the signal only if that fails. */
int hv_launch_exit_like(int status);

#endif
