/* SPDX-License-Identifier: MIT */
/* Resources come back: 10,000 context and response create/free cycles keep the resident
 * set flat, and 1,000 failing calls leave the process's open descriptor count unchanged.
 *
 * Each cycle creates a context, sets its options, parses a real Flickr answer
 * (Tests/Fixtures/xml/flickr.photos.search.xml), walks it, renders it as JSON, and frees
 * everything; every tenth cycle also makes a real call against the sandbox (a network
 * response, the context's engine thread and connection). Usage: test_resources [CYCLES]. */
#include <flickr.h>

#include <dirent.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "fds.h"
#include "harness.h"
#include "sandbox_env.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "Tests/Fixtures/xml"
#endif

/* Resident set size in KiB. */
static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = -1;
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static char *fixture;
static size_t fixture_len;

static void load_fixture(void) {
    FILE *f = fopen(FIXTURES_DIR "/flickr.photos.search.xml", "rb");
    long n;
    if (!f) {
        perror(FIXTURES_DIR "/flickr.photos.search.xml");
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    fixture = malloc((size_t)n);
    fixture_len = fread(fixture, 1, (size_t)n, f);
    fclose(f);
}

static int failures;

static void cycle(int with_call) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_response *resp = NULL;
    const flickr_value *photos;
    char *json, *url;
    size_t i;

    flickr_context_set_string(ctx, FLICKR_OPT_USER_AGENT, "resources/1.0");
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 10000);
    if (flickr_response_parse(&resp, fixture, fixture_len) != FLICKR_OK) {
        failures++;
    } else {
        photos = flickr_value_get(flickr_response_root(resp), "photos.photo");
        for (i = 0; i < flickr_value_count(photos); i++) {
            url = flickr_photo_source_url(flickr_value_at(photos, i), "q");
            if (!url) failures++;
            flickr_free(url);
        }
        json = flickr_response_json(resp);
        if (!json) failures++;
        flickr_free(json);
        flickr_response_free(resp);
    }
    if (with_call) {
        const char *params[] = {"n", "1", NULL};
        if (flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET) != FLICKR_OK) failures++;
        flickr_response_free(resp);
    }
    flickr_context_free(ctx);
}

/* Sanitizers keep freed memory in quarantine, so RSS says nothing there (LeakSanitizer checks instead). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

static void test_rss_flat(int cycles) {
    int i, fds_before = open_fds(); /* no context exists yet */
    long before, after;

    for (i = 0; i < 1000; i++) cycle(i % 10 == 0); /* warm-up: allocator pools, TLS, curl's global state */
    before = rss_kib();
    for (i = 0; i < cycles; i++) cycle(i % 10 == 0);
    after = rss_kib();
    printf("rss: %ld KiB before, %ld KiB after %d cycles (%+ld KiB)\n", before, after, cycles, after - before);
    CHECK(before > 0 && after > 0);
    /* Flat: a leak of even 100 bytes a cycle would show as 1 MB over 10,000 cycles. */
#ifndef UNDER_SANITIZER
    CHECK(after - before < 768);
#else
    printf("rss: not checked under a sanitizer\n");
#endif
    CHECK_EQ_INT(failures, 0);
    CHECK_EQ_INT(settled_fds(fds_before), fds_before);
}

static void test_failing_calls_keep_fds(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH), *refused = sandbox_context(AUTH_NONE);
    static const char *const specs[] = {"reset", "drop", "http503", "malformed", "truncate"};
    flickr_response *resp = NULL;
    int i, before, wrong = 0;

    flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0);
    flickr_context_set_long(refused, FLICKR_OPT_MAX_RETRIES, 0);
    /* Nothing listens on port 9 of loopback: connection refused. */
    flickr_context_set_string(refused, FLICKR_OPT_REST_ENDPOINT, "http://127.0.0.1:9/services/rest/");
    /* Warm-up: each context's engine and pooled connection exist before counting. */
    if (flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET) == FLICKR_OK) flickr_response_free(resp);
    (void)flickr_call(&resp, refused, "flickr.test.echo", NULL, FLICKR_GET);
    before = open_fds();
    for (i = 0; i < 1000; i++) {
        const char *params[] = {"sandbox_fault", specs[i % 5], NULL};
        int rc = (i % 2) ? flickr_call(&resp, ctx, "flickr.test.echo", params, (flickr_http_method)(i % 4 == 1))
                         : flickr_call(&resp, refused, "flickr.test.echo", NULL, FLICKR_GET);
        if (rc == FLICKR_OK) {
            wrong++;
            flickr_response_free(resp);
        }
    }
    CHECK_EQ_INT(wrong, 0);
    /* One good call may reopen the pooled connection a failure closed: count after it. */
    if (flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET) == FLICKR_OK) flickr_response_free(resp);
    printf("fds: %d before, %d after 1000 failing calls\n", before, open_fds());
    CHECK_EQ_INT(open_fds(), before);
    flickr_context_free(ctx);
    flickr_context_free(refused);
}

int main(int argc, char **argv) {
    int cycles = argc > 1 ? atoi(argv[1]) : 10000;
    int fds = open_fds();
    load_fixture();
    test_rss_flat(cycles);
    test_failing_calls_keep_fds();
    CHECK_EQ_INT(settled_fds(fds), fds);
    free(fixture);
    TEST_MAIN_END();
}
