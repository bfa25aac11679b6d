/* SPDX-License-Identifier: MIT */
/* The photo cache (flickr_photo_fetch) against the sandbox: misses and hits, asynchronous
 * fetches, least-recently-used eviction within the byte bound, persistence across contexts
 * and processes, two processes racing for one image, and every failure leaving nothing
 * behind: 404, an answer that is not an image, an image over the bound, a dropped body,
 * an unwritable directory, a full disk (RLIMIT_FSIZE). Hardening: files the cache did not
 * write are never counted, touched or deleted; symbolic links are never followed; files of
 * 2^62 bytes do not overflow eviction's sums; a replaced photo is never served stale. A cache lock
 * that another thread or process holds (a stopped one too) is waited for only until the call's time
 * limit, its interrupt callback or a cancel. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int downloads; /* "photo ... GET ..." log lines: real downloads, not cache hits */

static void count_downloads(const char *line, void *userdata) {
    (void)userdata;
    if (strncmp(line, "photo ", 6) == 0 && strstr(line, " GET ") != NULL) {
        pthread_mutex_lock(&log_lock);
        downloads++;
        pthread_mutex_unlock(&log_lock);
    }
}

static int download_count(void) {
    int n;
    pthread_mutex_lock(&log_lock);
    n = downloads;
    pthread_mutex_unlock(&log_lock);
    return n;
}

static flickr_context *fetch_context(const char *dir) {
    char url[512];
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    sandbox_url(url, sizeof url, "/photos");
    flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_ENDPOINT, url);
    flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, dir);
    flickr_context_set_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 10);
    flickr_context_set_log(ctx, count_downloads, NULL);
    return ctx;
}

static char *new_dir(void) {
    static char dirs[32][64];
    static int used;
    char *dir = dirs[used++ % 32];
    snprintf(dir, 64, "/tmp/flickr-fetch-XXXXXX");
    if (mkdtemp(dir) == NULL) {
        perror("mkdtemp");
        exit(2);
    }
    return dir;
}

/* The cache's lock file, in the cache directory. */
#define CACHE_LOCK ".flickr-cache.lock"

static long long file_size(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 ? (long long)info.st_size : -1;
}

/* The images in a cache directory (not the lock file), their total size, and leftover temporaries. */
struct listing {
    int images, temporaries;
    long long bytes;
};

static struct listing list_dir(const char *dir) {
    struct listing out = {0, 0, 0};
    char path[512];
    struct dirent *entry;
    DIR *d = opendir(dir);
    if (d == NULL) return out;
    while ((entry = readdir(d)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0 ||
            strcmp(entry->d_name, ".lock") == 0 || strcmp(entry->d_name, CACHE_LOCK) == 0)
            continue;
        if (entry->d_name[0] == '.') {
            out.temporaries++;
            continue;
        }
        snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
        out.images++;
        out.bytes += file_size(path);
    }
    closedir(d);
    return out;
}

/* Whether the file is a whole JPEG: starts with SOI, ends with EOI. */
static int is_whole_jpeg(const char *path) {
    unsigned char head[3] = {0}, tail[2] = {0};
    FILE *f = fopen(path, "rb");
    int ok;
    if (f == NULL) return 0;
    ok = fread(head, 1, 3, f) == 3 && fseek(f, -2, SEEK_END) == 0 && fread(tail, 1, 2, f) == 2;
    fclose(f);
    return ok && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF && tail[0] == 0xFF && tail[1] == 0xD9;
}

static flickr_response *search_response;

static const flickr_value *photo_at(size_t index) {
    return flickr_value_at(flickr_value_get(flickr_response_root(search_response), "photos.photo"), index);
}

/* A photo object from attributes (what a caller knowing only id/secret/server does). */
static flickr_response *photo_from(const char *id, const char *secret, const char *server, const char *url_o) {
    char xml[1024];
    flickr_response *resp = NULL;
    snprintf(xml, sizeof xml, "<photo id=\"%s\" secret=\"%s\" server=\"%s\" url_o=\"%s\"/>", id, secret, server,
             url_o ? url_o : "");
    if (flickr_response_parse(&resp, xml, strlen(xml)) != FLICKR_OK) {
        fprintf(stderr, "photo_from: %s\n", flickr_error_last()->message);
        exit(2);
    }
    return resp;
}

static const char *attr(const flickr_value *photo, const char *key) {
    return flickr_value_string(flickr_value_get(photo, key));
}

/* The photo's original URL with a sandbox fault appended. */
static void original_with_fault(char *out, size_t size, const flickr_value *photo, const char *fault) {
    snprintf(out, size, "%s?sandbox_fault=%s", attr(photo, "url_o"), fault);
}

static void test_miss_then_hit(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    char *path = NULL, *again = NULL;
    int before = download_count();

    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "b"), FLICKR_OK);
    CHECK(path != NULL && strncmp(path, dir, strlen(dir)) == 0);
    CHECK(path != NULL && is_whole_jpeg(path));
    CHECK_EQ_INT(download_count(), before + 1);
    CHECK_EQ_INT(flickr_photo_fetch(&again, ctx, photo_at(0), "b"), FLICKR_OK);
    CHECK_EQ_STR(again, path);
    CHECK_EQ_INT(download_count(), before + 1); /* a hit: no download */
    flickr_free(again);
    flickr_context_free(ctx);

    /* Persistence: a new context (as after a restart) finds it without downloading. */
    ctx = fetch_context(dir);
    again = NULL;
    CHECK_EQ_INT(flickr_photo_fetch(&again, ctx, photo_at(0), "b"), FLICKR_OK);
    CHECK_EQ_STR(again, path);
    CHECK_EQ_INT(download_count(), before + 1);
    /* Another size is another file. */
    flickr_free(again);
    CHECK_EQ_INT(flickr_photo_fetch(&again, ctx, photo_at(0), "q"), FLICKR_OK);
    CHECK(again != NULL && strcmp(again, path) != 0 && is_whole_jpeg(again));
    CHECK_EQ_INT(download_count(), before + 2);
    CHECK_EQ_INT(list_dir(dir).images, 2);
    flickr_free(again);
    flickr_free(path);
    flickr_context_free(ctx);
}

struct done_record {
    pthread_mutex_t lock;
    int calls, status;
    char path[512], cached[4];
    pthread_t thread;
};

static void on_fetched(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    struct done_record *r = userdata;
    (void)req;
    pthread_mutex_lock(&r->lock);
    r->calls++;
    r->status = status;
    r->thread = pthread_self();
    if (resp) {
        snprintf(r->path, sizeof r->path, "%s", flickr_value_string(flickr_value_get(flickr_response_root(resp), "path")));
        snprintf(r->cached, sizeof r->cached, "%s", flickr_value_string(flickr_value_get(flickr_response_root(resp), "cached")));
    }
    pthread_mutex_unlock(&r->lock);
}

