/* SPDX-License-Identifier: MIT */
/* fork() after a context was used: the child must get its own answers over its own connections,
 * its asynchronous requests must complete, requests in flight at the fork must end in the child
 * with an error instead of hanging, and a lock held by another parent thread at the fork must not
 * wedge the child. Every child runs under alarm() and every wait for one has a deadline, so a
 * hang fails the test instead of hanging ctest. */
#include <flickr.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

enum { ROUNDS = 150, CHILD_ALARM_S = 20 };

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

/* One echo call with `who`=TAG-I. 1: own answer; 0: the call failed; -1: another call's answer. */
static int echo(flickr_context *ctx, const char *tag, int i) {
    char who[64];
    const char *params[] = {"who", who, NULL};
    flickr_response *resp = NULL;
    const char *got;
    int outcome;
    snprintf(who, sizeof who, "%s-%d", tag, i);
    if (flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET) != FLICKR_OK) return 0;
    got = flickr_value_string(flickr_value_get(flickr_response_root(resp), "who"));
    outcome = got != NULL && strcmp(got, who) == 0 ? 1 : -1;
    flickr_response_free(resp);
    return outcome;
}

struct tally {
    int own, failed, crossed;
    char first_error[200];
};

static void run_echoes(flickr_context *ctx, const char *tag, struct tally *t) {
    int i;
    for (i = 0; i < ROUNDS; i++) {
        int outcome = echo(ctx, tag, i);
        if (outcome == 1) t->own++;
        if (outcome == -1) t->crossed++;
        if (outcome == 0) {
            if (t->failed++ == 0) snprintf(t->first_error, sizeof t->first_error, "%s", flickr_error_last()->message);
        }
    }
}

/* Waits up to `seconds` for `pid`; kills it when it is still running. The exit status, or -1. */
static int reap(pid_t pid, double seconds) {
    double deadline = now_s() + seconds;
    int status = 0;
    for (;;) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid) break;
        if (got < 0) return -1;
        if (now_s() > deadline) {
            fprintf(stderr, "child %d still running after %.0f s: killed\n", (int)pid, seconds);
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        sleep_ms(10);
    }
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "child %d ended by signal %d%s\n", (int)pid, WTERMSIG(status),
                WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
        return -1;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Forks after flushing stdio (the child must not print the parent's buffered lines again). */
static pid_t fork_child(void) {
    pid_t pid;
    fflush(stdout);
    fflush(stderr);
    pid = fork();
    if (pid == 0) alarm(CHILD_ALARM_S);
    return pid;
}

/* Parent and child call through the one context at once, each with its own parameter: each must get
 * only its own answers (they shared one kept-alive connection: answers crossed), and signed calls
 * must not fail (they shared the buffered nonce bytes: the server refused repeated nonces). */
static void test_concurrent_calls(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    struct tally parent = {0, 0, 0, ""}, child = {0, 0, 0, ""};
    int channel[2];
    pid_t pid;
    int status;
    double first_call_ms = -1;
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 3000);
    flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0);
    CHECK_EQ_INT(echo(ctx, "warm", 0), 1); /* leaves a kept-alive connection in the pool */
    CHECK(pipe(channel) == 0);
    pid = fork_child();
    if (pid == 0) {
        double started = now_s();
        int first = echo(ctx, "child", -1);
        double elapsed_ms = (now_s() - started) * 1000;
        close(channel[0]);
        if (first == 1) child.own++;
        if (first == -1) child.crossed++;
        if (first == 0 && child.failed++ == 0)
            snprintf(child.first_error, sizeof child.first_error, "%s", flickr_error_last()->message);
        run_echoes(ctx, "child", &child);
        if (write(channel[1], &child, sizeof child) != (ssize_t)sizeof child) _exit(3);
        if (write(channel[1], &elapsed_ms, sizeof elapsed_ms) != (ssize_t)sizeof elapsed_ms) _exit(3);
        _exit(0);
    }
    close(channel[1]);
    run_echoes(ctx, "parent", &parent);
    status = reap(pid, 60);
    CHECK_EQ_INT(status, 0);
    if (read(channel[0], &child, sizeof child) != (ssize_t)sizeof child) child.failed = -1;
    if (read(channel[0], &first_call_ms, sizeof first_call_ms) != (ssize_t)sizeof first_call_ms) first_call_ms = -1;
    close(channel[0]);
    printf("concurrent calls: parent %d own, %d failed, %d crossed; child %d own, %d failed, %d crossed "
           "(of %d and %d); the child's first call took %.1f ms\n",
           parent.own, parent.failed, parent.crossed, child.own, child.failed, child.crossed, ROUNDS,
           ROUNDS + 1, first_call_ms);
    if (parent.failed) printf("  parent's first failure: %s\n", parent.first_error);
    if (child.failed > 0) printf("  child's first failure: %s\n", child.first_error);
    CHECK_EQ_INT(parent.crossed + child.crossed, 0);
    CHECK_EQ_INT(parent.failed, 0);
    CHECK_EQ_INT(child.failed, 0);
    CHECK_EQ_INT(parent.own, ROUNDS);
    CHECK_EQ_INT(child.own, ROUNDS + 1);
    /* The parent's connections still work after the child has gone. */
    CHECK_EQ_INT(echo(ctx, "after", 0), 1);
    flickr_context_free(ctx);
}

