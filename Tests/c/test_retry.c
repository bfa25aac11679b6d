/* SPDX-License-Identifier: MIT */
/* Retries with back-off, Retry-After, the POST opt-in, the rate limiter and the
 * log hook, against the sandbox's counted faults (SPEC;times=N;key=K). */
#include <flickr.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

struct log_lines {
    pthread_mutex_t lock;
    int requests, retries;
    char last[512];
};

static void on_log(const char *line, void *userdata) {
    struct log_lines *log = userdata;
    pthread_mutex_lock(&log->lock);
    if (strncmp(line, "retry ", 6) == 0) {
        log->retries++;
    } else {
        log->requests++;
        snprintf(log->last, sizeof log->last, "%s", line);
    }
    if (strstr(line, sandbox_env("FLICKR_SANDBOX_API_SECRET")) ||
        strstr(line, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN_SECRET")) || strstr(line, "oauth_signature")) {
        fprintf(stderr, "log line leaks a secret or a signature: %s\n", line);
        log->requests = -1000;
    }
    pthread_mutex_unlock(&log->lock);
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A fault spec unique to this run, so counters of earlier runs never interfere. */
static const char *spec(char *buffer, size_t size, const char *fault, int times, const char *name) {
    snprintf(buffer, size, "%s;times=%d;key=%s-%ld", fault, times, name, (long)getpid());
    return buffer;
}

static void test_get_retries_then_succeeds(flickr_context *ctx, struct log_lines *log) {
    char fault[128];
    const char *params[] = {"sandbox_fault", NULL, NULL};
    flickr_response *resp = NULL;
    int i;
    const char *faults[] = {"http503", "http500", "http502", "http504", "reset", "truncate"};
    for (i = 0; i < 6; i++) {
        int before = log->retries;
        params[1] = spec(fault, sizeof fault, faults[i], 2, faults[i]);
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_OK);
        flickr_response_free(resp);
        if (i < 4) {
            CHECK_EQ_INT(log->retries - before, 2);
        } else {
            /* libcurl itself resends once when a kept-alive connection turns out dead. */
            CHECK(log->retries - before >= 1 && log->retries - before <= 2);
        }
    }
    CHECK(strstr(log->last, "flickr.test.echo GET ") != NULL);
    CHECK(strstr(log->last, "/services/rest/ -> HTTP 200") != NULL);
    CHECK(strstr(log->last, "2 retries") != NULL);
    CHECK(strchr(log->last, '?') == NULL); /* no query: that is where tokens travel */
}

static void test_limits(flickr_context *ctx, struct log_lines *log) {
    char fault[128];
    const char *params[] = {"sandbox_fault", NULL, NULL};
    flickr_response *resp = NULL;
    double start;

    /* More failures than retries: the last failure is reported. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 1), FLICKR_OK);
    params[1] = spec(fault, sizeof fault, "http503", 5, "limit");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_error_last()->http_status, 503);
    CHECK(strstr(log->last, "1 retries") != NULL);

    /* Not transient: never retried. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 3), FLICKR_OK);
    {
        int before = log->retries;
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.fakeMethod", NULL, FLICKR_GET), FLICKR_EAPI);
        params[1] = spec(fault, sizeof fault, "malformed", 1, "parse");
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_EPARSE);
        CHECK_EQ_INT(log->retries, before);
    }

    /* POST is not retried unless the context opts in. */
    params[1] = spec(fault, sizeof fault, "http502", 1, "post");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_POST), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_POST, 1), FLICKR_OK);
    params[1] = spec(fault, sizeof fault, "http502", 1, "post-optin");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_POST), FLICKR_OK);
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_POST, 0), FLICKR_OK);

    /* Retry-After: 1 second is waited for, even with a tiny base delay. */
    start = now_s();
    params[1] = spec(fault, sizeof fault, "http429=1", 1, "after");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    CHECK(now_s() - start >= 0.95);

    /* A Retry-After beyond what the library waits for is not retried. */
    params[1] = spec(fault, sizeof fault, "http429=3600", 1, "too-long");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_error_last()->http_status, 429);

    /* No retries at all. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    params[1] = spec(fault, sizeof fault, "http503", 1, "none");
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 3), FLICKR_OK);
}

/* Cancelling a request while it waits to retry ends it at once. */
static void test_cancel_during_backoff(flickr_context *ctx) {
    char fault[128];
    const char *params[] = {"sandbox_fault", NULL, NULL};
    flickr_request *req = NULL;
    double start;
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 20000), FLICKR_OK);
    params[1] = spec(fault, sizeof fault, "http503", 3, "cancel");
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL), FLICKR_OK);
    {
        struct timespec pause = {0, 300 * 1000 * 1000};
        nanosleep(&pause, NULL); /* the first attempt failed; now it waits 10-20 s */
    }
    start = now_s();
    flickr_request_cancel(req);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EABORTED);
    CHECK(now_s() - start < 5);
    flickr_request_free(req);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 10), FLICKR_OK);
}

/* At most 5 requests per second: 11 calls from two threads need at least 2 s. */
static void *two_calls(void *arg) {
    flickr_context *ctx = arg;
    flickr_response *resp = NULL;
    int i;
    for (i = 0; i < 5; i++) {
        if (flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET) == FLICKR_OK) flickr_response_free(resp);
    }
    return NULL;
}

static void test_rate_limit(flickr_context *ctx) {
    pthread_t thread;
    flickr_response *resp = NULL;
    double start;
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RATE_LIMIT_PER_SECOND, 5), FLICKR_OK);
    start = now_s();
    CHECK(pthread_create(&thread, NULL, two_calls, ctx) == 0);
    two_calls(ctx);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    CHECK(now_s() - start >= 1.95);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RATE_LIMIT_PER_SECOND, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RATE_LIMIT_PER_HOUR, -1), FLICKR_EINVAL);
}

int main(void) {
    struct log_lines log;
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    memset(&log, 0, sizeof log);
    pthread_mutex_init(&log.lock, NULL);
    CHECK_EQ_INT(flickr_context_set_log(ctx, on_log, &log), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_log(NULL, on_log, &log), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 10), FLICKR_OK);
    test_get_retries_then_succeeds(ctx, &log);
    test_limits(ctx, &log);
    test_cancel_during_backoff(ctx);
    test_rate_limit(ctx);
    CHECK(log.requests > 0);
    CHECK_EQ_INT(flickr_context_set_log(ctx, NULL, NULL), FLICKR_OK);
    flickr_context_free(ctx);
    TEST_MAIN_END();
}