static void test_async(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    int round;
    char first[512] = "";
    for (round = 0; round < 2; round++) {
        struct done_record r = {PTHREAD_MUTEX_INITIALIZER, 0, -1, "", "", pthread_self()};
        flickr_request *req = NULL;
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo_at(1), "z", on_fetched, &r), FLICKR_OK);
        CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
        CHECK_EQ_INT(r.calls, 1);
        CHECK_EQ_INT(r.status, FLICKR_OK);
        CHECK(!pthread_equal(r.thread, pthread_self())); /* the worker thread, even for a hit */
        CHECK_EQ_STR(r.cached, round == 0 ? "0" : "1");
        CHECK(is_whole_jpeg(r.path));
        if (round == 0) snprintf(first, sizeof first, "%s", r.path);
        CHECK_EQ_STR(r.path, first);
        flickr_request_free(req);
    }
    {   /* A 404 reaches the done callback and leaves nothing behind. */
        struct done_record r = {PTHREAD_MUTEX_INITIALIZER, 0, -1, "", "", pthread_self()};
        flickr_request *req = NULL;
        flickr_response *bad = photo_from(attr(photo_at(2), "id"), "0000000000", attr(photo_at(2), "server"), NULL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, flickr_response_root(bad), "z", on_fetched, &r), FLICKR_OK);
        flickr_response_free(bad); /* read at the start: may go at once */
        CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EHTTP);
        CHECK_EQ_INT(flickr_request_error(req)->http_status, 404);
        CHECK_EQ_INT(r.status, FLICKR_EHTTP);
        flickr_request_free(req);
    }
    CHECK_EQ_INT(list_dir(dir).images, 1);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);
    flickr_context_free(ctx);
}

static void fetch_ok(flickr_context *ctx, size_t index, const char *size) {
    char *path = NULL;
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(index), size), FLICKR_OK);
    flickr_free(path);
}

static int cached(const char *dir, size_t index, const char *size) {
    char path[512];
    snprintf(path, sizeof path, "%s/flickr-cache-%s_%s_%s.jpg", dir, attr(photo_at(index), "id"), attr(photo_at(index), "secret"),
             size);
    return file_size(path) > 0;
}

static void test_eviction(void) {
    const char *measure = new_dir(), *dir = new_dir();
    flickr_context *ctx = fetch_context(measure);
    long long sizes[4], bound;
    size_t i;
    int before;
    for (i = 0; i < 4; i++) {
        char *path = NULL;
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(i + 3), "n"), FLICKR_OK);
        sizes[i] = path ? file_size(path) : 0;
        flickr_free(path);
    }
    flickr_context_free(ctx);

    /* Room for any three of the four, never for all four (sizes differ a little with colours). */
    {
        long long total = sizes[0] + sizes[1] + sizes[2] + sizes[3], smallest = sizes[0], largest = sizes[0];
        for (i = 1; i < 4; i++) {
            if (sizes[i] < smallest) smallest = sizes[i];
            if (sizes[i] > largest) largest = sizes[i];
        }
        bound = total - smallest / 2;
        CHECK(bound >= 1024);
        sizes[0] = largest;
    }
    ctx = fetch_context(dir);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, (long)bound), FLICKR_OK);
    for (i = 0; i < 3; i++) fetch_ok(ctx, i + 3, "n");
    CHECK_EQ_INT(list_dir(dir).images, 3);
    fetch_ok(ctx, 3, "n"); /* a hit: photo 3 becomes the most recently used */
    before = download_count();
    fetch_ok(ctx, 6, "n"); /* evicts photo 4, the least recently used */
    CHECK_EQ_INT(download_count(), before + 1);
    CHECK(cached(dir, 3, "n"));
    CHECK(!cached(dir, 4, "n"));
    CHECK(cached(dir, 5, "n"));
    CHECK(cached(dir, 6, "n"));
    CHECK(list_dir(dir).bytes <= bound);
    fetch_ok(ctx, 4, "n"); /* downloaded again; evicts photo 5 now */
    CHECK_EQ_INT(download_count(), before + 2);
    CHECK(!cached(dir, 5, "n"));
    CHECK(cached(dir, 3, "n") && cached(dir, 4, "n") && cached(dir, 6, "n"));
    CHECK(list_dir(dir).bytes <= bound);

    /* A smaller bound applies at the next download. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, (long)(sizes[0] > 1024 ? sizes[0] : 1024)),
                 FLICKR_OK); /* the largest image alone */
    fetch_ok(ctx, 5, "n");
    CHECK_EQ_INT(list_dir(dir).images, 1);
    CHECK(cached(dir, 5, "n"));
    flickr_context_free(ctx);
}

static void test_failures_leave_nothing(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    char *path = (char *)0x1;
    char url[600];
    flickr_response *p;

    /* An image over the bound is not downloaded. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 1024), FLICKR_OK);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "b"), FLICKR_ETOOBIG);
    CHECK(path == NULL);
    CHECK(strstr(flickr_error_last()->message, "FLICKR_OPT_PHOTO_CACHE_MAX_BYTES") != NULL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 10L << 20), FLICKR_OK);

    /* 404 for a wrong secret. */
    p = photo_from(attr(photo_at(0), "id"), "0000000000", attr(photo_at(0), "server"), NULL);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, flickr_response_root(p), "b"), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_error_last()->http_status, 404);
    flickr_response_free(p);

    /* 200, but XML instead of an image. */
    sandbox_url(url, sizeof url, "/services/rest/?method=flickr.test.echo");
    p = photo_from("1", "x", "1", url);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, flickr_response_root(p), "o"), FLICKR_EPARSE);
    CHECK(strstr(flickr_error_last()->message, "not an image") != NULL);
    flickr_response_free(p);

    /* A connection dropped halfway through the image (no retry). */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    original_with_fault(url, sizeof url, photo_at(0), "drop");
    p = photo_from(attr(photo_at(0), "id"), attr(photo_at(0), "secret"), attr(photo_at(0), "server"), url);
    CHECK(flickr_photo_fetch(&path, ctx, flickr_response_root(p), "o") != FLICKR_OK);
    flickr_response_free(p);
    CHECK(path == NULL);
    CHECK_EQ_INT(list_dir(dir).images, 0);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);

    /* A 503 then the image: the retry's file is the one kept, the failed attempt's is gone. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 2), FLICKR_OK);
    original_with_fault(url, sizeof url, photo_at(1), "http503;times=1;key=fetch-retry");
    p = photo_from(attr(photo_at(1), "id"), attr(photo_at(1), "secret"), attr(photo_at(1), "server"), url);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, flickr_response_root(p), "o"), FLICKR_OK);
    CHECK(path != NULL && is_whole_jpeg(path));
    flickr_free(path);
    flickr_response_free(p);
    CHECK_EQ_INT(list_dir(dir).images, 1);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);
    flickr_context_free(ctx);
}

static void test_unwritable_directories(void) {
    char file_dir[600];
    const char *base = new_dir();
    flickr_context *ctx;
    char *path = (char *)0x1;
    FILE *f;

    /* A cache "directory" below a regular file. */
    snprintf(file_dir, sizeof file_dir, "%s/file", base);
    f = fopen(file_dir, "w");
    CHECK(f != NULL);
    if (f) fclose(f);
    snprintf(file_dir, sizeof file_dir, "%s/file/cache", base);
    ctx = fetch_context(file_dir);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "s"), FLICKR_EIO);
    CHECK(path == NULL);
    CHECK(strstr(flickr_error_last()->message, "Not a directory") != NULL);
    flickr_context_free(ctx);

    /* A file system nobody may write, root included. */
    ctx = fetch_context("/proc/flickr-photo-cache");
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "s"), FLICKR_EIO);
    flickr_context_free(ctx);

    if (geteuid() != 0) { /* permissions bind only other users */
        char ro[600];
        snprintf(ro, sizeof ro, "%s/ro", base);
        CHECK_EQ_INT(mkdir(ro, 0500), 0);
        ctx = fetch_context(ro);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "s"), FLICKR_EIO);
        CHECK(strstr(flickr_error_last()->message, "Permission denied") != NULL);
        flickr_context_free(ctx);
    }
}

