/* SPDX-License-Identifier: MIT */
/* File upload sources against the sandbox (issue 29, 3b and 4d): the file is opened once, with
 * O_NONBLOCK, and every attempt reads that descriptor, so a FIFO or device named (or swapped in
 * later) never hangs an upload; a file that changes while it is sent fails the attempt; a path is
 * bytes, so a name that is not UTF-8 uploads, and the file name Flickr sees is valid UTF-8 text
 * safe in its quoted header. Each hang would end here through alarm(), as a failure. */
#include <errno.h>
#include <fcntl.h>
#include <flickr.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "upload_files.h"
#include "sandbox_env.h"

static char workdir[256];

static void on_alarm(int signal_number) {
    static const char text[] = "FAILED: an upload hung (alarm after 20 s): a FIFO was opened and waited on\n";
    (void)signal_number;
    if (write(2, text, sizeof text - 1) < 0) _exit(3);
    _exit(1);
}

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The sandbox's record of an uploaded photo's file: `field` is size, sha256 or name. */
static void expect_file(flickr_context *ctx, const flickr_response *upload, const char *field, const char *expected) {
    const char *params[] = {"photo_id", photo_id(upload), NULL};
    flickr_response *info = NULL;
    char path[32];
    if (!params[1]) {
        CHECK(!"no photo id to look up");
        return;
    }
    snprintf(path, sizeof path, "file.%s", field);
    CHECK_EQ_INT(flickr_call(&info, ctx, "flickr.sandbox.getFileInfo", params, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(info), path)), expected);
    flickr_response_free(info);
}

/* This process's descriptors open on `path` or below it (an unlinked file's link ends in " (deleted)");
 * with `flags`, the first one's descriptor flags and status flags. */
static int fds_on(const char *path, int flags[2]) {
    int fd, n = 0;
    for (fd = 0; fd < 1024; fd++) {
        char link[64], target[512];
        ssize_t len;
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        len = readlink(link, target, sizeof target - 1);
        if (len <= 0) continue;
        target[len] = '\0';
        if (strncmp(target, path, strlen(path)) != 0) continue;
        if (n++ == 0 && flags) {
            flags[0] = fcntl(fd, F_GETFD);
            flags[1] = fcntl(fd, F_GETFL);
        }
    }
    return n;
}

/* A FIFO, a directory and a character device are refused at once, whether named to a source or
 * to flickr_upload_file: opened with O_NONBLOCK, then refused by fstat. */
static void test_not_regular_files_refused(flickr_context *ctx) {
    const char *paths[3];
    char fifo[300];
    flickr_upload_source *src = NULL;
    flickr_response *resp = NULL;
    double started, worst = 0;
    int i;
    snprintf(fifo, sizeof fifo, "%s/pipe.jpg", workdir);
    CHECK_EQ_INT(mkfifo(fifo, 0600), 0);
    paths[0] = fifo;
    paths[1] = workdir;
    paths[2] = "/dev/zero";
    for (i = 0; i < 3; i++) {
        started = now_ms();
        CHECK_EQ_INT(flickr_upload_source_new_file(&src, paths[i]), FLICKR_EIO);
        CHECK(strstr(flickr_error_last()->message, "not a regular file") != NULL);
        CHECK(src == NULL);
        CHECK_EQ_INT(flickr_upload_file(&resp, ctx, paths[i], NULL, NULL, NULL), FLICKR_EIO);
        CHECK(strstr(flickr_error_last()->message, "not a regular file") != NULL);
        CHECK(resp == NULL);
        if (now_ms() - started > worst) worst = now_ms() - started;
    }
    CHECK(worst < 2000); /* generous: it is microseconds */
    CHECK_EQ_INT(fds_on(workdir, NULL) + fds_on("/dev/zero", NULL), 0); /* each refused one closed */
    printf("FIFO, directory, /dev/zero refused: slowest %.3f ms for both calls\n", worst);
    unlink(fifo);
}

/* The path is named once. Swapped for a FIFO, or for another file, after the source was made:
 * every upload of the source still sends the file it opened (the old code opened the path again
 * per attempt and hung on the FIFO's open for ever). */
