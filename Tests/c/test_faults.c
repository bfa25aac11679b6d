/* SPDX-License-Identifier: MIT */
/* Faults injected by the sandbox (sandbox_fault=...): each gives its documented error
 * code, synchronously and asynchronously; the process's open file descriptors come back
 * to where they were; and the context stays usable after every one. Leaks are checked by
 * running this test under valgrind (scripts/valgrind.sh) and AddressSanitizer
 * (scripts/sanitize.sh). Retries are off (FLICKR_OPT_MAX_RETRIES 0): the first failure counts. */
#include <flickr.h>

#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "fds.h"
#include "harness.h"
#include "sandbox_env.h"

static flickr_context *fault_context(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 5000), FLICKR_OK);
    return ctx;
}

/* The context still works: a normal call succeeds and echoes its parameter. */
static void check_usable(flickr_context *ctx, const char *after) {
    const char *params[] = {"after", after, NULL};
    flickr_response *resp = NULL;
    int rc = flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET);
    CHECK_EQ_INT(rc, FLICKR_OK);
    if (rc != FLICKR_OK) {
        fprintf(stderr, "  the context is not usable after %s: %s\n", after, flickr_error_last()->message);
        return;
    }
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "after")), after);
    flickr_response_free(resp);
}

struct fault_case {
    const char *spec;
    int code;
    int http_status; /* expected, or -1 to skip */
};

static const struct fault_case cases[] = {
    {"drop", FLICKR_ENETWORK, -1},          /* connection dropped mid-body */
    {"truncate", FLICKR_ENETWORK, -1},      /* body shorter than Content-Length */
    {"reset", FLICKR_ENETWORK, 0},          /* no answer at all */
    {"slow=150", FLICKR_ETIMEOUT, -1},      /* the body trickles past the 600 ms limit */
    {"http500", FLICKR_EHTTP, 500},         /* HTML outage pages */
    {"http502", FLICKR_EHTTP, 502},
    {"http503", FLICKR_EHTTP, 503},
    {"http504", FLICKR_EHTTP, 504},
    {"http429=3", FLICKR_EHTTP, 429},       /* Retry-After: 3 */
    {"malformed", FLICKR_EPARSE, 200},
    {"empty", FLICKR_EPARSE, 200},
    {"huge=300000", FLICKR_ETOOBIG, -1},    /* past the 64 KiB cap set below */
};
#define N_CASES (sizeof cases / sizeof cases[0])

static void check_error(const flickr_error *e, const struct fault_case *c) {
    CHECK_EQ_INT(e->code, c->code);
    if (c->http_status >= 0) CHECK_EQ_INT(e->http_status, c->http_status);
    CHECK(e->message != NULL && e->message[0] != '\0');
    if (c->code == FLICKR_EHTTP) {
        char status[8];
        snprintf(status, sizeof status, "%d", c->http_status);
        CHECK(strstr(e->message, status) != NULL);
        CHECK(strchr(e->message, '<') == NULL); /* HTML is reduced to text */
    }
    if (e->code != c->code) fprintf(stderr, "  fault %s: %d %s\n", c->spec, e->code, e->message);
}

static void test_sync_faults(void) {
    flickr_context *ctx = fault_context();
    int baseline, verb;
    size_t i;

    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 600), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 64 * 1024), FLICKR_OK);
    check_usable(ctx, "start");
    baseline = open_fds();
    for (verb = FLICKR_GET; verb <= FLICKR_POST; verb++) {
        for (i = 0; i < N_CASES; i++) {
            const char *params[] = {"sandbox_fault", cases[i].spec, NULL};
            flickr_response *resp = (flickr_response *)0x1;
            int rc = flickr_call(&resp, ctx, "flickr.test.echo", params, (flickr_http_method)verb);
            CHECK_EQ_INT(rc, cases[i].code);
            CHECK(resp == NULL);
            check_error(flickr_error_last(), &cases[i]);
            check_usable(ctx, cases[i].spec);
            CHECK_EQ_INT(open_fds(), baseline);
        }
    }
    flickr_context_free(ctx);
}

struct outcome {
    pthread_mutex_t lock;
    int done_calls;
    int status;
    int mismatched; /* a callback got a response with a failure, or none with success */
};

