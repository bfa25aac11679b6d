/* SPDX-License-Identifier: MIT */
/* One shared context under load: 8 threads x 500 synchronous calls, while another
 * thread starts asynchronous requests and cancels half of them, and another changes
 * options. Every call must come back with its own answer; every async request ends
 * once (OK, or FLICKR_EABORTED when cancelled in time). Built with ThreadSanitizer by
 * scripts/sanitize.sh tsan. Usage: test_stress [CALLS_PER_THREAD]. */
#include <flickr.h>

#include <pthread.h>
#include <stdlib.h>

#include "harness.h"
#include "sandbox_env.h"

#define THREADS 8
#define ASYNC_REQUESTS 400

static flickr_context *shared_ctx;
static int calls_per_thread = 500;

struct worker {
    int id;
    int ok, wrong;
};

static void *sync_worker(void *arg) {
    struct worker *w = arg;
    char value[64];
    int i;
    for (i = 0; i < calls_per_thread; i++) {
        const char *params[] = {"who", value, NULL};
        flickr_response *resp = NULL;
        snprintf(value, sizeof value, "thread %d call %d", w->id, i);
        if (flickr_call(&resp, shared_ctx, "flickr.test.echo", params, (i % 3 == 0) ? FLICKR_POST : FLICKR_GET) != FLICKR_OK) {
            w->wrong++;
            fprintf(stderr, "thread %d call %d: %s\n", w->id, i, flickr_error_last()->message);
            continue;
        }
        {
            const char *echoed = flickr_value_string(flickr_value_get(flickr_response_root(resp), "who"));
            if (echoed && strcmp(echoed, value) == 0)
                w->ok++;
            else
                w->wrong++;
        }
        flickr_response_free(resp);
    }
    return NULL;
}

static pthread_mutex_t async_lock = PTHREAD_MUTEX_INITIALIZER;
static int done_count[ASYNC_REQUESTS], done_status[ASYNC_REQUESTS], freed_early[ASYNC_REQUESTS];
static int async_ok, async_aborted, async_other;

static void on_done(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    int index = (int)(intptr_t)userdata;
    (void)req;
    pthread_mutex_lock(&async_lock);
    done_count[index]++;
    done_status[index] = status;
    if (status == FLICKR_OK && resp != NULL)
        async_ok++;
    else if (status == FLICKR_EABORTED)
        async_aborted++;
    else
        async_other++;
    pthread_mutex_unlock(&async_lock);
}

static void *async_worker(void *arg) {
    flickr_request *requests[ASYNC_REQUESTS];
    int i;
    (void)arg;
    for (i = 0; i < ASYNC_REQUESTS; i++) {
        /* Half are slowed down so that their cancel lands while they are in flight. */
        const char *slow[] = {"sandbox_fault", "latency=200", NULL};
        requests[i] = NULL;
        if (flickr_call_async(&requests[i], shared_ctx, "flickr.test.echo", (i % 2) ? slow : NULL, FLICKR_GET, on_done,
                              (void *)(intptr_t)i) != FLICKR_OK) {
            pthread_mutex_lock(&async_lock);
            async_other++;
            pthread_mutex_unlock(&async_lock);
        }
        if (i % 2 && requests[i]) flickr_request_cancel(requests[i]);
        if (i % 50 == 49) { /* free some while others still run: free waits for their callback */
            int j;
            for (j = i - 49; j <= i; j += 7) {
                flickr_request_free(requests[j]); /* cancels it if still running */
                requests[j] = NULL;
                freed_early[j] = 1;
            }
        }
    }
    for (i = 0; i < ASYNC_REQUESTS; i++) {
        if (requests[i]) {
            int rc = flickr_request_wait(requests[i]);
            if (rc != FLICKR_OK && rc != FLICKR_EABORTED) fprintf(stderr, "async %d: %d\n", i, rc);
            flickr_request_free(requests[i]);
        }
    }
    return NULL;
}

static int stop_setter; /* shared between threads: accessed with __atomic builtins only */

static void *option_setter(void *arg) {
    long n = 0;
    (void)arg;
    while (!__atomic_load_n(&stop_setter, __ATOMIC_ACQUIRE)) {
        char agent[64];
        long value = 0;
        snprintf(agent, sizeof agent, "stress/%ld", n);
        flickr_context_set_string(shared_ctx, FLICKR_OPT_USER_AGENT, agent);
        flickr_context_set_long(shared_ctx, FLICKR_OPT_TIMEOUT_MS, 20000 + (n % 1000));
        flickr_context_get_long(&value, shared_ctx, FLICKR_OPT_TIMEOUT_MS);
        n++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    pthread_t threads[THREADS], async_thread, setter;
    struct worker workers[THREADS];
    int i, total_ok = 0, total_wrong = 0, once = 1;

    if (argc > 1) calls_per_thread = atoi(argv[1]);
    shared_ctx = sandbox_context(AUTH_OAUTH);
    flickr_context_set_long(shared_ctx, FLICKR_OPT_TIMEOUT_MS, 20000);
    CHECK_EQ_INT(pthread_create(&async_thread, NULL, async_worker, NULL), 0);
    CHECK_EQ_INT(pthread_create(&setter, NULL, option_setter, NULL), 0);
    for (i = 0; i < THREADS; i++) {
        workers[i].id = i;
        workers[i].ok = workers[i].wrong = 0;
        CHECK_EQ_INT(pthread_create(&threads[i], NULL, sync_worker, &workers[i]), 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        total_ok += workers[i].ok;
        total_wrong += workers[i].wrong;
    }
    pthread_join(async_thread, NULL);
    __atomic_store_n(&stop_setter, 1, __ATOMIC_RELEASE);
    pthread_join(setter, NULL);
    flickr_context_free(shared_ctx);

    for (i = 0; i < ASYNC_REQUESTS; i++) {
        once &= done_count[i] == 1;
        /* Never cancelled (even, not freed early): must have succeeded. */
        if (i % 2 == 0 && !freed_early[i] && done_status[i] != FLICKR_OK) {
            fprintf(stderr, "async %d was not cancelled but ended with %d\n", i, done_status[i]);
            total_wrong++;
        }
    }
    printf("sync: %d ok, %d wrong of %d; async: %d ok, %d aborted, %d other of %d\n", total_ok, total_wrong,
           THREADS * calls_per_thread, async_ok, async_aborted, async_other, ASYNC_REQUESTS);
    CHECK_EQ_INT(total_ok, THREADS * calls_per_thread);
    CHECK_EQ_INT(total_wrong, 0);
    CHECK(once); /* every done callback ran exactly once */
    CHECK_EQ_INT(async_ok + async_aborted, ASYNC_REQUESTS);
    CHECK_EQ_INT(async_other, 0);
    CHECK(async_aborted > 0);
    TEST_MAIN_END();
}
