/* SPDX-License-Identifier: MIT */
/* The headers libflickr's Swift code uses, and what Swift's Glibc overlay adds over
 * them (errno, the non-variadic open, openat and fcntl), for the Embedded Swift build. */
#ifndef FLICKR_EMBEDDED_GLIBC_H
#define FLICKR_EMBEDDED_GLIBC_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

static inline int flickr__errno_get(void) { return errno; }
static inline void flickr__errno_set(int value) { errno = value; }
static inline int flickr__open(const char *path, int flags, mode_t mode) { return open(path, flags, mode); }
static inline int flickr__openat(int dir, const char *path, int flags, mode_t mode) {
    return openat(dir, path, flags, mode);
}
static inline int flickr__fcntl_lock(int fd, int command, struct flock *lock) { return fcntl(fd, command, lock); }

#endif
