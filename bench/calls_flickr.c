/* SPDX-License-Identifier: MIT
 *
 * libflickr (C) driver for workloads 2-4; prints one JSON line.
 *
 *   calls_flickr seq N                 N sequential OAuth-signed GET flickr.test.echo calls
 *   calls_flickr discard N             the same with flickr_call_discard (answer checked, not mapped)
 *   calls_flickr async N INFLIGHT      N calls with flickr_call_async, INFLIGHT at a time, one context
 *   calls_flickr upload PATH 0|1       flickr_upload_file, progress callback off (0) or on (1)
 *   calls_flickr check                 one signed flickr.test.login (for the sandbox check)
 *   calls_flickr body SHAPE MB N       N flickr_call of benchserver's MB MiB answer of SHAPE (workload 6);
 *                                      "idle_rss_kb" is the peak RSS after one echo call, before them
 *
 * Environment: BENCH_URL (server base URL), BENCH_KEY, BENCH_SECRET, BENCH_TOKEN, BENCH_TOKEN_SECRET;
 * BENCH_BUDGET, when set, is the context's FLICKR_OPT_BUDGET_PER_HOUR (workload 7); BENCH_KEEP_BODY,
 * when set, its FLICKR_OPT_KEEP_BODY (workload 6's "body not kept").
 * CPU is the whole process (every thread, the library's worker included), from
 * getrusage(RUSAGE_SELF) around the measured loop only.
 */
#define _GNU_SOURCE
#include <flickr.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double tv(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

static void die(const char *what) {
    const flickr_error *e = flickr_error_last();
    fprintf(stderr, "%s: %s (%d, api %d, http %d)\n", what, e->message, e->code, e->api_code, e->http_status);
    exit(1);
}

static const char *env(const char *name) {
    const char *v = getenv(name);
    if (!v) { fprintf(stderr, "%s is not set\n", name); exit(2); }
    return v;
}

static flickr_context *make_context(void) {
    flickr_context *ctx = NULL;
    if (flickr_context_new(&ctx, env("BENCH_KEY"), env("BENCH_SECRET")) != FLICKR_OK) die("context");
    char url[512];
    snprintf(url, sizeof url, "%s/services/rest/", env("BENCH_URL"));
    flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, url);
    snprintf(url, sizeof url, "%s/services/upload/", env("BENCH_URL"));
    flickr_context_set_string(ctx, FLICKR_OPT_UPLOAD_ENDPOINT, url);
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, env("BENCH_TOKEN"));
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, env("BENCH_TOKEN_SECRET"));
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 60000);
    if (getenv("BENCH_BUDGET") && flickr_context_set_long(ctx, FLICKR_OPT_BUDGET_PER_HOUR, atol(getenv("BENCH_BUDGET"))))
        die("budget");
    if (getenv("BENCH_KEEP_BODY") && flickr_context_set_long(ctx, FLICKR_OPT_KEEP_BODY, atol(getenv("BENCH_KEEP_BODY"))))
        die("keep body");
    return ctx;
}

static const char *const echo_params[] = {"test", "bench", NULL};

static sem_t slots;
static atomic_int failures;

static void on_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    (void)resp; (void)userdata;
    if (status != FLICKR_OK) atomic_fetch_add(&failures, 1);
    flickr_request_free(req);
    sem_post(&slots);
}

static int64_t progress_calls;
static int on_progress(int64_t sent, int64_t total, void *userdata) {
    (void)sent; (void)total; (void)userdata;
    progress_calls++;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    flickr_context *ctx = make_context();
    struct rusage r0, r1;
    const char *mode = argv[1];
    if (!strcmp(mode, "check")) {
        flickr_response *resp = NULL;
        if (flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET) != FLICKR_OK) die("flickr.test.login");
        printf("{\"user\": \"%s\"}\n", flickr_value_string(flickr_value_get(flickr_response_root(resp), "user.id")));
        flickr_response_free(resp);
    } else if ((!strcmp(mode, "seq") || !strcmp(mode, "discard")) && argc == 3) {
        long n = atol(argv[2]);
        int discard = !strcmp(mode, "discard");
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        for (long i = 0; i < n; i++) {
            flickr_response *resp = NULL;
            if (discard) {
                if (flickr_call_discard(ctx, "flickr.test.echo", echo_params, FLICKR_GET) != FLICKR_OK) die("call");
                continue;
            }
            if (flickr_call(&resp, ctx, "flickr.test.echo", echo_params, FLICKR_GET) != FLICKR_OK) die("call");
            flickr_response_free(resp);
        }
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        printf("{\"calls\": %ld, \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f}\n", n, wall,
               tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime));
    } else if (!strcmp(mode, "body") && argc == 5) {
        /* The whole answer is mapped as it streams in; the CPU of the calls is what grows with it. */
        long n = atol(argv[4]);
        const char *const params[] = {"shape", argv[2], "mb", argv[3], NULL};
        if (flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 128L << 20) != FLICKR_OK) die("max response");
        flickr_response *echo = NULL;  /* everything loaded and warmed: the idle process's RSS */
        if (flickr_call(&echo, ctx, "flickr.test.echo", echo_params, FLICKR_GET) != FLICKR_OK) die("call");
        flickr_response_free(echo);
        getrusage(RUSAGE_SELF, &r0);
        long idle_kb = r0.ru_maxrss;
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        for (long i = 0; i < n; i++) {
            flickr_response *resp = NULL;
            if (flickr_call(&resp, ctx, "flickr.bench.body", params, FLICKR_GET) != FLICKR_OK) die("body");
            flickr_response_free(resp);
        }
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        printf("{\"calls\": %ld, \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, \"idle_rss_kb\": %ld, "
               "\"maxrss_kb\": %ld}\n", n, wall, tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime),
               idle_kb, r1.ru_maxrss);
    } else if (!strcmp(mode, "async") && argc == 4) {
        long n = atol(argv[2]), k = atol(argv[3]);
        sem_init(&slots, 0, (unsigned)k);
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        for (long i = 0; i < n; i++) {
            sem_wait(&slots);
            flickr_request *req = NULL;
            if (flickr_call_async(&req, ctx, "flickr.test.echo", echo_params, FLICKR_GET, on_done, NULL) != FLICKR_OK)
                die("call_async");
        }
        for (long i = 0; i < k; i++) sem_wait(&slots);
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        printf("{\"calls\": %ld, \"inflight\": %ld, \"failures\": %d, \"wall_s\": %.6f, \"user_s\": %.6f, "
               "\"sys_s\": %.6f}\n", n, k, atomic_load(&failures), wall,
               tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime));
    } else if (!strcmp(mode, "upload") && argc == 4) {
        int progress = atoi(argv[3]);
        const char *const params[] = {"title", "bench", "is_public", "0", NULL};
        flickr_response *resp = NULL;
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        if (flickr_upload_file(&resp, ctx, argv[2], params, progress ? on_progress : NULL, NULL) != FLICKR_OK)
            die("upload");
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        const char *id = flickr_value_string(flickr_value_get(flickr_response_root(resp), "photoid"));
        printf("{\"photo_id\": \"%s\", \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, \"maxrss_kb\": %ld, "
               "\"progress_calls\": %lld}\n", id ? id : "", wall, tv(r1.ru_utime) - tv(r0.ru_utime),
               tv(r1.ru_stime) - tv(r0.ru_stime), r1.ru_maxrss, (long long)progress_calls);
        flickr_response_free(resp);
    } else {
        fprintf(stderr, "bad arguments\n");
        return 2;
    }
    flickr_context_free(ctx);
    return 0;
}
