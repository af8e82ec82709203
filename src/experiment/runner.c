/*
 * runner: one run of the job under one arm.
 *
 * The child gets its own process group (so a hang is killed with all its
 * children: torchrun and its ranks), the arm's environment on top of the
 * user's (HIPVIS_GUARD / HIPVIS_PROBE / HIPVIS_HOSTCHECK of the user's shell
 * are dropped: the arms set them), libhipvis.so first in LD_PRELOAD and HIPVIS_OUTPUT in the
 * run's directory. stdout and stderr go to DIR/job.log (created 0600, never
 * through a symlink); --fail-pattern is matched against it afterwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "experiment/ex_int.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* In the child, before exec: the environment of the run. */
static void child_env(const struct ex_job *job, const struct ex_arm *arm, const char *dir)
{
    char out[4200];
    unsetenv("HIPVIS_GUARD");
    unsetenv("HIPVIS_PROBE");
    unsetenv("HIPVIS_HOSTCHECK");
    unsetenv("HIPVIS_SIDECAR");
    /* Each arm's settings choose the record mode (a guard arm needs full
     * records): an inherited HIPVIS_RECORD=args would refuse them. */
    unsetenv("HIPVIS_RECORD");
    snprintf(out, sizeof out, "%s/hipvis.%%p.zst", dir);
    setenv("HIPVIS_OUTPUT", out, 1);
    setenv("HIPVIS_QUIET", "1", 1);
    /* Arms are told apart by the stale reads each run counts: every eager
     * launch's evidence, not one drawn in HIPVIS_LAUNCH_EVERY, whose chance
     * would differ from run to run. */
    setenv("HIPVIS_LAUNCH_EVERY", "1", 1);
    const char *old = getenv("LD_PRELOAD");
    if (old && *old && !strstr(old, job->libhipvis)) {
        snprintf(out, sizeof out, "%s:%s", job->libhipvis, old);
        setenv("LD_PRELOAD", out, 1);
    } else if (!old || !*old) {
        setenv("LD_PRELOAD", job->libhipvis, 1);
    }
    for (int i = 0; i < arm->nenv; i++) {
        char name[160];
        const char *eq = strchr(arm->env[i], '=');
        snprintf(name, sizeof name, "%.*s", (int)(eq - arm->env[i]), arm->env[i]);
        setenv(name, eq + 1, 1);
    }
}

/* Scans the log for the fail pattern, line by line. */
static int log_matches(const char *path, regex_t *re)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char *line = NULL;
    size_t cap = 0;
    int hit = 0;
    while (!hit && getline(&line, &cap, f) > 0)
        hit = regexec(re, line, 0, NULL, 0) == 0;
    free(line);
    fclose(f);
    return hit;
}

void ex_run_job(const struct ex_job *job, const struct ex_arm *arm, const char *dir, struct ex_run *r)
{
    char log[4200];
    snprintf(log, sizeof log, "%s/job.log", dir);
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        fprintf(stderr, "hipvis experiment: cannot create %s: %s\n", dir, strerror(errno));
        r->spawn_failed = 1;
        return;
    }
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        fprintf(stderr, "hipvis experiment: %s: %s\n", log, strerror(errno));
        r->spawn_failed = 1;
        return;
    }
    fflush(NULL);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(fd, 1);
        dup2(fd, 2);
        child_env(job, arm, dir);
        execvp(job->argv[0], job->argv);
        dprintf(2, "hipvis experiment: %s: %s\n", job->argv[0], strerror(errno));
        _exit(127);
    }
    close(fd);
    if (pid < 0) {
        fprintf(stderr, "hipvis experiment: fork: %s\n", strerror(errno));
        r->spawn_failed = 1;
        return;
    }
    setpgid(pid, pid);  /* also here: no race with the child's own call */
    int status = 0, killed = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);
        if (w == pid || (w < 0 && errno != EINTR))
            break;
        double el = now_s() - t0;
        if (!killed && job->timeout_s > 0 && el > job->timeout_s) {
            kill(-pid, SIGTERM);
            killed = 1;
        } else if (killed == 1 && el > job->timeout_s + 5) {
            kill(-pid, SIGKILL);   /* it ignored SIGTERM */
            killed = 2;
        }
        struct timespec ts = {0, el < 1 ? 2000000 : 20000000};
        nanosleep(&ts, NULL);
    }
    r->wall_s = now_s() - t0;
    r->timed_out = killed != 0;
    if (WIFEXITED(status)) {
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->signal = WTERMSIG(status);
    }
    if (killed)
        kill(-pid, SIGKILL);   /* what is left of the group */
    r->pattern_hit = job->fail_re ? log_matches(log, job->fail_re) : 0;
}
