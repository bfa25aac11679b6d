/* SPDX-License-Identifier: MIT */
/* Counting this process's open file descriptors, for leak checks. */
#ifndef FLICKR_TEST_FDS_H
#define FLICKR_TEST_FDS_H

#include <dirent.h>
#include <time.h>

static inline int open_fds(void) {
    int n = 0;
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *entry;
    if (!dir) return -1;
    while ((entry = readdir(dir)) != NULL)
        if (entry->d_name[0] != '.') n++;
    closedir(dir);
    return n;
}

/* The descriptor count once it reaches `expected`, waiting up to 3 s for sockets that
 * other threads (a peer, the kernel) are still closing. */
static inline int settled_fds(int expected) {
    struct timespec pause = {0, 10 * 1000 * 1000};
    int i, n = open_fds();
    for (i = 0; i < 300 && n != expected; i++) {
        nanosleep(&pause, NULL);
        n = open_fds();
    }
    return n;
}

#endif
