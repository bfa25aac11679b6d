/* SPDX-License-Identifier: MIT
 *
 * Workload 5: what it costs to start using a library, in a fresh process.
 *
 *   footprint libflickr|flickcurl URL
 *
 * Times dlopen() of the library (with its dependencies, RTLD_NOW) and the
 * dlsym() of what is used, then creating and configuring a context (key,
 * secret, OAuth token, endpoint), then the first signed flickr.test.echo
 * against URL (a fresh TCP connection). Prints one JSON line, with the
 * process's peak RSS at the end.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
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

static void *sym(void *h, const char *name) {
    void *p = dlsym(h, name);
    if (!p) { fprintf(stderr, "%s: %s\n", name, dlerror()); exit(1); }
    return p;
}

static const char *env(const char *name) {
    const char *v = getenv(name);
    if (!v) { fprintf(stderr, "%s is not set\n", name); exit(2); }
    return v;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    const char *key = env("BENCH_KEY"), *secret = env("BENCH_SECRET"), *token = env("BENCH_TOKEN"),
               *token_secret = env("BENCH_TOKEN_SECRET");
    char url[512];
    snprintf(url, sizeof url, "%s/services/rest/", argv[2]);
    double t0 = now(), t1, t2, t3;
    int ok = 0;
    if (!strcmp(argv[1], "libflickr")) {
        void *h = dlopen("libflickr.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        int (*ctx_new)(void **, const char *, const char *) = sym(h, "flickr_context_new");
        int (*set_string)(void *, int, const char *) = sym(h, "flickr_context_set_string");
        int (*call)(void **, void *, const char *, const char *const *, int) = sym(h, "flickr_call");
        void (*resp_free)(void *) = sym(h, "flickr_response_free");
        t1 = now();
        void *ctx = NULL;
        if (ctx_new(&ctx, key, secret) != 0) return 1;
        set_string(ctx, 1, url);          /* FLICKR_OPT_REST_ENDPOINT */
        set_string(ctx, 5, token);        /* FLICKR_OPT_OAUTH_TOKEN */
        set_string(ctx, 6, token_secret); /* FLICKR_OPT_OAUTH_TOKEN_SECRET */
        t2 = now();
        const char *const params[] = {"test", "bench", NULL};
        void *resp = NULL;
        ok = call(&resp, ctx, "flickr.test.echo", params, 0) == 0;
        t3 = now();
        resp_free(resp);
    } else {
        void *h = dlopen("libflickcurl.so.0", RTLD_NOW | RTLD_LOCAL);
        if (!h) { fprintf(stderr, "%s\n", dlerror()); return 1; }
        int (*init)(void) = sym(h, "flickcurl_init");
        void *(*fc_new)(void) = sym(h, "flickcurl_new");
        void (*set_key)(void *, const char *) = sym(h, "flickcurl_set_oauth_client_key");
        void (*set_secret)(void *, const char *) = sym(h, "flickcurl_set_oauth_client_secret");
        void (*set_token)(void *, const char *) = sym(h, "flickcurl_set_oauth_token");
        void (*set_token_secret)(void *, const char *) = sym(h, "flickcurl_set_oauth_token_secret");
        void (*set_uri)(void *, const char *) = sym(h, "flickcurl_set_service_uri");
        void (*set_delay)(void *, long) = sym(h, "flickcurl_set_request_delay");
        int (*echo)(void *, const char *, const char *) = sym(h, "flickcurl_test_echo");
        t1 = now();
        if (init()) return 1;
        void *fc = fc_new();
        set_key(fc, key);
        set_secret(fc, secret);
        set_token(fc, token);
        set_token_secret(fc, token_secret);
        set_uri(fc, url);
        set_delay(fc, 0);
        t2 = now();
        ok = echo(fc, "test", "bench") == 0;
        t3 = now();
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("{\"ok\": %s, \"dlopen_s\": %.6f, \"context_s\": %.6f, \"first_call_s\": %.6f, \"maxrss_kb\": %ld}\n",
           ok ? "true" : "false", t1 - t0, t2 - t1, t3 - t2, ru.ru_maxrss);
    return ok ? 0 : 1;
}