/* Reads done_calls under the lock the callback writes it under. */
static int calls_of(struct outcome *o) {
    int n;
    pthread_mutex_lock(&o->lock);
    n = o->done_calls;
    pthread_mutex_unlock(&o->lock);
    return n;
}

static void on_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    struct outcome *o = userdata;
    (void)req;
    pthread_mutex_lock(&o->lock);
    o->done_calls++;
    o->status = status;
    pthread_mutex_unlock(&o->lock);
    /* Recorded, not CHECKed: the harness counters belong to the main thread. */
    pthread_mutex_lock(&o->lock);
    o->mismatched += (status == FLICKR_OK) != (resp != NULL);
    pthread_mutex_unlock(&o->lock);
}

static void test_async_faults(void) {
    flickr_context *ctx = fault_context();
    int baseline;
    size_t i;

    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 600), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 64 * 1024), FLICKR_OK);
    check_usable(ctx, "start");
    baseline = open_fds();
    for (i = 0; i < N_CASES; i++) {
        const char *params[] = {"sandbox_fault", cases[i].spec, NULL};
        struct outcome o = {PTHREAD_MUTEX_INITIALIZER, 0, 1, 0};
        flickr_request *req = NULL;
        flickr_response *resp = (flickr_response *)0x1;
        CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, on_done, &o), FLICKR_OK);
        CHECK_EQ_INT(flickr_request_wait(req), cases[i].code);
        check_error(flickr_request_error(req), &cases[i]);
        CHECK_EQ_INT(flickr_request_response(&resp, req), cases[i].code);
        CHECK(resp == NULL);
        flickr_request_free(req);
        CHECK_EQ_INT(calls_of(&o), 1);
        CHECK_EQ_INT(o.status, cases[i].code);
        CHECK_EQ_INT(o.mismatched, 0);
        check_usable(ctx, cases[i].spec);
        /* The done callback may run just before the engine returns the connection to its pool,
         * so the next call can open a second kept-alive connection: one more, never a growth. */
        CHECK(open_fds() <= baseline + 1);
    }
    flickr_context_free(ctx);
}

/* Cancelling requests stuck in a slow body or a long wait, from another thread. */
static void test_cancel_in_flight(void) {
    flickr_context *ctx = fault_context();
    const char *slow[] = {"sandbox_fault", "slow=200", NULL};
    const char *wait[] = {"sandbox_fault", "latency=3000", NULL};
    struct outcome a = {PTHREAD_MUTEX_INITIALIZER, 0, 1, 0}, b = {PTHREAD_MUTEX_INITIALIZER, 0, 1, 0};
    flickr_request *ra = NULL, *rb = NULL;
    struct timespec pause = {0, 300 * 1000 * 1000};
    int baseline;

    check_usable(ctx, "start");
    baseline = open_fds();
    CHECK_EQ_INT(flickr_call_async(&ra, ctx, "flickr.test.echo", slow, FLICKR_GET, on_done, &a), FLICKR_OK);
    CHECK_EQ_INT(flickr_call_async(&rb, ctx, "flickr.test.echo", wait, FLICKR_POST, on_done, &b), FLICKR_OK);
    nanosleep(&pause, NULL);
    flickr_request_cancel(ra);
    flickr_request_cancel(rb);
    flickr_request_cancel(rb); /* twice is harmless */
    CHECK_EQ_INT(flickr_request_wait(ra), FLICKR_EABORTED);
    CHECK_EQ_INT(flickr_request_wait(rb), FLICKR_EABORTED);
    flickr_request_free(ra);
    flickr_request_free(rb);
    CHECK_EQ_INT(calls_of(&a), 1);
    CHECK_EQ_INT(calls_of(&b), 1);
    check_usable(ctx, "cancel");
    CHECK_EQ_INT(open_fds(), baseline);
    flickr_context_free(ctx);
}

/* ---- uploads ---- */

struct stream {
    int64_t length, produced;
    int cancel_at_progress; /* abort from the progress callback once this many bytes went out */
    int progress_calls;
};

static int64_t slow_read(void *buffer, size_t capacity, void *userdata) {
    struct stream *s = userdata;
    struct timespec pause = {0, 2 * 1000 * 1000};
    size_t n = capacity < 4096 ? capacity : 4096;
    if ((int64_t)n > s->length - s->produced) n = (size_t)(s->length - s->produced);
    memset(buffer, 'x', n);
    s->produced += (int64_t)n;
    nanosleep(&pause, NULL); /* about 2 MB/s: the upload is still streaming when cancelled */
    return (int64_t)n;
}