/* Child modes, run as fresh processes (exec of this program). */

/* --fsize DIR: a full disk, as RLIMIT_FSIZE makes every write past 4 KiB fail. */
static int child_disk_full(const char *dir) {
    struct rlimit limit = {4096, 4096};
    flickr_context *ctx = fetch_context(dir);
    char *path = NULL;
    int rc;
    signal(SIGXFSZ, SIG_IGN);
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0) return 3;
    if (flickr_call(&search_response, ctx, "flickr.photos.getRecent", NULL, FLICKR_GET) != FLICKR_OK) return 4;
    rc = flickr_photo_fetch(&path, ctx, photo_at(0), "b");
    if (rc != FLICKR_EIO || path != NULL) return 5;
    if (strstr(flickr_error_last()->message, "File too large") == NULL) return 6;
    flickr_response_free(search_response);
    flickr_context_free(ctx);
    return 0;
}

/* --race DIR START_NS URL ID SECRET SERVER: fetch once at START; exit 10 + the downloads it made. */
static int child_race(char **argv) {
    const char *dir = argv[0];
    long long start = atoll(argv[1]);
    flickr_context *ctx = fetch_context(dir);
    flickr_response *p = photo_from(argv[3], argv[4], argv[5], argv[2]);
    struct timespec now;
    char *path = NULL;
    int rc;
    clock_gettime(CLOCK_REALTIME, &now);
    while ((long long)now.tv_sec * 1000000000LL + now.tv_nsec < start) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
        clock_gettime(CLOCK_REALTIME, &now);
    }
    rc = flickr_photo_fetch(&path, ctx, flickr_response_root(p), "o");
    if (rc != FLICKR_OK || !is_whole_jpeg(path)) return 1;
    flickr_free(path);
    flickr_response_free(p);
    flickr_context_free(ctx);
    return 10 + download_count();
}

static pid_t spawn(char *const argv[]) {
    pid_t pid = fork();
    if (pid == 0) {
        execv("/proc/self/exe", argv);
        _exit(127);
    }
    return pid;
}

static int exit_code(pid_t pid) {
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) return -1;
    return WEXITSTATUS(status);
}

static void test_disk_full(void) {
    char *dir = new_dir();
    char *argv[] = {"test_fetch", "--fsize", dir, NULL};
    CHECK_EQ_INT(exit_code(spawn(argv)), 0);
    CHECK_EQ_INT(list_dir(dir).images, 0);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);
}

static void test_two_processes_race(void) {
    char *dir = new_dir();
    char start[32], url[600];
    struct timespec now;
    const flickr_value *photo = photo_at(2);
    pid_t a, b;
    int ca, cb;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(start, sizeof start, "%lld", (long long)now.tv_sec * 1000000000LL + now.tv_nsec + 300000000LL);
    /* The server waits 400 ms before answering: the second process arrives mid-download. */
    original_with_fault(url, sizeof url, photo, "latency=400");
    {
        char *argv[] = {"test_fetch", "--race", dir, start, url, (char *)attr(photo, "id"),
                        (char *)attr(photo, "secret"), (char *)attr(photo, "server"), NULL};
        a = spawn(argv);
        b = spawn(argv);
    }
    ca = exit_code(a);
    cb = exit_code(b);
    CHECK(ca >= 10 && cb >= 10);
    CHECK_EQ_INT((ca - 10) + (cb - 10), 1); /* one download between them; the other waited, then hit */
    CHECK_EQ_INT(list_dir(dir).images, 1);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);
}

/* ---- Hardening: the cache touches only its own files, follows no link, never traps, never serves stale ---- */

/* A whole file in memory (NUL-terminated for convenience); NULL when unreadable. */
static unsigned char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    unsigned char *data = NULL;
    long size;
    *len = 0;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (data = malloc((size_t)size + 1)) != NULL) {
        *len = fread(data, 1, (size_t)size, f);
        data[*len] = 0;
    }
    fclose(f);
    return data;
}

static void write_file(const char *path, const void *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, len, f) != len) {
        perror(path);
        exit(2);
    }
    fclose(f);
}

/* Whether the file holds exactly `len` bytes of `data`. */
static int file_equals(const char *path, const void *data, size_t len) {
    size_t got;
    unsigned char *bytes = read_file(path, &got);
    int same = bytes != NULL && got == len && memcmp(bytes, data, len) == 0;
    free(bytes);
    return same;
}

static const struct timespec old_time = {978307200, 123456789}; /* 2001-01-01, older than any cache file */

static void make_old(const char *path) {
    struct timespec times[2] = {old_time, old_time};
    CHECK_EQ_INT(utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW), 0);
}

static int has_old_mtime(const char *path) {
    struct stat info;
    return lstat(path, &info) == 0 && info.st_mtim.tv_sec == old_time.tv_sec &&
           info.st_mtim.tv_nsec == old_time.tv_nsec;
}

/* The bytes of a sandbox image (photo `index` at `size`), fetched through a throwaway cache. */
static unsigned char *image_bytes(size_t index, const char *size, size_t *len) {
    flickr_context *ctx = fetch_context(new_dir());
    char *path = NULL;
    unsigned char *data = NULL;
    *len = 0;
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(index), size), FLICKR_OK);
    if (path) data = read_file(path, len);
    flickr_free(path);
    flickr_context_free(ctx);
    return data;
}

/* Fault 1: eviction counted and deleted every file not starting with a dot, and dot-files ending in
 * ".part": a user's files in the cache directory, the oldest first. */
