/* SPDX-License-Identifier: MIT */
/* flickr_shutdown_callbacks against the sandbox: after it, no callback of any kind runs (log,
 * interrupt, progress, done), a synchronous call blocked on a silent server ends within about
 * 100 ms, and the close waits for a callback already running on another thread (but not for the
 * one it is called from). Its own process: the shutdown cannot be undone. */
#include <pthread.h>
#include <time.h>

#include "harness.h"
#include "sandbox_env.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int log_lines, interrupt_checks, dones, slow_done_finished;
static volatile int slow_done_started;

static void bump(int *counter) {
    pthread_mutex_lock(&lock);
    (*counter)++;
    pthread_mutex_unlock(&lock);
}

static int read_counter(int *counter) {
    int value;
    pthread_mutex_lock(&lock);
    value = *counter;
    pthread_mutex_unlock(&lock);
    return value;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void count_line(const char *line, void *userdata) { (void)line, (void)userdata, bump(&log_lines); }
static int never_stop(void *userdata) { (void)userdata, bump(&interrupt_checks); return 0; }
static void count_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    (void)req, (void)status, (void)resp, (void)userdata;
    bump(&dones);
}

/* A done callback still running when another thread shuts callbacks down: the close waits for it. */
static void slow_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    (void)req, (void)status, (void)resp, (void)userdata;
    slow_done_started = 1;
    sleep_ms(400);
    bump(&slow_done_finished);
}

struct blocked_call {
    flickr_context *ctx;
    int status;
    double ended_at;
};

static void *call_silent_server(void *arg) {
    struct blocked_call *call = arg;
    const char *params[] = {"sandbox_fault", "latency=20000", NULL};
    flickr_response *resp = NULL;
    call->status = flickr_call(&resp, call->ctx, "flickr.test.echo", params, FLICKR_GET);
    call->ended_at = now();
    flickr_response_free(resp);
    return NULL;
}

int main(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_request *slow = NULL, *late = NULL;
    struct blocked_call blocked = {NULL, 1, 0};
    pthread_t thread;
    const char *echo[] = {"a", "b", NULL};
    const char *delayed[] = {"sandbox_fault", "latency=1500", NULL};
    double started, closed_at;
    int lines_before, checks_before;

    CHECK_EQ_INT(flickr_shutdown_callbacks(-1), FLICKR_EINVAL); /* refused: nothing closed */
    flickr_context_set_log(ctx, count_line, NULL);
    flickr_context_set_interrupt(ctx, never_stop, NULL);
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 60000);
    flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0);

    /* Before: every kind of callback runs. */
    {
        flickr_response *resp = NULL;
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", echo, FLICKR_GET), FLICKR_OK);
        flickr_response_free(resp);
    }
    CHECK(read_counter(&log_lines) > 0);

    /* A synchronous call waiting on a server that answers in 20 s, asking the interrupt callback. */
    blocked.ctx = ctx;
    pthread_create(&thread, NULL, call_silent_server, &blocked);
    /* A done callback that will be running when the gate closes, and a request that ends later. */
    CHECK_EQ_INT(flickr_call_async(&slow, ctx, "flickr.test.echo", echo, FLICKR_GET, slow_done, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_call_async(&late, ctx, "flickr.test.echo", delayed, FLICKR_GET, count_done, NULL), FLICKR_OK);
    started = now();
    while (!slow_done_started && now() - started < 10) sleep_ms(1);
    CHECK(slow_done_started);
    sleep_ms(250); /* the interrupt callback has been asked a few times by now */
    CHECK(read_counter(&interrupt_checks) > 0);

    started = now();
    CHECK_EQ_INT(flickr_shutdown_callbacks(5000), FLICKR_OK);
    closed_at = now();
    /* It waited for the running done callback (which sleeps 400 ms in all). */
    CHECK_EQ_INT(read_counter(&slow_done_finished), 1);
    CHECK(closed_at - started < 2.0);

    /* The blocked call ends at its next check (every 100 ms), without asking anyone. */
    lines_before = read_counter(&log_lines);
    checks_before = read_counter(&interrupt_checks);
    pthread_join(thread, NULL);
    CHECK_EQ_INT(blocked.status, FLICKR_EABORTED);
    CHECK(blocked.ended_at - closed_at < 1.0);

    /* The later request ends, but its done callback is not called; wait still reports it. */
    CHECK_EQ_INT(flickr_request_wait(late), FLICKR_OK);
    CHECK_EQ_INT(read_counter(&dones), 0);
    CHECK_EQ_INT(read_counter(&interrupt_checks), checks_before);
    CHECK_EQ_INT(read_counter(&log_lines), lines_before);

    /* Calls still work; they reach no callback. A second shutdown is fine. */
    flickr_context_set_interrupt(ctx, NULL, NULL);
    {
        flickr_response *resp = NULL;
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", echo, FLICKR_GET), FLICKR_OK);
        flickr_response_free(resp);
    }
    CHECK_EQ_INT(read_counter(&log_lines), lines_before);
    CHECK_EQ_INT(flickr_shutdown_callbacks(0), FLICKR_OK);

    flickr_request_free(slow);
    flickr_request_free(late);
    flickr_context_free(ctx);
    TEST_MAIN_END();
}
