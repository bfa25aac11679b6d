/* SPDX-License-Identifier: MIT
 *
 * flickcurl driver (Debian's libflickcurl) for workloads 2 and 4; prints one JSON line.
 *
 *   calls_flickcurl seq N          N sequential flickcurl_test_echo() calls (OAuth-signed GET)
 *   calls_flickcurl upload PATH    flickcurl_photos_upload_params()
 *   calls_flickcurl check          one signed flickcurl_test_login() (for the sandbox check)
 *
 * Environment as calls_flickr. flickcurl's own minimum gap between requests
 * (flickcurl_set_request_delay) is set to 0.
 */
#define _GNU_SOURCE
#include <flickcurl.h>
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

static const char *env(const char *name) {
    const char *v = getenv(name);
    if (!v) { fprintf(stderr, "%s is not set\n", name); exit(2); }
    return v;
}

static void on_error(void *data, const char *message) {
    (void)data;
    fprintf(stderr, "flickcurl: %s\n", message);
}

int main(int argc, char **argv) {
    if (argc < 2) return 2;
    flickcurl_init();
    flickcurl *fc = flickcurl_new();
    flickcurl_set_error_handler(fc, on_error, NULL);
    if (getenv("FC_LEGACY_KEYS")) {
        flickcurl_set_api_key(fc, env("BENCH_KEY"));
        flickcurl_set_shared_secret(fc, env("BENCH_SECRET"));
    }
    flickcurl_set_oauth_client_key(fc, env("BENCH_KEY"));
    flickcurl_set_oauth_client_secret(fc, env("BENCH_SECRET"));
    flickcurl_set_oauth_token(fc, env("BENCH_TOKEN"));
    flickcurl_set_oauth_token_secret(fc, env("BENCH_TOKEN_SECRET"));
    flickcurl_set_request_delay(fc, 0);
    char url[512];
    snprintf(url, sizeof url, "%s/services/rest/", env("BENCH_URL"));
    flickcurl_set_service_uri(fc, url);
    snprintf(url, sizeof url, "%s/services/upload/", env("BENCH_URL"));
    flickcurl_set_upload_service_uri(fc, url);
    snprintf(url, sizeof url, "%s/services/replace/", env("BENCH_URL"));
    flickcurl_set_replace_service_uri(fc, url);

    struct rusage r0, r1;
    if (!strcmp(argv[1], "check")) {
        char *user = flickcurl_test_login(fc);
        if (!user) return 1;
        printf("{\"user\": \"%s\"}\n", user);
        free(user);
    } else if (!strcmp(argv[1], "seq") && argc == 3) {
        long n = atol(argv[2]);
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        for (long i = 0; i < n; i++)
            if (flickcurl_test_echo(fc, "test", "bench")) { fprintf(stderr, "call %ld failed\n", i); return 1; }
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        printf("{\"calls\": %ld, \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f}\n", n, wall,
               tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime));
    } else if (!strcmp(argv[1], "upload") && argc == 3) {
        flickcurl_upload_params params;
        memset(&params, 0, sizeof params);
        params.photo_file = argv[2];
        params.title = "bench";
        double t0 = now();
        getrusage(RUSAGE_SELF, &r0);
        flickcurl_upload_status *status = flickcurl_photos_upload_params(fc, &params);
        getrusage(RUSAGE_SELF, &r1);
        double wall = now() - t0;
        if (!status) { fprintf(stderr, "upload failed\n"); return 1; }
        printf("{\"photo_id\": \"%s\", \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f, \"maxrss_kb\": %ld}\n",
               status->photoid ? status->photoid : "", wall, tv(r1.ru_utime) - tv(r0.ru_utime),
               tv(r1.ru_stime) - tv(r0.ru_stime), r1.ru_maxrss);
        flickcurl_free_upload_status(status);
    } else {
        return 2;
    }
    flickcurl_free(fc);
    flickcurl_finish();
    return 0;
}