static void test_user_files_survive(void) {
    static const char *const names[] = {
        "notes.txt", "holiday.jpg", "12345678901_0123456789_n.jpg", /* as Flickr's downloads are named */
        "image-0123456789abcdef", "flickr-cache-notes.txt", "flickr-cache-1_ab_n.jpg.bak",
        ".hidden.part", ".12345678901_0123456789_n.jpg.4242.abc.part", /* like the old temporaries */
    };
    enum { N = sizeof names / sizeof names[0], USER_BYTES = 40000 };
    const char *dir = new_dir();
    char path[600], *fetched[5] = {NULL};
    static char content[N][USER_BYTES];
    long long sizes[5], bound;
    size_t i;
    flickr_context *ctx;

    for (i = 0; i < N; i++) {
        memset(content[i], 'a' + (int)i, USER_BYTES);
        snprintf(content[i], 64, "the user's own file %zu", i);
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        write_file(path, content[i], USER_BYTES);
        make_old(path);
    }
    /* Room for two of these images, far less than the user's files: if they counted, every image
     * but the newest would go. */
    for (i = 0; i < 5; i++) {
        size_t len = 0;
        free(image_bytes(i + 10, "n", &len));
        sizes[i] = (long long)len;
    }
    bound = sizes[3] + sizes[4] + (sizes[3] < sizes[4] ? sizes[3] : sizes[4]) / 2;
    ctx = fetch_context(dir);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, (long)bound), FLICKR_OK);
    for (i = 0; i < 5; i++) CHECK_EQ_INT(flickr_photo_fetch(&fetched[i], ctx, photo_at(i + 10), "n"), FLICKR_OK);
    for (i = 0; i < N; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        CHECK(file_equals(path, content[i], USER_BYTES)); /* still there, byte for byte */
        CHECK(has_old_mtime(path));                         /* and not touched */
    }
    /* The bound applies to the cache's own images alone: the last two stay, the first three went. */
    for (i = 0; i < 5; i++) CHECK_EQ_INT(fetched[i] != NULL && file_size(fetched[i]) > 0, i >= 3);
    for (i = 0; i < 5; i++) flickr_free(fetched[i]);
    flickr_context_free(ctx);
}

/* Fault 2: a symbolic link at an entry's name was served as the image (stat follows links) and its
 * target's time rewritten. Now it is a miss, never followed, never deleted; the download lands beside it. */
static void test_symlink_entry_never_followed(void) {
    const char *measure = new_dir(), *dir = new_dir();
    flickr_context *ctx = fetch_context(measure);
    char *path = NULL, *again = NULL, link_path[600], target[600], link_text[600];
    const char *entry;
    unsigned char *expected = NULL, *user = NULL;
    size_t expected_len = 0, user_len = 0;
    struct stat info;
    ssize_t n;
    int before;

    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(15), "n"), FLICKR_OK);
    flickr_context_free(ctx);
    if (path == NULL) return;
    expected = read_file(path, &expected_len);
    entry = strrchr(path, '/') + 1;
    snprintf(link_path, sizeof link_path, "%s/%s", dir, entry);
    flickr_free(path);
    path = NULL;

    /* The user's own image (a valid JPEG, so that serving it would pass any content check). */
    user = image_bytes(16, "q", &user_len);
    snprintf(target, sizeof target, "%s/my-photo.jpg", dir);
    write_file(target, user, user_len);
    make_old(target);
    CHECK_EQ_INT(symlink("my-photo.jpg", link_path), 0);

    ctx = fetch_context(dir);
    before = download_count();
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(15), "n"), FLICKR_OK);
    CHECK_EQ_INT(download_count(), before + 1); /* a miss: downloaded, not served from the link */
    CHECK(path != NULL && lstat(path, &info) == 0 && S_ISREG(info.st_mode));
    CHECK(path != NULL && file_equals(path, expected, expected_len));
    CHECK(path == NULL || strcmp(path, link_path) != 0);
    /* The link is untouched, its target too (content and time). */
    CHECK(lstat(link_path, &info) == 0 && S_ISLNK(info.st_mode));
    n = readlink(link_path, link_text, sizeof link_text - 1);
    CHECK(n > 0 && (link_text[n] = 0, strcmp(link_text, "my-photo.jpg") == 0));
    CHECK(file_equals(target, user, user_len));
    CHECK(has_old_mtime(target));
    /* The downloaded image is a hit from now on. */
    CHECK_EQ_INT(flickr_photo_fetch(&again, ctx, photo_at(15), "n"), FLICKR_OK);
    CHECK_EQ_INT(download_count(), before + 1);
    CHECK(again != NULL && path != NULL && strcmp(again, path) == 0);
    flickr_free(again);
    /* Eviction down to one image removes the cache's file, never the link nor its target. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 1024 > (long)expected_len ? 1024L : (long)expected_len), FLICKR_OK);
    fetch_ok(ctx, 17, "s");
    CHECK(path != NULL && file_size(path) < 0);
    CHECK(lstat(link_path, &info) == 0 && S_ISLNK(info.st_mode));
    CHECK(file_equals(target, user, user_len) && has_old_mtime(target));
    flickr_free(path);
    free(expected);
    free(user);
    flickr_context_free(ctx);
}

/* Fault 2: the lock file was opened through a symbolic link (no O_NOFOLLOW). */
static void test_symlinked_lock_refused(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    char target[600], lock[600], *path = (char *)0x1;
    static const char text[] = "a file the lock must not open";
    snprintf(target, sizeof target, "%s/mine.txt", dir);
    snprintf(lock, sizeof lock, "%s/" CACHE_LOCK, dir);
    write_file(target, text, sizeof text);
    make_old(target);
    CHECK_EQ_INT(symlink("mine.txt", lock), 0);
    CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo_at(0), "s"), FLICKR_EIO);
    CHECK(path == NULL);
    CHECK(strstr(flickr_error_last()->message, "symbolic link") != NULL);
    CHECK(strstr(flickr_error_last()->message, CACHE_LOCK) != NULL);
    CHECK(file_equals(target, text, sizeof text) && has_old_mtime(target));
    CHECK_EQ_INT(list_dir(dir).images, 1); /* mine.txt alone: nothing was downloaded */
    flickr_context_free(ctx);
}

/* --giants DIR: two sparse 2^62-byte files named as cache entries, then a fetch (evicting them). Exit 0 when
 * it succeeds; an overflow trap kills the process instead. */
static int child_giants(const char *dir) {
    static const char *const names[] = {"flickr-cache-1_0123456789_b.jpg", "flickr-cache-2_0123456789_b.jpg"};
    flickr_context *ctx;
    char path[600], *fetched = NULL;
    int i, shift = 0;
    for (i = 0; i < 2; i++) {
        int fd;
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
        if (fd < 0) return 3;
        /* The largest size the file system takes, from 2^62 down (tmpfs takes 2^62, ext4 2^43). */
        for (shift = 62; shift > 40 && ftruncate(fd, (off_t)1 << shift) != 0; shift--) {}
        close(fd);
        if (shift < 62) fprintf(stderr, "child_giants: the file system takes 2^%d bytes at most\n", shift);
    }
    ctx = fetch_context(dir);
    if (flickr_call(&search_response, ctx, "flickr.photos.getRecent", NULL, FLICKR_GET) != FLICKR_OK) return 4;
    if (flickr_photo_fetch(&fetched, ctx, photo_at(0), "s") != FLICKR_OK) {
        fprintf(stderr, "child_giants: %s\n", flickr_error_last()->message);
        return 5;
    }
    flickr_free(fetched);
    flickr_response_free(search_response);
    flickr_context_free(ctx);
    return shift == 62 ? 0 : 6;
}

/* Fault 3: two 2^62-byte files trapped eviction's `total +=` (a Swift overflow trap kills the process).
 * Sparse files of that size need tmpfs: /dev/shm when present, else the test's own directory. */