/* Signed calls right after the fork, first in the child, then in the parent, within one second:
 * each process must draw its own nonces (both handed out the parent's buffered random bytes, and
 * the server refused the second use of each nonce: oauth_problem=nonce_used). */
static void test_nonces(void) {
    enum { CALLS = 5 };
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    struct timespec wall;
    pid_t pid;
    int i, own = 0;
    flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0);
    CHECK_EQ_INT(echo(ctx, "warm", 0), 1); /* fills the nonce buffer */
    /* Start early in a second, so that both processes' calls fall in the same one. */
    clock_gettime(CLOCK_REALTIME, &wall);
    if (wall.tv_nsec > 300000000L) sleep_ms((1000000000L - wall.tv_nsec) / 1000000 + 1);
    pid = fork_child();
    if (pid == 0) {
        for (i = 0; i < CALLS; i++) {
            if (echo(ctx, "child-signed", i) != 1) _exit(1);
        }
        _exit(0);
    }
    CHECK_EQ_INT(reap(pid, 30), 0);
    for (i = 0; i < CALLS; i++) {
        int outcome = echo(ctx, "parent-signed", i);
        if (outcome == 1) own++;
        if (outcome != 1 && own == i) printf("parent's first failed signed call: %s\n", flickr_error_last()->message);
    }
    printf("signed calls after the fork: parent %d of %d answered\n", own, CALLS);
    CHECK_EQ_INT(own, CALLS);
    flickr_context_free(ctx);
}

/* The child's asynchronous request through the inherited context completes (the worker thread
 * does not exist in the child: it waited forever), and so does a synchronous call afterwards. */
static void test_async_in_child(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_request *req = NULL;
    const char *params[] = {"who", "parent-async", NULL};
    pid_t pid;
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 3000);
    /* The parent's worker runs, with a kept-alive connection. */
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_OK);
    flickr_request_free(req);
    pid = fork_child();
    if (pid == 0) {
        const char *mine[] = {"who", "child-async", NULL};
        flickr_request *own = NULL;
        flickr_response *resp = NULL;
        const char *got;
        double started = now_s();
        int ok = flickr_call_async(&own, ctx, "flickr.test.echo", mine, FLICKR_GET, NULL, NULL) == FLICKR_OK &&
                 flickr_request_wait(own) == FLICKR_OK && flickr_request_response(&resp, own) == FLICKR_OK;
        got = ok ? flickr_value_string(flickr_value_get(flickr_response_root(resp), "who")) : NULL;
        printf("child's async call: %s in %.1f ms\n", ok ? "answered" : flickr_error_last()->message,
               (now_s() - started) * 1000);
        fflush(stdout);
        if (!ok || got == NULL || strcmp(got, "child-async") != 0) _exit(1);
        flickr_response_free(resp);
        flickr_request_free(own);
        if (echo(ctx, "child-sync", 0) != 1) _exit(2);
        flickr_context_free(ctx);
        _exit(0);
    }
    CHECK_EQ_INT(reap(pid, 30), 0);
    CHECK_EQ_INT(echo(ctx, "parent-after", 0), 1);
    flickr_context_free(ctx);
}

/* Requests in flight at the fork belong to the parent: in the child they end at once with
 * FLICKR_ESTATE (their done callbacks are not called there), while the parent gets their answers. */
static void test_in_flight_at_fork(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_request *slow = NULL, *queued = NULL;
    const char *slow_params[] = {"who", "slow", "sandbox_fault", "latency=1500", NULL};
    const char *queued_params[] = {"who", "queued", NULL};
    flickr_response *resp = NULL;
    pid_t pid;
    flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 10000);
    CHECK_EQ_INT(flickr_call_async(&slow, ctx, "flickr.test.echo", slow_params, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_call_async(&queued, ctx, "flickr.test.echo", queued_params, FLICKR_GET, NULL, NULL),
                 FLICKR_OK);
    sleep_ms(200); /* the slow one is on the wire (if not, the child's checks are the same) */
    pid = fork_child();
    if (pid == 0) {
        double started = now_s();
        int status = flickr_request_wait(slow);
        double waited_ms = (now_s() - started) * 1000;
        const char *message = flickr_request_error(slow)->message;
        printf("child: the inherited request ended with %d after %.1f ms: %s\n", status, waited_ms, message);
        fflush(stdout);
        if (status != FLICKR_ESTATE || waited_ms > 1000 || strstr(message, "fork") == NULL) _exit(1);
        /* The one that may have completed before the fork reports its outcome; either way no wait. */
        status = flickr_request_wait(queued);
        if (status != FLICKR_OK && status != FLICKR_ESTATE) _exit(2);
        flickr_request_cancel(slow);
        flickr_request_free(slow);
        flickr_request_free(queued);
        if (echo(ctx, "child", 0) != 1) _exit(3);
        flickr_context_free(ctx);
        _exit(0);
    }
    CHECK_EQ_INT(flickr_request_wait(slow), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_response(&resp, slow), FLICKR_OK);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "who")), "slow");
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_request_wait(queued), FLICKR_OK);
    flickr_request_free(slow);
    flickr_request_free(queued);
    CHECK_EQ_INT(reap(pid, 30), 0);
    flickr_context_free(ctx);
}

