/* SPDX-License-Identifier: MIT
 *
 * rsswrap CMD [ARGS...]: runs CMD and reports its peak RSS, CPU and wall time on
 * stderr as a last line "rsswrap: {json}"; exits with CMD's status.
 *
 * Why a wrapper: Linux carries the high-water RSS of the image a process
 * replaces through exec() into its ru_maxrss, so a client started straight
 * from the (25 MiB) Python harness would report at least 25 MiB. This small
 * wrapper replaces that image first; its children then inherit at most its
 * own ~1 MiB.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s CMD [ARGS...]\n", argv[0]); return 2; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = vfork();
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    if (pid < 0) { perror("vfork"); return 1; }
    int status = 0;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) < 0) { perror("wait4"); return 1; }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    fprintf(stderr, "\nrsswrap: {\"maxrss_kb\": %ld, \"cpu_s\": %.6f, \"wall_s\": %.6f}\n", ru.ru_maxrss,
            ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
            (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
