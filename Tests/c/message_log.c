/* SPDX-License-Identifier: MIT */
/* LD_PRELOAD module for the C test suite: every error message a test reads through
 * flickr_error_last() or flickr_request_error() is also appended, one per line, to
 * $FLICKR_TEST_MESSAGE_LOG, so that check_messages.py can prove that no message of the
 * whole suite holds a secret. Interposes the two functions and forwards to the library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct flickr_error {
    int code;
    int api_code;
    int http_status;
    const char *message;
} flickr_error;

static void log_message(const flickr_error *e) {
    const char *path = getenv("FLICKR_TEST_MESSAGE_LOG");
    int fd;
    if (!e || !e->message || !e->message[0] || !path || e->code == 0) return;
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    /* One write per line: O_APPEND keeps lines from several threads whole. */
    {
        size_t n = strlen(e->message);
        char *line = malloc(n + 2);
        if (line) {
            memcpy(line, e->message, n);
            line[n] = '\n';
            if (write(fd, line, n + 1) < 0) { /* best effort */ }
            free(line);
        }
    }
    close(fd);
}

/* A marker per process, so that check_messages.py knows the module was loaded even when the
 * tests that ran read no message. */
__attribute__((constructor)) static void mark_loaded(void) {
    const char *path = getenv("FLICKR_TEST_MESSAGE_LOG");
    int fd;
    if (!path) return;
    fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) return;
    {
        char line[256];
        int n = snprintf(line, sizeof line, "#loaded %s\n", program_invocation_short_name);
        if (n > 0 && write(fd, line, (size_t)n) < 0) { /* best effort */ }
    }
    close(fd);
}

const flickr_error *flickr_error_last(void) {
    static const flickr_error *(*real)(void);
    const flickr_error *e;
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "flickr_error_last");
    e = real ? real() : NULL;
    log_message(e);
    return e;
}

const flickr_error *flickr_request_error(void *req) {
    static const flickr_error *(*real)(void *);
    const flickr_error *e;
    if (!real) *(void **)&real = dlsym(RTLD_NEXT, "flickr_request_error");
    e = real ? real(req) : NULL;
    log_message(e);
    return e;
}
