/* SPDX-License-Identifier: MIT */
/* FLICKR_OPT_BUDGET_PER_HOUR against the sandbox: contexts of one key share its budget; a call
 * past it fails at once with FLICKR_EBUDGET and says when a slot frees up; Flickr's 429 holds
 * the whole key back; a wait for a slot ends when the interrupt callback says stop; a child of
 * fork() never waits for a lock the fork left held.
 * The budget file lives in a fresh XDG_CACHE_HOME, so no run sees another's. */
#include <dirent.h>
#include <flickr.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static flickr_context *budgeted(long per_hour, long timeout_ms) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_BUDGET_PER_HOUR, per_hour), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, timeout_ms), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    return ctx;
}

static int echo(flickr_context *ctx, const char *fault) {
    const char *params[] = {"sandbox_fault", fault, NULL};
    flickr_response *resp = NULL;
    int rc = flickr_call(&resp, ctx, "flickr.test.echo", fault ? params : NULL, FLICKR_GET);
    flickr_response_free(resp);
    return rc;
}

/* Three calls an hour, shared by two contexts: the fourth fails at once, saying when. */
static void test_shared_budget(void) {
    flickr_context *first = budgeted(3, 2000), *second = budgeted(3, 2000);
    flickr_request *req = NULL;
    double start;
    int64_t wait_ms;
    CHECK_EQ_INT(echo(first, NULL), FLICKR_OK);
    CHECK_EQ_INT(echo(second, NULL), FLICKR_OK);
    CHECK_EQ_INT(echo(first, NULL), FLICKR_OK);
    start = now_s();
    CHECK_EQ_INT(echo(second, NULL), FLICKR_EBUDGET);
    CHECK(now_s() - start < 0.5);
    wait_ms = flickr_error_retry_after_ms(flickr_error_last());
    printf("budget of 3: the 4th call refused in %.1f ms, a slot frees in %lld ms\n", (now_s() - start) * 1e3,
           (long long)wait_ms);
    CHECK(wait_ms > 3500 * 1000 && wait_ms <= 3600 * 1000);
    CHECK(strstr(flickr_error_last()->message, "FLICKR_OPT_BUDGET_PER_HOUR") != NULL);
    printf("  %s\n", flickr_error_last()->message);
    CHECK(strstr(flickr_error_last()->message, "a slot frees up in 59 min ") != NULL); /* not "in 3599997 ms" */
    CHECK(strstr(flickr_error_last()->message, sandbox_env("FLICKR_SANDBOX_API_KEY")) == NULL);
    /* Asynchronous: refused by flickr_call_async itself, no request made. */
    CHECK_EQ_INT(flickr_call_async(&req, first, "flickr.test.echo", NULL, FLICKR_GET, NULL, NULL), FLICKR_EBUDGET);
    CHECK(req == NULL);
    CHECK(flickr_error_retry_after_ms(flickr_error_last()) > 3500 * 1000);
    /* A context without the option is not held back (the library's default). */
    CHECK_EQ_INT(flickr_context_set_long(second, FLICKR_OPT_BUDGET_PER_HOUR, 0), FLICKR_OK);
    CHECK_EQ_INT(echo(second, NULL), FLICKR_OK);
    flickr_context_free(first);
    flickr_context_free(second);
}

/* Flickr's 429 with Retry-After: 2 sets the key's back-off: another context waits it out. */
static void test_over_limit_answer_holds_the_key(void) {
    flickr_context *first = budgeted(1000, 1000), *second = budgeted(1000, 1000);
    char fault[128];
    double start;
    snprintf(fault, sizeof fault, "http429=2;times=1;key=budget-%ld", (long)getpid());
    start = now_s();
    CHECK_EQ_INT(echo(first, fault), FLICKR_EHTTP);
    CHECK_EQ_INT(flickr_error_last()->http_status, 429);
    /* Within its 1 s limit, the other context cannot wait 2 s: refused, saying so. */
    CHECK_EQ_INT(echo(second, NULL), FLICKR_EBUDGET);
    CHECK(flickr_error_retry_after_ms(flickr_error_last()) > 1000);
    CHECK(flickr_error_retry_after_ms(flickr_error_last()) <= 2000);
    /* With 5 s it waits the back-off out, then succeeds. */
    CHECK_EQ_INT(flickr_context_set_long(second, FLICKR_OPT_TIMEOUT_MS, 5000), FLICKR_OK);
    CHECK_EQ_INT(echo(second, NULL), FLICKR_OK);
    printf("back-off: the other context's call went out %.2f s after the 429 (Retry-After: 2)\n", now_s() - start);
    CHECK(now_s() - start >= 1.9 && now_s() - start < 4);
    flickr_context_free(first);
    flickr_context_free(second);
}

/* A retry that finds no slot fails on the worker, and the request's own record carries the wait.
 * A key of its own, budget 1: the first attempt takes the hour's one slot and is answered 503 (a
 * fault answered before the key is looked at); its retry finds none before the time limit. */