static void test_path_swapped_after_source_made(flickr_context *ctx) {
    enum { SIZE = 300000 };
    unsigned char *data = malloc(SIZE), *other = malloc(SIZE);
    char path[300], sha[65], size_text[32];
    flickr_upload_source *src = NULL;
    flickr_response *resp = NULL;
    double started;
    int attempt;
    fill_photo(data, SIZE, 5);
    fill_photo(other, SIZE, 6);
    sha256_hex(data, SIZE, sha);
    snprintf(size_text, sizeof size_text, "%d", SIZE);
    snprintf(path, sizeof path, "%s/swapped.jpg", workdir);
    write_file(path, data, SIZE);
    CHECK_EQ_INT(flickr_upload_source_new_file(&src, path), FLICKR_OK);
    {   /* One descriptor, which every attempt reads; close-on-exec, so that a child the caller starts
         * does not inherit it; non-blocking, as it was opened. */
        int flags[2] = {0, 0};
        CHECK_EQ_INT(fds_on(path, flags), 1);
        CHECK(flags[0] & FD_CLOEXEC);
        CHECK(flags[1] & O_NONBLOCK);
    }
    CHECK_EQ_INT(unlink(path), 0);
    CHECK_EQ_INT(mkfifo(path, 0600), 0); /* no writer will ever come */
    started = now_ms();
    for (attempt = 0; attempt < 2; attempt++) {
        CHECK_EQ_INT(flickr_upload(&resp, ctx, src, NULL, NULL, NULL), FLICKR_OK);
        expect_file(ctx, resp, "sha256", sha);
        expect_file(ctx, resp, "size", size_text);
        flickr_response_free(resp);
        resp = NULL;
    }
    printf("2 uploads of a source whose path became a FIFO: %.1f ms, the original bytes\n", now_ms() - started);
    /* Another regular file renamed over the path: still the opened one. */
    {
        char elsewhere[300];
        snprintf(elsewhere, sizeof elsewhere, "%s/other.jpg", workdir);
        write_file(elsewhere, other, SIZE);
        CHECK_EQ_INT(rename(elsewhere, path), 0);
        CHECK_EQ_INT(flickr_upload(&resp, ctx, src, NULL, NULL, NULL), FLICKR_OK);
        expect_file(ctx, resp, "sha256", sha);
        flickr_response_free(resp);
    }
    flickr_upload_source_free(src);
    CHECK_EQ_INT(fds_on(path, NULL), 0); /* closed with the source */
    unlink(path);
    free(data);
    free(other);
}

/* A file written to while it is sent: the attempt fails, and Flickr gets no photo. The progress
 * callback (on the uploading thread) changes the file at its first report, which comes while
 * most of a 4 MiB body is still to go (see test_upload's abort semantics). */
struct change {
    const char *path;
    int grow; /* append (else truncate) */
    int done;
};

static int change_file(int64_t sent, int64_t total, void *userdata) {
    struct change *change = userdata;
    (void)sent, (void)total;
    if (!change->done) {
        change->done = 1;
        if (change->grow) {
            FILE *f = fopen(change->path, "ab");
            if (f) {
                fputs("appended while it was being sent", f);
                fclose(f);
            }
        } else if (truncate(change->path, 1000) != 0) {
            change->done = -1;
        }
    }
    return 0;
}

static void test_file_changed_while_sent(flickr_context *ctx) {
    enum { SIZE = 4 * 1024 * 1024 };
    unsigned char *data = malloc(SIZE);
    char path[300];
    flickr_response *resp = NULL;
    int grow, before = photo_total(ctx);
    fill_photo(data, SIZE, 9);
    snprintf(path, sizeof path, "%s/changing.jpg", workdir);
    for (grow = 0; grow < 2; grow++) {
        struct change change = {path, grow, 0};
        write_file(path, data, SIZE);
        CHECK_EQ_INT(flickr_upload_file(&resp, ctx, path, NULL, change_file, &change), FLICKR_EIO);
        CHECK_EQ_INT(change.done, 1);
        CHECK(strstr(flickr_error_last()->message, grow ? "changed while it was being sent"
                                                        : "shrank while it was being sent") != NULL);
        printf("%s while sent: %s\n", grow ? "grown" : "truncated", flickr_error_last()->message);
        CHECK(resp == NULL);
    }
    CHECK_EQ_INT(photo_total(ctx), before);
    /* Changed between the source's making and the upload: the attempt sends the file as it is then. */
    {
        flickr_upload_source *src = NULL;
        char sha[65];
        write_file(path, data, SIZE);
        CHECK_EQ_INT(flickr_upload_source_new_file(&src, path), FLICKR_OK);
        CHECK_EQ_INT(truncate(path, 5000), 0);
        sha256_hex(data, 5000, sha);
        CHECK_EQ_INT(flickr_upload(&resp, ctx, src, NULL, NULL, NULL), FLICKR_OK);
        expect_file(ctx, resp, "sha256", sha);
        flickr_response_free(resp);
        flickr_upload_source_free(src);
    }
    unlink(path);
    free(data);
}

