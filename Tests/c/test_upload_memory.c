/* SPDX-License-Identifier: MIT */
/* Uploading 1 GiB keeps this process's peak RSS under 32 MiB and writes no
 * temporary file: the body is streamed from the file as the network takes it. */
#include <dirent.h>
#include <fcntl.h>
#include <flickr.h>
#include <sys/resource.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

/* This process's own peak (VmHWM): getrusage's ru_maxrss carries the parent's peak over fork
 * and exec, so a larger test launcher (with_sandbox.py) read as this program's memory. */
static long peak_rss_kib(void) {
    char line[256];
    long kib = -1;
    FILE *status = fopen("/proc/self/status", "r");
    if (!status) return -1;
    while (fgets(line, sizeof line, status))
        if (sscanf(line, "VmHWM: %ld kB", &kib) == 1) break;
    fclose(status);
    return kib;
}

static int entries(const char *path) {
    int count = 0;
    DIR *dir = opendir(path);
    struct dirent *entry;
    if (!dir) return -1;
    while ((entry = readdir(dir)) != NULL) count += entry->d_name[0] != '.';
    closedir(dir);
    return count;
}

static int last_percent = -1;

static int on_progress(int64_t sent, int64_t total, void *userdata) {
    int percent = (int)(sent * 100 / total);
    (void)userdata;
    if (percent / 25 != last_percent / 25) fprintf(stderr, "  %3d%% (%lld of %lld bytes)\n", percent, (long long)sent,
                                                   (long long)total);
    last_percent = percent;
    return 0;
}

int main(void) {
    const long long size = 1024LL * 1024 * 1024;
    char tmpdir[] = "/tmp/flickr-tmpdir-XXXXXX";
    char dir[] = "/tmp/flickr-1gib-XXXXXX";
    char path[64];
    flickr_context *ctx;
    flickr_response *resp = NULL;
    long before;
    int fd;
    /* Any temporary file the library (or libcurl) made would land here. */
    if (!mkdtemp(tmpdir) || setenv("TMPDIR", tmpdir, 1) != 0) return 2;
    if (!mkdtemp(dir)) return 2;
    snprintf(path, sizeof path, "%s/photo.jpg", dir);
    fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
    if (fd < 0 || write(fd, "\xFF\xD8\xFF\xE0", 4) != 4 || ftruncate(fd, size) != 0) return 2;
    close(fd);

    ctx = sandbox_context(AUTH_OAUTH);
    before = peak_rss_kib();
    CHECK_EQ_INT(flickr_upload_file(&resp, ctx, path, NULL, on_progress, NULL), FLICKR_OK);
    if (resp) {
        const char *params[] = {"photo_id", flickr_value_string(flickr_value_get(flickr_response_root(resp), "photoid")),
                                NULL};
        flickr_response *info = NULL;
        CHECK_EQ_INT(flickr_call(&info, ctx, "flickr.sandbox.getFileInfo", params, FLICKR_GET), FLICKR_OK);
        CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(info), "file.size")), "1073741824");
        flickr_response_free(info);
    }
    printf("peak RSS: %ld KiB before the upload, %ld KiB after 1 GiB\n", before, peak_rss_kib());
    CHECK(before > 0 && peak_rss_kib() < 32 * 1024);
    CHECK_EQ_INT(entries(tmpdir), 0);
    flickr_response_free(resp);
    flickr_context_free(ctx);
    unlink(path);
    rmdir(dir);
    rmdir(tmpdir);
    TEST_MAIN_END();
}