static void test_async_retry_refused_by_the_budget(void) {
    flickr_context *ctx = NULL;
    char fault[128], url[512];
    const char *params[] = {"sandbox_fault", fault, NULL};
    flickr_request *req = NULL;
    int64_t wait_ms;
    CHECK_EQ_INT(flickr_context_new(&ctx, "budget-test-key-of-its-own", "secret"), FLICKR_OK);
    sandbox_url(url, sizeof url, "");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, url), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_BUDGET_PER_HOUR, 1), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 10), FLICKR_OK);
    snprintf(fault, sizeof fault, "http503;times=1;key=budget-async-%ld", (long)getpid());
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_request_wait(req), FLICKR_EBUDGET);
    wait_ms = flickr_error_retry_after_ms(flickr_request_error(req));
    printf("async retry refused by the budget on the worker: a slot frees in %lld ms\n", (long long)wait_ms);
    CHECK(wait_ms > 3500 * 1000 && wait_ms <= 3600 * 1000);
    CHECK(flickr_error_retry_after_ms(flickr_error_last()) == wait_ms); /* flickr_request_wait recorded it too */
    flickr_request_free(req);
    flickr_context_free(ctx);
}

struct busy {
    flickr_context *ctx;
    volatile int stop;
    int calls;
};

static void *keep_calling(void *arg) {
    struct busy *b = arg;
    while (!b->stop) b->calls += echo(b->ctx, NULL) == FLICKR_OK;
    return NULL;
}

/* How many descriptors of this process are open on a budget file. */
static int budget_descriptors(void) {
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *entry;
    int count = 0;
    if (dir == NULL) return -1;
    while ((entry = readdir(dir)) != NULL) {
        char path[300], target[4096];
        ssize_t n;
        snprintf(path, sizeof path, "/proc/self/fd/%s", entry->d_name);
        n = readlink(path, target, sizeof target - 1);
        if (n <= 0) continue;
        target[n] = '\0';
        count += strstr(target, "/libflickr/budget/") != NULL;
    }
    closedir(dir);
    return count;
}

/* fork() while another thread is inside the budget (its file locked, its mutex held): each child
 * opens the file anew (an open shared with the parent would share its flock: the parent's would not
 * exclude the child) and makes its budgeted call; none waits for a lock the fork left held. */
static void test_fork_while_the_budget_is_busy(void) {
    enum { FORKS = 30 };
    struct busy b = {NULL, 0, 0};
    pthread_t thread;
    int i, clean = 0, opens;
    b.ctx = budgeted(100000, 5000);
    CHECK_EQ_INT(echo(b.ctx, NULL), FLICKR_OK);
    opens = budget_descriptors(); /* one per key this process used */
    CHECK(opens >= 1);
    CHECK(pthread_create(&thread, NULL, keep_calling, &b) == 0);
    for (i = 0; i < FORKS; i++) {
        int status = -1;
        pid_t pid = fork();
        if (pid == 0) {
            alarm(10); /* a wedged child dies of SIGALRM, and the parent sees it */
            if (echo(b.ctx, NULL) != FLICKR_OK) _exit(1);
            _exit(budget_descriptors() == opens + 1 ? 0 : 2); /* the parent's opens, left alone, and its own */
        }
        CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
        clean += WIFEXITED(status) && WEXITSTATUS(status) == 0;
    }
    b.stop = 1;
    pthread_join(thread, NULL);
    printf("fork while a thread made budgeted calls (%d of them): %d of %d children made theirs\n", b.calls, clean,
           FORKS);
    CHECK_EQ_INT(clean, FORKS);
    flickr_context_free(b.ctx);
}

static int stop_after(void *userdata) { return now_s() >= *(double *)userdata; }

/* A budget that is full for an hour, and a time limit of a day: the call waits, and stops when asked. */
static void test_wait_ends_when_interrupted(void) {
    flickr_context *ctx = budgeted(3, 86400000);
    double stop_at = now_s() + 0.3, start = now_s();
    CHECK_EQ_INT(flickr_context_set_interrupt(ctx, stop_after, &stop_at), FLICKR_OK);
    CHECK_EQ_INT(echo(ctx, NULL), FLICKR_EABORTED);
    printf("interrupted the wait for a slot after %.0f ms (asked to stop at 300 ms)\n", (now_s() - start) * 1e3);
    CHECK(now_s() - start >= 0.29 && now_s() - start < 0.8);
    flickr_context_free(ctx);
}

int main(void) {
    char dir[] = "/tmp/flickr-test-budget-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_EQ_INT(setenv("XDG_CACHE_HOME", dir, 1), 0);
    test_shared_budget();
    test_over_limit_answer_holds_the_key();
    test_async_retry_refused_by_the_budget();
    test_fork_while_the_budget_is_busy();
    test_wait_ends_when_interrupted();
    {   /* The file is named by a hash, never by the key. */
        char command[256];
        snprintf(command, sizeof command, "ls %s/libflickr/budget | grep -c '^[0-9a-f]\\{32\\}\\.budget$' >/dev/null",
                 dir);
        CHECK_EQ_INT(system(command), 0);
        snprintf(command, sizeof command, "rm -rf %s", dir);
        CHECK_EQ_INT(system(command), 0);
    }
    TEST_MAIN_END();
}