static void test_giant_files_do_not_trap(void) {
    char dir[64] = "/dev/shm/flickr-fetch-XXXXXX", command[128];
    char *argv[] = {"test_fetch", "--giants", dir, NULL};
    int code;
    if (mkdtemp(dir) == NULL) snprintf(dir, sizeof dir, "%s", new_dir());
    code = exit_code(spawn(argv));
    CHECK(code == 0 || code == 6); /* 6: the file system refused 2^62 bytes (then this proves less) */
    if (code == 6) fprintf(stderr, "test_giant_files_do_not_trap: weaker, %s holds no 2^62-byte file\n", dir);
    CHECK_EQ_INT(list_dir(dir).images, 1); /* the giants were evicted (they are over the bound), the image kept */
    snprintf(command, sizeof command, "rm -rf %s", dir);
    CHECK_EQ_INT(system(command), 0);
}

/* A context that may upload and replace (the sandbox's OAuth user), caching in `dir`. */
static flickr_context *user_context(const char *dir) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    char url[512];
    sandbox_url(url, sizeof url, "/photos");
    flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_ENDPOINT, url);
    flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, dir);
    flickr_context_set_log(ctx, count_downloads, NULL);
    return ctx;
}

/* Uploads `data` as a new photo of the sandbox user; returns its getInfo answer (root: photo). */
static flickr_response *upload_photo(flickr_context *ctx, const unsigned char *data, size_t len) {
    flickr_response *up = NULL, *info = NULL;
    const char *params[] = {"photo_id", NULL, NULL};
    CHECK_EQ_INT(flickr_upload_buffer(&up, ctx, data, len, "first.jpg", NULL, NULL, NULL), FLICKR_OK);
    if (up == NULL) exit(2);
    params[1] = flickr_value_string(flickr_value_get(flickr_response_root(up), "photoid"));
    CHECK_EQ_INT(flickr_call(&info, ctx, "flickr.photos.getInfo", params, FLICKR_GET), FLICKR_OK);
    flickr_response_free(up);
    if (info == NULL) exit(2);
    return info;
}

static const flickr_value *info_photo(const flickr_response *info) {
    return flickr_value_get(flickr_response_root(info), "photo");
}

/* Whether fetching the photo's "s" image through `ctx` gives exactly these bytes. */
static int fetches(flickr_context *ctx, const flickr_value *photo, const unsigned char *data, size_t len) {
    char *path = NULL;
    int same;
    if (flickr_photo_fetch(&path, ctx, photo, "s") != FLICKR_OK) {
        fprintf(stderr, "fetches: %s\n", flickr_error_last()->message);
        return 0;
    }
    same = file_equals(path, data, len);
    flickr_free(path);
    return same;
}

/* The photo's "s" image as the sandbox serves it now: fetched through a new context into a new
 * directory, where nothing is cached. (The sandbox draws an upload's small sizes from its id and
 * content, so a replace changes them.) */
static unsigned char *served_now(const flickr_value *photo, size_t *len) {
    flickr_context *ctx = fetch_context(new_dir());
    char *path = NULL;
    unsigned char *data = NULL;
    *len = 0;
    if (flickr_photo_fetch(&path, ctx, photo, "s") == FLICKR_OK) data = read_file(path, len);
    flickr_free(path);
    flickr_context_free(ctx);
    return data;
}

static int same_bytes(const unsigned char *a, size_t a_len, const unsigned char *b, size_t b_len) {
    return a != NULL && b != NULL && a_len == b_len && memcmp(a, b, a_len) == 0;
}

/* Fault 4a: replace() then fetch returned the old image: the cache key (id, secret, size) does not change. */
static void test_replace_then_fetch(void) {
    const char *dir_a = new_dir(), *dir_b = new_dir();
    size_t old_len = 0, new_len = 0;
    unsigned char *old_image = image_bytes(0, "n", &old_len), *new_image = image_bytes(1, "q", &new_len);
    flickr_context *a = user_context(dir_a), *b = fetch_context(dir_b), *c;
    flickr_response *info = upload_photo(a, old_image, old_len), *replaced = NULL, *bare;
    unsigned char *served_old = NULL, *served_new = NULL;
    size_t served_old_len = 0, served_new_len = 0;
    const flickr_value *p = info_photo(info);
    int before;

    CHECK(old_len != new_len);
    /* Only id, secret and server, as a caller holding nothing else has: no lastupdate to go by. */
    bare = photo_from(attr(p, "id"), attr(p, "secret"), attr(p, "server"), NULL);
    served_old = served_now(flickr_response_root(bare), &served_old_len);
    CHECK(fetches(a, flickr_response_root(bare), served_old, served_old_len));
    CHECK(fetches(b, flickr_response_root(bare), served_old, served_old_len)); /* cached in a second directory too */
    CHECK_EQ_INT(flickr_replace_buffer(&replaced, a, new_image, new_len, "second.jpg", attr(p, "id"), NULL, NULL,
                                       NULL), FLICKR_OK);
    flickr_response_free(replaced);
    served_new = served_now(flickr_response_root(bare), &served_new_len);
    CHECK(served_new != NULL && !same_bytes(served_old, served_old_len, served_new, served_new_len));
    CHECK(fetches(a, flickr_response_root(bare), served_new, served_new_len)); /* the replacing context */
    CHECK(fetches(b, flickr_response_root(bare), served_new, served_new_len)); /* another context, directory */
    c = fetch_context(dir_a);                                          /* a new context on the first directory */
    before = download_count();
    CHECK(fetches(c, flickr_response_root(bare), served_new, served_new_len));
    CHECK_EQ_INT(download_count(), before); /* the new image, cached by `a`, is a hit again */
    flickr_context_free(c);
    flickr_response_free(bare);
    flickr_response_free(info);
    flickr_context_free(a);
    flickr_context_free(b);
    free(old_image);
    free(new_image);
    free(served_old);
    free(served_new);
}

/* --replace ID FILE: replaces the photo from another process (whose replace this one cannot know of). */
static int child_replace(const char *id, const char *file) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_response *resp = NULL;
    int rc = flickr_replace_file(&resp, ctx, file, id, NULL, NULL, NULL);
    if (rc != FLICKR_OK) fprintf(stderr, "child_replace: %s\n", flickr_error_last()->message);
    flickr_response_free(resp);
    flickr_context_free(ctx);
    return rc == FLICKR_OK ? 0 : 1;
}

/* The photo with this id in a getRecent list asked with extras=last_update (a `lastupdate` attribute). */
static const flickr_value *listed(const flickr_response *list, const char *id) {
    const flickr_value *photos = flickr_value_get(flickr_response_root(list), "photos.photo");
    size_t i;
    for (i = 0; i < flickr_value_count(photos); i++)
        if (strcmp(attr(flickr_value_at(photos, i), "id"), id) == 0) return flickr_value_at(photos, i);
    return NULL;
}

