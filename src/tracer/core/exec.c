/*
 * exec and _exit end the image without running destructors, so records still in
 * the rings would be lost. The exec family is intercepted to close the trace
 * first (the new image, if preloaded again, starts its own file: same pid,
 * so the writer picks a ".1" name). If exec fails, tracing resumes into a
 * new file.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tracer/core/realsym.h"
#include "tracer/core/tracer.h"

extern char **environ;

#define HV_MAX_EXEC_ARGS 65536

/* One wrapper per exec entry point: close the trace, exec, and resume tracing
 * if exec returned (it failed). */
#define HV_EXEC_WRAPPER(name, params, args)                                         \
    HV_EXPORT int name params;                                                      \
    HV_WRAPPER(name);                                                               \
    HV_EXPORT int name params                                                       \
    {                                                                               \
        int(*real) params = HV_REAL(name);                                          \
        hv_tracer_before_exec();                                                    \
        int rc = real ? real args : (errno = ENOSYS, -1);                           \
        int saved = errno;                                                          \
        hv_tracer_exec_failed();                                                    \
        errno = saved;                                                              \
        return rc;                                                                  \
    }

HV_EXEC_WRAPPER(execve, (const char *path, char *const argv[], char *const envp[]), (path, argv, envp))
HV_EXEC_WRAPPER(execv, (const char *path, char *const argv[]), (path, argv))
HV_EXEC_WRAPPER(execvp, (const char *path, char *const argv[]), (path, argv))
HV_EXEC_WRAPPER(execvpe, (const char *path, char *const argv[], char *const envp[]), (path, argv, envp))

/* The variadic execl family is implemented by glibc on top of an internal
 * execve that does not go through the PLT, so it needs its own wrappers. */
static int count_args(const char *arg0, va_list ap)
{
    int n = arg0 ? 1 : 0;
    while (arg0 && va_arg(ap, const char *) && n < HV_MAX_EXEC_ARGS)
        n++;
    return n;
}

/* Collects the NULL-terminated list into argv[n+1]; returns the va_list
 * positioned after the terminator (execle's envp follows it). */
#define HV_COLLECT_ARGV(first, argv, n, ap)                                         \
    va_start(ap, first);                                                            \
    int n = count_args(first, ap);                                                  \
    va_end(ap);                                                                     \
    char *argv[n + 1];                                                              \
    va_start(ap, first);                                                            \
    argv[0] = (char *)(first);                                                      \
    for (int i_ = 1; i_ < n; i_++)                                                  \
        argv[i_] = va_arg(ap, char *);                                              \
    if (n > 0)                                                                      \
        (void)va_arg(ap, char *);                                                   \
    argv[n] = NULL

HV_EXPORT int execl(const char *path, const char *arg, ...)
{
    va_list ap;
    HV_COLLECT_ARGV(arg, argv, n, ap);
    va_end(ap);
    return execve(path, argv, environ);
}

HV_EXPORT int execlp(const char *file, const char *arg, ...)
{
    va_list ap;
    HV_COLLECT_ARGV(arg, argv, n, ap);
    va_end(ap);
    return execvp(file, argv);
}

HV_EXPORT int execle(const char *path, const char *arg, ...)
{
    va_list ap;
    HV_COLLECT_ARGV(arg, argv, n, ap);
    char *const *envp = va_arg(ap, char *const *);
    va_end(ap);
    return execve(path, argv, envp);
}

/* _exit/_Exit: flush, then leave exactly as the application asked. */
#define HV_EXIT_WRAPPER(name)                                                       \
    HV_WRAPPER(name);                                                               \
    HV_EXPORT void name(int status)                                                 \
    {                                                                               \
        void (*real)(int) = HV_REAL(name);                                          \
        hv_tracer_before_exit();                                                    \
        if (real)                                                                   \
            real(status);                                                           \
        for (;;)                                                                    \
            syscall(SYS_exit_group, status);                                        \
    }

HV_EXIT_WRAPPER(_exit)
HV_EXIT_WRAPPER(_Exit)
