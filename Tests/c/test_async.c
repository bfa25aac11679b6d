/* SPDX-License-Identifier: MIT */
/* flickr_call_async, wait, cancel and free against the sandbox, and one context
 * shared by many threads. */
#include <flickr.h>
#include <pthread.h>

#include "harness.h"
#include "sandbox_env.h"

struct tally {
    pthread_mutex_t lock;
    int calls;
    int last_status;
    int had_response;
    int sync_status_inside; /* what a sync call made from the callback returned */
    flickr_context *ctx;
};

static void on_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    struct tally *t = userdata;
    (void)req;
    pthread_mutex_lock(&t->lock);
    t->calls++;
    t->last_status = status;
    t->had_response = resp != NULL && flickr_value_get(flickr_response_root(resp), "stat") != NULL;
    pthread_mutex_unlock(&t->lock);
}

static void test_done_callback_and_response(void) {
    struct tally t = {PTHREAD_MUTEX_INITIALIZER, 0, -100, 0, 0, NULL};
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_request *req = NULL;
    flickr_response *resp = NULL;
    const char *params[] = {"n", "42", NULL};
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, on_done, &t), FLICKR_OK);
    CHECK(req != NULL);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
    CHECK_EQ_INT(t.calls, 1); /* wait returns after the callback */
    CHECK_EQ_INT(t.last_status, FLICKR_OK);
    CHECK(t.had_response);
    CHECK_EQ_INT(flickr_request_error(req)->code, FLICKR_OK);
    CHECK_EQ_INT(flickr_request_response(&resp, req), FLICKR_OK);
    flickr_request_free(req);
    flickr_context_free(ctx); /* the response outlives both */
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "n")), "42");
    flickr_response_free(resp);
    CHECK_EQ_INT(t.calls, 1);
}

static void test_failure_record(void) {
    struct tally t = {PTHREAD_MUTEX_INITIALIZER, 0, -100, 0, 0, NULL};
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_request *req = NULL;
    flickr_response *resp = NULL;
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.fakeMethod", NULL, FLICKR_GET, on_done, &t), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EAPI);
    CHECK_EQ_INT(flickr_error_last()->api_code, 112); /* wait also records it for this thread */
    CHECK_EQ_INT(t.last_status, FLICKR_EAPI);
    CHECK(!t.had_response);
    CHECK_EQ_INT(flickr_request_error(req)->code, FLICKR_EAPI);
    CHECK_EQ_INT(flickr_request_error(req)->api_code, 112);
    CHECK(strstr(flickr_request_error(req)->message, "not found") != NULL);
    CHECK_EQ_INT(flickr_request_response(&resp, req), FLICKR_EAPI);
    CHECK(resp == NULL);
    flickr_request_free(req);
    flickr_context_free(ctx);
}

static void test_cancel(void) {
    struct tally t = {PTHREAD_MUTEX_INITIALIZER, 0, -100, 0, 0, NULL};
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_request *req = NULL;
    const char *slow[] = {"sandbox_fault", "latency=5000", NULL};
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", slow, FLICKR_GET, on_done, &t), FLICKR_OK);
    flickr_request_cancel(req);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EABORTED);
    CHECK_EQ_INT(t.calls, 1);
    CHECK_EQ_INT(t.last_status, FLICKR_EABORTED);
    flickr_request_cancel(req); /* after the end: nothing happens */
    flickr_request_free(req);
    CHECK_EQ_INT(t.calls, 1);

    /* Free while in flight: cancels, and the callback has run (once) before free returns. */
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", slow, FLICKR_GET, on_done, &t), FLICKR_OK);
    flickr_request_free(req);
    CHECK_EQ_INT(t.calls, 2);
    CHECK_EQ_INT(t.last_status, FLICKR_EABORTED);

    /* The context still works. */
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", NULL, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
    flickr_request_free(req);
    flickr_context_free(ctx);
}

/* Inside a done callback: sync calls are refused, async ones are fine. */
static void on_done_reenter(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    struct tally *t = userdata;
    flickr_response *inner = NULL;
    flickr_request *follow_up = NULL;
    (void)req;
    (void)status;
    (void)resp;
    t->sync_status_inside = flickr_call(&inner, t->ctx, "flickr.test.null", NULL, FLICKR_GET);
    if (flickr_call_async(&follow_up, t->ctx, "flickr.test.null", NULL, FLICKR_GET, on_done, t) == FLICKR_OK) {
        flickr_request_free(follow_up); /* from the callback: cancels without waiting */
    }
}