/* Fault 4b: a replace by another process or client is seen through the photo's lastupdate. */
static void test_replace_elsewhere_seen_by_lastupdate(void) {
    const char *dir = new_dir(), *files = new_dir();
    const char *recent[] = {"per_page", "50", "extras", "last_update", NULL};
    size_t old_len = 0, new_len = 0;
    unsigned char *old_image = image_bytes(2, "n", &old_len), *new_image = image_bytes(3, "q", &new_len);
    flickr_context *ctx = user_context(dir);
    flickr_response *info = upload_photo(ctx, old_image, old_len), *after = NULL, *list_before = NULL,
                    *list_after = NULL, *spelled = NULL;
    const char *info_params[] = {"photo_id", attr(info_photo(info), "id"), NULL};
    char file[600], xml[512];
    size_t served_old_len = 0, served_new_len = 0;
    unsigned char *served_old = served_now(info_photo(info), &served_old_len), *served_new = NULL;

    CHECK_EQ_INT(flickr_call(&list_before, ctx, "flickr.photos.getRecent", recent, FLICKR_GET), FLICKR_OK);
    CHECK(listed(list_before, info_params[1]) != NULL && attr(listed(list_before, info_params[1]), "lastupdate"));
    CHECK(fetches(ctx, info_photo(info), served_old, served_old_len)); /* getInfo's dates.lastupdate */
    CHECK(fetches(ctx, listed(list_before, info_params[1]), served_old, served_old_len)); /* a list's */

    snprintf(file, sizeof file, "%s/new.jpg", files);
    write_file(file, new_image, new_len);
    {
        char *argv[] = {"test_fetch", "--replace", (char *)info_params[1], file, NULL};
        CHECK_EQ_INT(exit_code(spawn(argv)), 0);
    }
    CHECK_EQ_INT(flickr_call(&after, ctx, "flickr.photos.getInfo", info_params, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&list_after, ctx, "flickr.photos.getRecent", recent, FLICKR_GET), FLICKR_OK);
    if (after == NULL || list_after == NULL || listed(list_after, info_params[1]) == NULL) return;
    /* The sandbox bumps lastupdate on replace, even within the upload's second. */
    CHECK(strcmp(attr(info_photo(after), "dates.lastupdate"), attr(info_photo(info), "dates.lastupdate")) != 0);
    served_new = served_now(info_photo(after), &served_new_len);
    CHECK(served_new != NULL && !same_bytes(served_old, served_old_len, served_new, served_new_len));
    CHECK(fetches(ctx, info_photo(after), served_new, served_new_len));
    CHECK(fetches(ctx, listed(list_after, info_params[1]), served_new, served_new_len));
    /* The "last_update" spelling counts too. */
    snprintf(xml, sizeof xml, "<photo id=\"%s\" secret=\"%s\" server=\"%s\" last_update=\"%s\"/>",
             info_params[1], attr(info_photo(info), "secret"), attr(info_photo(info), "server"),
             attr(info_photo(after), "dates.lastupdate"));
    CHECK_EQ_INT(flickr_response_parse(&spelled, xml, strlen(xml)), FLICKR_OK);
    CHECK(spelled != NULL && fetches(ctx, flickr_response_root(spelled), served_new, served_new_len));
    flickr_response_free(spelled);
    flickr_response_free(list_before);
    flickr_response_free(list_after);
    flickr_response_free(after);
    flickr_response_free(info);
    flickr_context_free(ctx);
    free(old_image);
    free(new_image);
    free(served_old);
    free(served_new);
}

/* ---- A held cache lock: the wait ends with the call's time limit, the interrupt callback or cancel ---- */

#ifndef F_OFD_SETLK
#define F_OFD_SETLK 37 /* Linux's, declared by <fcntl.h> only with _GNU_SOURCE */
#endif