/* A path is bytes: names that are not UTF-8, or hold quotes, backslashes and control characters,
 * upload, and the file name that reaches Flickr is UTF-8 text its header parser reads as sent. */
static void test_names_that_are_not_text(flickr_context *ctx) {
    static const struct {
        const char *name;     /* on disk */
        const char *received; /* by the sandbox: the bytes it could not read as UTF-8 as \xNN */
    } cases[] = {
        {"caf\xe9.png", "caf\xef\xbf\xbd.png"},                   /* Latin-1: U+FFFD */
        {"\xff\xfe-\xc3(.jpg", "\xef\xbf\xbd\xef\xbf\xbd-\xef\xbf\xbd(.jpg"}, /* stray and truncated bytes */
        {"caf\xc3\xa9 ok.jpg", "caf\xc3\xa9 ok.jpg"},              /* UTF-8: as it is */
        {"a\"b\\c\td\x1b[2J\x7f.jpg", "a%22b%5Cc%09d%1B[2J%7F.jpg"}, /* quote, backslash, controls */
        {"line\nbreak\r.jpg", "line%0Abreak%0D.jpg"},
    };
    unsigned char photo[2000];
    size_t i;
    int uploaded = 0;
    fill_photo(photo, sizeof photo, 3);
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char path[300];
        flickr_response *resp = NULL;
        flickr_upload_source *src = NULL;
        snprintf(path, sizeof path, "%s/%s", workdir, cases[i].name);
        write_file(path, photo, sizeof photo);
        CHECK_EQ_INT(flickr_upload_file(&resp, ctx, path, NULL, NULL, NULL), FLICKR_OK);
        CHECK_EQ_INT(fds_on(path, NULL), 0); /* closed when the call returns */
        if (resp) {
            uploaded++;
            expect_file(ctx, resp, "name", cases[i].received);
        } else {
            fprintf(stderr, "case %zu: %s\n", i, flickr_error_last()->message);
        }
        flickr_response_free(resp);
        /* Through a source, and replaced with it. */
        CHECK_EQ_INT(flickr_upload_source_new_file(&src, path), FLICKR_OK);
        if (src) {
            flickr_response *again = NULL, *replaced = NULL;
            CHECK_EQ_INT(flickr_upload(&again, ctx, src, NULL, NULL, NULL), FLICKR_OK);
            expect_file(ctx, again, "name", cases[i].received);
            if (photo_id(again)) {
                CHECK_EQ_INT(flickr_replace_file(&replaced, ctx, path, photo_id(again), NULL, NULL, NULL), FLICKR_OK);
                flickr_response_free(replaced);
            }
            flickr_response_free(again);
        }
        flickr_upload_source_free(src);
        unlink(path);
    }
    printf("%d of %zu file names that are not plain UTF-8 text uploaded\n", uploaded, sizeof cases / sizeof cases[0]);
}

int main(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    signal(SIGALRM, on_alarm);
    alarm(20);
    snprintf(workdir, sizeof workdir, "/tmp/flickr-upload-source-XXXXXX");
    if (!mkdtemp(workdir)) return 2;
    test_not_regular_files_refused(ctx);
    test_path_swapped_after_source_made(ctx);
    test_file_changed_while_sent(ctx);
    test_names_that_are_not_text(ctx);
    flickr_context_free(ctx);
    if (rmdir(workdir) != 0) fprintf(stderr, "could not remove %s: %s\n", workdir, strerror(errno));
    TEST_MAIN_END();
}