static void test_reentrancy(void) {
    struct tally t = {PTHREAD_MUTEX_INITIALIZER, 0, -100, 0, 0, NULL};
    flickr_request *req = NULL;
    t.ctx = sandbox_context(AUTH_NONE);
    CHECK_EQ_INT(flickr_call_async(&req, t.ctx, "flickr.test.echo", NULL, FLICKR_GET, on_done_reenter, &t), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
    CHECK_EQ_INT(t.sync_status_inside, FLICKR_ESTATE);
    flickr_request_free(req);
    flickr_context_free(t.ctx);
}

/* Many requests in flight on one context, all completing. */
static void test_many_in_flight(void) {
    enum { N = 64 };
    struct tally t = {PTHREAD_MUTEX_INITIALIZER, 0, -100, 0, 0, NULL};
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_request *reqs[N];
    const char *params[] = {"sandbox_fault", "latency=100", NULL};
    int i, ok = 0;
    for (i = 0; i < N; i++) {
        CHECK_EQ_INT(flickr_call_async(&reqs[i], ctx, "flickr.test.echo", params, FLICKR_GET, on_done, &t), FLICKR_OK);
    }
    for (i = 0; i < N; i++) {
        ok += flickr_request_wait(reqs[i]) == FLICKR_OK;
        flickr_request_free(reqs[i]);
    }
    CHECK_EQ_INT(ok, N);
    CHECK_EQ_INT(t.calls, N);
    flickr_context_free(ctx);
}

struct worker {
    flickr_context *ctx;
    int id;
    int ok;
};

static void *sync_worker(void *arg) {
    struct worker *w = arg;
    int i;
    char value[32];
    for (i = 0; i < 25; i++) {
        const char *params[] = {"who", value, NULL};
        flickr_response *resp = NULL;
        snprintf(value, sizeof value, "%d-%d", w->id, i);
        if (flickr_call(&resp, w->ctx, "flickr.test.echo", params, i % 2 ? FLICKR_POST : FLICKR_GET) == FLICKR_OK) {
            const char *back = flickr_value_string(flickr_value_get(flickr_response_root(resp), "who"));
            w->ok += back != NULL && strcmp(back, value) == 0;
            flickr_response_free(resp);
        } else {
            fprintf(stderr, "thread %d call %d: %s\n", w->id, i, flickr_error_last()->message);
        }
    }
    return NULL;
}

static void test_threads_share_a_context(void) {
    enum { THREADS = 8 };
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    pthread_t threads[THREADS];
    struct worker workers[THREADS];
    int i, ok = 0;
    for (i = 0; i < THREADS; i++) {
        workers[i].ctx = ctx;
        workers[i].id = i;
        workers[i].ok = 0;
        CHECK(pthread_create(&threads[i], NULL, sync_worker, &workers[i]) == 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        ok += workers[i].ok;
    }
    CHECK_EQ_INT(ok, THREADS * 25);
    flickr_context_free(ctx);
}

static void test_misuse(void) {
    flickr_request *req = (flickr_request *)0x1;
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    CHECK_EQ_INT(flickr_request_wait(NULL), FLICKR_EINVAL);
    flickr_request_cancel(NULL);
    flickr_request_free(NULL);
    CHECK(flickr_request_error(NULL) == NULL);
    CHECK_EQ_INT(flickr_call_async(NULL, ctx, "flickr.test.null", NULL, FLICKR_GET, NULL, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call_async(&req, ctx, NULL, NULL, FLICKR_GET, NULL, NULL), FLICKR_EINVAL);
    CHECK(req == NULL);
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", NULL, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
    flickr_request_free(req);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EINVAL); /* freed: refused, not a crash */
    flickr_request_free(req);                              /* double free: ignored */
    flickr_context_free(ctx);
}

int main(void) {
    test_done_callback_and_response();
    test_failure_record();
    test_cancel();
    test_reentrancy();
    test_many_in_flight();
    test_threads_share_a_context();
    test_misuse();
    TEST_MAIN_END();
}