static const char *status_name(int rc) {
    switch (rc) {
    case FLICKR_OK: return "FLICKR_OK";
    case FLICKR_ETIMEOUT: return "FLICKR_ETIMEOUT";
    case FLICKR_EABORTED: return "FLICKR_EABORTED";
    default: return "another error";
    }
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Takes the kind of lock the library takes (an OFD write lock) on bytes [start, start + len) of
 * the cache's lock file at `path` (len 0: to its end, every entry and the directory). Returns
 * the descriptor holding it, or -1. Async-signal-safe: a forked child of this threaded test uses it. */
static int take_cache_lock(const char *path, off_t start, off_t len) {
    struct flock lock;
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    memset(&lock, 0, sizeof lock);
    lock.l_type = F_WRLCK;
    lock.l_whence = SEEK_SET;
    lock.l_start = start;
    lock.l_len = len;
    if (fd >= 0 && fcntl(fd, F_OFD_SETLK, &lock) != 0) {
        close(fd);
        fd = -1;
    }
    return fd;
}

/* A process that holds the cache's lock (as take_cache_lock) until it is killed: another program
 * in the middle of a download, or one stopped there (Ctrl-Z). */
static pid_t spawn_holder(const char *dir, off_t start, off_t len) {
    char path[512], ok = '0';
    int ready[2];
    pid_t pid;
    snprintf(path, sizeof path, "%s/" CACHE_LOCK, dir);
    if (pipe(ready) != 0) {
        perror("pipe");
        exit(2);
    }
    pid = fork();
    if (pid == 0) {
        ok = take_cache_lock(path, start, len) >= 0 ? '1' : '0';
        if (write(ready[1], &ok, 1) != 1) _exit(1);
        for (;;) pause();
    }
    close(ready[1]);
    if (read(ready[0], &ok, 1) != 1) ok = '0';
    close(ready[0]);
    CHECK(pid > 0 && ok == '1');
    return pid;
}

static void stop_holder(pid_t holder) {
    int status = 0;
    kill(holder, SIGSTOP);
    CHECK(waitpid(holder, &status, WUNTRACED) == holder && WIFSTOPPED(status));
}

static void kill_holder(pid_t holder) {
    kill(holder, SIGKILL); /* a stopped process dies too; the kernel drops its lock */
    waitpid(holder, NULL, 0);
}

/* Releases the lock (kills the holding process, or closes the holding descriptor) once `seconds`
 * have passed, unless disarmed before: the library used to wait for a lock without limit, and a
 * test of that must fail, not hang. */
struct watchdog {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    int disarmed, fired;
    pid_t holder;
    int fd;
    int seconds;
    pthread_t thread;
};

static void *watchdog_run(void *arg) {
    struct watchdog *w = arg;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += w->seconds;
    pthread_mutex_lock(&w->lock);
    while (!w->disarmed && pthread_cond_timedwait(&w->wake, &w->lock, &until) != ETIMEDOUT) {
    }
    if (!w->disarmed) {
        w->fired = 1;
        if (w->holder > 0) {
            kill(w->holder, SIGKILL);
        } else {
            close(w->fd);
        }
        fprintf(stderr, "watchdog: the fetch still waited after %d s: lock released\n", w->seconds);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static void watchdog_start(struct watchdog *w, pid_t holder, int fd) {
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->wake, NULL);
    w->disarmed = w->fired = 0;
    w->holder = holder;
    w->fd = fd;
    w->seconds = 8;
    pthread_create(&w->thread, NULL, watchdog_run, w);
}

/* Disarms and joins the watchdog; whether it had fired (the lock is then gone). */
static int watchdog_stop(struct watchdog *w) {
    pthread_mutex_lock(&w->lock);
    w->disarmed = 1;
    pthread_cond_signal(&w->wake);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->wake);
    pthread_mutex_destroy(&w->lock);
    return w->fired;
}

/* The interrupt callback of a caller who asks to stop `after` seconds past `start`. */
struct stop_after {
    double start, after;
};

static int stop_after(void *userdata) {
    const struct stop_after *s = userdata;
    return now_s() - s->start >= s->after;
}

/* One flickr_photo_fetch, on whatever thread runs it, timed. */
struct fetch_job {
    flickr_context *ctx;
    const flickr_value *photo;
    const char *size;
    int rc;
    double seconds;
    char *path;
    char message[512];
};

static void *run_fetch(void *arg) {
    struct fetch_job *job = arg;
    double start = now_s();
    job->path = NULL;
    job->rc = flickr_photo_fetch(&job->path, job->ctx, job->photo, job->size);
    job->seconds = now_s() - start;
    snprintf(job->message, sizeof job->message, "%s", job->rc == FLICKR_OK ? "" : flickr_error_last()->message);
    return NULL;
}

static struct fetch_job fetch_on_thread(flickr_context *ctx, const flickr_value *photo, const char *size) {
    struct fetch_job job = {ctx, photo, size, 0, 0, NULL, ""};
    pthread_t thread;
    pthread_create(&thread, NULL, run_fetch, &job);
    pthread_join(thread, NULL);
    return job;
}

/* The timeout's message names the entry and the option, never the photo's secret. */
static void check_timeout_message(const char *message, const flickr_value *photo) {
    CHECK(strstr(message, "FLICKR_OPT_TIMEOUT_MS") != NULL);
    CHECK(strstr(message, "flickr-cache-") != NULL && strstr(message, attr(photo, "id")) != NULL);
    CHECK(strstr(message, attr(photo, "secret")) == NULL);
}

/* Another process holds the entry's lock (the whole lock file): a 2 s call times out in 2 s;
 * with the holder stopped, an interrupt after 300 ms ends the wait at once; once the holder
 * is gone, the fetch downloads. The old library waited in F_OFD_SETLKW until the lock was free. */
static void test_lock_held_by_another_process(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    const flickr_value *photo = photo_at(3);
    pid_t holder = spawn_holder(dir, 0, 0);
    struct watchdog w;
    struct stop_after stop = {0, 0.3};
    struct fetch_job job;
    int before;

    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 2000);
    watchdog_start(&w, holder, -1);
    job = fetch_on_thread(ctx, photo, "b");
    CHECK(!watchdog_stop(&w));
    printf("cache lock held by another process: %s after %.2f s of a 2 s time limit\n", status_name(job.rc),
           job.seconds);
    CHECK_EQ_INT(job.rc, FLICKR_ETIMEOUT);
    CHECK(job.path == NULL);
    CHECK(job.seconds >= 1.9 && job.seconds < 4.0);
    check_timeout_message(job.message, photo);

    stop_holder(holder);
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 60000);
    flickr_context_set_interrupt(ctx, stop_after, &stop);
    watchdog_start(&w, holder, -1);
    stop.start = now_s();
    job = fetch_on_thread(ctx, photo, "b");
    CHECK(!watchdog_stop(&w));
    printf("cache lock held by a stopped process: %s %.0f ms after the interrupt callback said stop\n",
           status_name(job.rc), (job.seconds - stop.after) * 1000);
    CHECK_EQ_INT(job.rc, FLICKR_EABORTED);
    CHECK(job.seconds >= 0.29 && job.seconds < 0.8);
    flickr_context_set_interrupt(ctx, NULL, NULL);

    kill_holder(holder);
    before = download_count();
    job = fetch_on_thread(ctx, photo, "b");
    CHECK_EQ_INT(job.rc, FLICKR_OK);
    CHECK(job.path != NULL && is_whole_jpeg(job.path));
    CHECK_EQ_INT(download_count(), before + 1);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);
    flickr_free(job.path);
    flickr_context_free(ctx);
}

/* The same with the lock held in this process (by another open of the lock file, as another
 * thread's fetch holds it), and with the library's own download on another thread holding it. */
static void test_lock_held_in_this_process(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir), *slow_ctx;
    const flickr_value *photo = photo_at(4);
    char path[512], url[600];
    int fd, released = 0;
    struct watchdog w;
    struct stop_after stop = {0, 0.3};
    struct fetch_job job, slow;
    flickr_response *slow_photo;
    pthread_t slow_thread;
    int before, i;

    snprintf(path, sizeof path, "%s/" CACHE_LOCK, dir);
    fd = take_cache_lock(path, 0, 0);
    CHECK(fd >= 0);
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 1000);
    watchdog_start(&w, 0, fd);
    job = fetch_on_thread(ctx, photo, "b");
    released |= watchdog_stop(&w);
    printf("cache lock held by this process: %s after %.2f s of a 1 s time limit\n", status_name(job.rc), job.seconds);
    CHECK_EQ_INT(job.rc, FLICKR_ETIMEOUT);
    CHECK(job.seconds >= 0.95 && job.seconds < 3.0);
    check_timeout_message(job.message, photo);

    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 60000);
    flickr_context_set_interrupt(ctx, stop_after, &stop);
    if (!released) watchdog_start(&w, 0, fd);
    stop.start = now_s();
    job = fetch_on_thread(ctx, photo, "b");
    if (!released) released |= watchdog_stop(&w);
    printf("cache lock held by this process: %s %.0f ms after the interrupt callback said stop\n",
           status_name(job.rc), (job.seconds - stop.after) * 1000);
    CHECK_EQ_INT(job.rc, FLICKR_EABORTED);
    CHECK(job.seconds >= 0.29 && job.seconds < 0.8);
    flickr_context_set_interrupt(ctx, NULL, NULL);

    if (!released) close(fd);
    job = fetch_on_thread(ctx, photo, "b");
    CHECK_EQ_INT(job.rc, FLICKR_OK);
    CHECK(job.path != NULL && is_whole_jpeg(job.path));
    flickr_free(job.path);

    /* A download on another thread holds the entry (the server answers after 2 s): a fetch of
     * the same image with a 0.5 s limit times out instead of waiting for it, then finds it cached. */
    photo = photo_at(5);
    original_with_fault(url, sizeof url, photo, "latency=2000");
    slow_photo = photo_from(attr(photo, "id"), attr(photo, "secret"), attr(photo, "server"), url);
    slow_ctx = fetch_context(dir);
    slow = (struct fetch_job){slow_ctx, flickr_response_root(slow_photo), "o", 0, 0, NULL, ""};
    pthread_create(&slow_thread, NULL, run_fetch, &slow);
    for (i = 0; i < 10000 && list_dir(dir).temporaries == 0; i++) { /* its file exists: it holds the entry */
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    CHECK(i < 10000);
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 500);
    job = fetch_on_thread(ctx, flickr_response_root(slow_photo), "o");
    printf("entry being downloaded by another thread: %s after %.2f s of a 0.5 s time limit\n", status_name(job.rc),
           job.seconds);
    CHECK_EQ_INT(job.rc, FLICKR_ETIMEOUT);
    CHECK(job.seconds >= 0.45 && job.seconds < 1.5);
    pthread_join(slow_thread, NULL);
    CHECK_EQ_INT(slow.rc, FLICKR_OK);
    before = download_count();
    job = fetch_on_thread(ctx, flickr_response_root(slow_photo), "o");
    CHECK_EQ_INT(job.rc, FLICKR_OK);
    CHECK_EQ_STR(job.path, slow.path);
    CHECK_EQ_INT(download_count(), before); /* cached by the other thread's download */
    flickr_free(job.path);
    flickr_free(slow.path);
    flickr_response_free(slow_photo);
    flickr_context_free(slow_ctx);
    flickr_context_free(ctx);
}

