/* SPDX-License-Identifier: MIT */
/* The photo cache (flickr_photo_fetch) against the sandbox: misses and hits, asynchronous
 * fetches, least-recently-used eviction within the byte bound, persistence across contexts
 * and processes, two processes racing for one image, and every failure leaving nothing
 * behind: 404, an answer that is not an image, an image over the bound, a dropped body,
 * an unwritable directory, a full disk (RLIMIT_FSIZE). */
#include <dirent.h>
#include <errno.h>
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
            strcmp(entry->d_name, ".lock") == 0)
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
    snprintf(path, sizeof path, "%s/%s_%s_%s.jpg", dir, attr(photo_at(index), "id"), attr(photo_at(index), "secret"),
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

int main(int argc, char **argv) {
    flickr_context *ctx;
    const char *search[] = {"per_page", "20", "extras", "url_o,original_format", NULL};
    if (argc >= 3 && strcmp(argv[1], "--fsize") == 0) return child_disk_full(argv[2]);
    if (argc >= 8 && strcmp(argv[1], "--race") == 0) return child_race(argv + 2);

    ctx = sandbox_context(AUTH_NONE);
    if (flickr_call(&search_response, ctx, "flickr.photos.getRecent", search, FLICKR_GET) != FLICKR_OK ||
        flickr_value_count(flickr_value_get(flickr_response_root(search_response), "photos.photo")) < 10) {
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
    flickr_response_free(search_response);
    TEST_MAIN_END();
}