/* Another parent thread keeps the library's locks busy (setters, async starts and frees) while the
 * main thread forks again and again, and a third sits in a slow synchronous call: every child must
 * still set options and call. A lock held at the fork instant by another thread stayed locked in
 * the child for good. */
struct busy {
    flickr_context *ctx;
    volatile int stop;
};

static void *keep_busy(void *arg) {
    struct busy *b = arg;
    const char *params[] = {"who", "busy", NULL};
    long n = 0;
    while (!b->stop) {
        flickr_request *req = NULL;
        flickr_context_set_long(b->ctx, FLICKR_OPT_MAX_RETRIES, n++ % 3);
        flickr_context_set_string(b->ctx, FLICKR_OPT_USER_AGENT, n % 2 ? "busy-a" : "busy-b");
        if (flickr_call_async(&req, b->ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL) == FLICKR_OK) {
            if (n % 2) flickr_request_wait(req);
            flickr_request_free(req); /* cancels it when it has not ended */
        }
    }
    return NULL;
}

static void *slow_call(void *arg) {
    struct busy *b = arg;
    const char *params[] = {"who", "slow-sync", "sandbox_fault", "latency=300", NULL};
    while (!b->stop) {
        flickr_response *resp = NULL;
        if (flickr_call(&resp, b->ctx, "flickr.test.echo", params, FLICKR_GET) == FLICKR_OK) flickr_response_free(resp);
    }
    return NULL;
}

static void test_fork_while_busy(void) {
    enum { FORKS = 100 };
    struct busy b = {NULL, 0};
    pthread_t busy_thread, slow_thread;
    int i, clean = 0;
    double fork_s = 0, child_s = 0, slowest_s = 0;
    b.ctx = sandbox_context(AUTH_NONE);
    flickr_context_set_long(b.ctx, FLICKR_OPT_TIMEOUT_MS, 5000);
    CHECK_EQ_INT(echo(b.ctx, "warm", 0), 1);
    CHECK(pthread_create(&busy_thread, NULL, keep_busy, &b) == 0);
    CHECK(pthread_create(&slow_thread, NULL, slow_call, &b) == 0);
    for (i = 0; i < FORKS; i++) {
        double started = now_s();
        pid_t pid = fork_child();
        double forked = now_s();
        if (pid == 0) {
            flickr_request *req = NULL;
            const char *params[] = {"who", "child-async", NULL};
            alarm(5);
            if (flickr_context_set_long(b.ctx, FLICKR_OPT_MAX_RETRIES, 0) != FLICKR_OK) _exit(1);
            if (echo(b.ctx, "child", i) != 1) _exit(2);
            if (flickr_call_async(&req, b.ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL) != FLICKR_OK ||
                flickr_request_wait(req) != FLICKR_OK)
                _exit(3);
            flickr_request_free(req);
            _exit(0);
        }
        if (reap(pid, 10) != 0) break; /* one wedged child is enough */
        clean++;
        fork_s += forked - started;
        child_s += now_s() - forked;
        if (now_s() - forked > slowest_s) slowest_s = now_s() - forked;
        sleep_ms(i % 5); /* vary where the busy threads are at the next fork */
    }
    b.stop = 1;
    pthread_join(busy_thread, NULL);
    pthread_join(slow_thread, NULL);
    printf("forks while other threads were busy: %d of %d children ended cleanly; fork() took %.2f ms, a child"
           " %.1f ms on average, %.1f ms at most\n", clean, FORKS, clean ? fork_s * 1000 / clean : 0.0,
           clean ? child_s * 1000 / clean : 0.0, slowest_s * 1000);
    CHECK_EQ_INT(clean, FORKS);
    flickr_context_free(b.ctx);
}

static void timed(const char *name, void (*test)(void)) {
    double started = now_s();
    test();
    printf("%s: %.2f s\n", name, now_s() - started);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    timed("test_concurrent_calls", test_concurrent_calls);
    timed("test_nonces", test_nonces);
    timed("test_async_in_child", test_async_in_child);
    timed("test_in_flight_at_fork", test_in_flight_at_fork);
    timed("test_fork_while_busy", test_fork_while_busy);
    TEST_MAIN_END();
}