/* Whether a download's temporary file is in `dir` and no descriptor of this process has it open:
 * its body is written and closed, so its rename is waiting for the directory lock. */
static int download_closed(const char *dir) {
    char part[512] = "", link[512], target[512];
    struct dirent *entry;
    DIR *d = opendir(dir);
    size_t n;
    ssize_t got;
    int open_here = 0;
    if (d == NULL) return 0;
    while ((entry = readdir(d)) != NULL) {
        n = strlen(entry->d_name);
        if (entry->d_name[0] == '.' && n > 5 && strcmp(entry->d_name + n - 5, ".part") == 0)
            snprintf(part, sizeof part, "%s/%s", dir, entry->d_name);
    }
    closedir(d);
    if (part[0] == '\0') return 0;
    d = opendir("/proc/self/fd");
    if (d == NULL) return 0;
    while ((entry = readdir(d)) != NULL) {
        snprintf(link, sizeof link, "/proc/self/fd/%s", entry->d_name);
        got = readlink(link, target, sizeof target - 1);
        if (got > 0) {
            target[got] = '\0';
            if (strcmp(target, part) == 0) open_here = 1;
        }
    }
    closedir(d);
    return !open_here;
}

/* Another process holds only the directory lock (byte 0: renames and evictions), as one stopped
 * mid-eviction would: the download completes, then its rename waits. A synchronous fetch times
 * out; an asynchronous one ends at once when cancelled (the worker waited in F_OFD_SETLKW and
 * the cancel did nothing), or at its time limit; nothing is left behind. */
static void test_directory_lock_held(void) {
    const char *dir = new_dir();
    flickr_context *ctx = fetch_context(dir);
    const flickr_value *photo = photo_at(6);
    pid_t holder = spawn_holder(dir, 0, 1);
    struct watchdog w;
    struct fetch_job job;
    struct done_record r = {PTHREAD_MUTEX_INITIALIZER, 0, -1, "", "", pthread_self()};
    flickr_request *req = NULL;
    double start, waited;
    int i, rc;

    stop_holder(holder);
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 1000);
    watchdog_start(&w, holder, -1);
    job = fetch_on_thread(ctx, photo, "q");
    CHECK(!watchdog_stop(&w));
    printf("directory lock held by a stopped process: flickr_photo_fetch %s after %.2f s of a 1 s time limit\n",
           status_name(job.rc), job.seconds);
    CHECK_EQ_INT(job.rc, FLICKR_ETIMEOUT);
    CHECK(job.seconds >= 0.95 && job.seconds < 3.0);
    CHECK(strstr(job.message, "directory lock") != NULL);
    CHECK_EQ_INT(list_dir(dir).images, 0);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);

    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 60000);
    watchdog_start(&w, holder, -1);
    CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo, "q", on_fetched, &r), FLICKR_OK);
    for (i = 0; i < 10000 && !download_closed(dir); i++) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    CHECK(i < 10000);
    start = now_s();
    flickr_request_cancel(req);
    rc = flickr_request_wait(req);
    waited = now_s() - start;
    CHECK(!watchdog_stop(&w));
    printf("directory lock held by a stopped process: flickr_photo_fetch_async %s %.0f ms after "
           "flickr_request_cancel\n", status_name(rc), waited * 1000);
    CHECK_EQ_INT(rc, FLICKR_EABORTED);
    CHECK(waited < 0.5);
    CHECK_EQ_INT(r.status, FLICKR_EABORTED);
    flickr_request_free(req);

    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 1000);
    watchdog_start(&w, holder, -1);
    req = NULL;
    start = now_s();
    CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo, "q", on_fetched, &r), FLICKR_OK);
    rc = flickr_request_wait(req);
    waited = now_s() - start;
    CHECK(!watchdog_stop(&w));
    printf("directory lock held by a stopped process: flickr_photo_fetch_async %s after %.2f s of a 1 s time "
           "limit\n", status_name(rc), waited);
    CHECK_EQ_INT(rc, FLICKR_ETIMEOUT);
    CHECK(waited >= 0.95 && waited < 3.0);
    flickr_request_free(req);
    CHECK_EQ_INT(list_dir(dir).images, 0);
    CHECK_EQ_INT(list_dir(dir).temporaries, 0);

    kill_holder(holder);
    job = fetch_on_thread(ctx, photo, "q");
    CHECK_EQ_INT(job.rc, FLICKR_OK);
    CHECK(job.path != NULL && is_whole_jpeg(job.path));
    flickr_free(job.path);
    flickr_context_free(ctx);
}

int main(int argc, char **argv) {
    flickr_context *ctx;
    const char *search[] = {"per_page", "20", "extras", "url_o,original_format", NULL};
    if (argc >= 3 && strcmp(argv[1], "--fsize") == 0) return child_disk_full(argv[2]);
    if (argc >= 8 && strcmp(argv[1], "--race") == 0) return child_race(argv + 2);
    if (argc >= 3 && strcmp(argv[1], "--giants") == 0) return child_giants(argv[2]);
    if (argc >= 4 && strcmp(argv[1], "--replace") == 0) return child_replace(argv[2], argv[3]);

    ctx = sandbox_context(AUTH_NONE);
    if (flickr_call(&search_response, ctx, "flickr.photos.getRecent", search, FLICKR_GET) != FLICKR_OK ||
        flickr_value_count(flickr_value_get(flickr_response_root(search_response), "photos.photo")) < 18) {
        fprintf(stderr, "search: %s\n", flickr_error_last()->message);
        return 2;
    }
    flickr_context_free(ctx);

    test_miss_then_hit();
    test_async();
    test_eviction();
    test_failures_leave_nothing();
    test_unwritable_directories();
    test_disk_full();
    test_two_processes_race();
    test_user_files_survive();
    test_symlink_entry_never_followed();
    test_symlinked_lock_refused();
    test_giant_files_do_not_trap();
    test_replace_then_fetch();
    test_replace_elsewhere_seen_by_lastupdate();
    test_lock_held_by_another_process();
    test_lock_held_in_this_process();
    test_directory_lock_held();
    flickr_response_free(search_response);
    TEST_MAIN_END();
}