static int abort_midway(int64_t sent, int64_t total, void *userdata) {
    struct stream *s = userdata;
    s->progress_calls++;
    return s->cancel_at_progress && sent >= 64 * 1024 && sent < total;
}

static void test_upload_faults(void) {
    flickr_context *ctx = fault_context();
    flickr_response *resp = NULL;
    int baseline;
    static unsigned char jpeg[2000];

    memset(jpeg, 'j', sizeof jpeg);
    jpeg[0] = 0xFF, jpeg[1] = 0xD8, jpeg[2] = 0xFF, jpeg[3] = 0xE0; /* a JPEG's signature */
    check_usable(ctx, "start");
    baseline = open_fds();

    {   /* An upload aborted mid-stream by its progress callback. */
        struct stream s = {4 * 1024 * 1024, 0, 1, 0};
        CHECK_EQ_INT(flickr_upload_stream(&resp, ctx, slow_read, s.length, "big.jpg", NULL, abort_midway, &s),
                     FLICKR_EABORTED);
        CHECK(resp == NULL);
        CHECK(s.produced < s.length);
        CHECK(s.progress_calls > 0);
    }
    {   /* An asynchronous upload cancelled mid-stream from another thread. */
        struct stream s = {4 * 1024 * 1024, 0, 0, 0};
        struct outcome o = {PTHREAD_MUTEX_INITIALIZER, 0, 1, 0};
        flickr_upload_source *src = NULL;
        flickr_request *req = NULL;
        struct timespec pause = {0, 200 * 1000 * 1000};
        CHECK_EQ_INT(flickr_upload_source_new_stream(&src, slow_read, s.length, &s, "big.jpg"), FLICKR_OK);
        CHECK_EQ_INT(flickr_upload_async(&req, ctx, src, NULL, abort_midway, on_done, &o), FLICKR_OK);
        flickr_upload_source_free(src); /* the upload keeps what it needs */
        nanosleep(&pause, NULL);
        flickr_request_cancel(req);
        CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EABORTED);
        flickr_request_free(req);
        CHECK_EQ_INT(calls_of(&o), 1);
        CHECK(s.produced > 0 && s.produced < s.length);
    }
    {   /* Server faults on the upload endpoint. */
        static const struct fault_case upload_cases[] = {
            {"http503", FLICKR_EHTTP, 503}, {"malformed", FLICKR_EPARSE, 200}, {"drop", FLICKR_ENETWORK, -1},
            {"reset", FLICKR_ENETWORK, -1}, {"http429=2", FLICKR_EHTTP, 429}};
        size_t i;
        for (i = 0; i < sizeof upload_cases / sizeof upload_cases[0]; i++) {
            const char *params[] = {"sandbox_fault", upload_cases[i].spec, "title", "fault", NULL};
            CHECK_EQ_INT(flickr_upload_buffer(&resp, ctx, jpeg, sizeof jpeg, "f.jpg", params, NULL, NULL),
                         upload_cases[i].code);
            check_error(flickr_error_last(), &upload_cases[i]);
        }
    }
    /* The context still uploads and calls. */
    CHECK_EQ_INT(flickr_upload_buffer(&resp, ctx, jpeg, sizeof jpeg, "ok.jpg", NULL, NULL, NULL), FLICKR_OK);
    CHECK(flickr_value_string(flickr_value_get(flickr_response_root(resp), "photoid")) != NULL);
    flickr_response_free(resp);
    check_usable(ctx, "uploads");
    CHECK_EQ_INT(open_fds(), baseline);
    flickr_context_free(ctx);
}

/* Freeing every context gives back every descriptor (sockets, the engines' wake-up pipes). */
static void run(void (*test)(void), const char *name) {
    int before = open_fds(), after;
    test();
    after = settled_fds(before);
    CHECK_EQ_INT(after, before);
    if (after != before) fprintf(stderr, "  %s left %d descriptors open\n", name, after - before);
}

int main(void) {
    run(test_sync_faults, "test_sync_faults");
    run(test_async_faults, "test_async_faults");
    run(test_cancel_in_flight, "test_cancel_in_flight");
    run(test_upload_faults, "test_upload_faults");
    TEST_MAIN_END();
}
