/* SPDX-License-Identifier: MIT */
/* One handle used from several threads at once (issue 40): a harvest, a walk and an upload
 * source, which are stepped or changed, refuse a second call while one runs with FLICKR_ESTATE
 * (never a trap, never a race on their state); a request and a response, which may be shared,
 * serve every thread. Against a sandbox seeded with 3,000 items (7 pages of a search), and a
 * listener of the test's own on 127.0.0.1 that holds a step inside the library while the test
 * checks the refusals. Also run under ThreadSanitizer (scripts/sanitize.sh tsan). */
#include <flickr.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "loopback.h"
#include "sandbox_env.h"

#define THREADS 8
#define ALL 3100 /* the 3,000 seeded items and the sandbox user's 100 default photos */

/* What one hammering thread saw. */
struct tally {
    long ok, busy, other, items;
    int other_code;
};

static void count(struct tally *t, int status) {
    if (status == FLICKR_OK) {
        t->ok++;
    } else if (status == FLICKR_ESTATE) {
        t->busy++;
        sched_yield(); /* let the thread in the call go on (fewer spins under valgrind or TSan) */
    } else {
        t->other++;
        t->other_code = status;
    }
}

/* Runs `body` on THREADS threads at once with `arg`, then checks every call was OK or FLICKR_ESTATE;
 * the sum of the threads' tallies in *sum. */
static void hammer(const char *what, void *(*body)(void *), void *arg, struct tally *sum) {
    pthread_t threads[THREADS];
    struct tally tallies[THREADS];
    void *args[THREADS][2];
    int i;
    memset(sum, 0, sizeof *sum);
    memset(tallies, 0, sizeof tallies);
    for (i = 0; i < THREADS; i++) {
        args[i][0] = arg;
        args[i][1] = &tallies[i];
        CHECK(pthread_create(&threads[i], NULL, body, args[i]) == 0);
    }
    for (i = 0; i < THREADS; i++) {
        pthread_join(threads[i], NULL);
        sum->ok += tallies[i].ok;
        sum->busy += tallies[i].busy;
        sum->other += tallies[i].other;
        sum->items += tallies[i].items;
        if (tallies[i].other) sum->other_code = tallies[i].other_code;
    }
    printf("%s: %d threads, %ld calls OK, %ld refused as busy, %ld other (last %d), %ld items\n", what, THREADS,
           sum->ok, sum->busy, sum->other, sum->other_code, sum->items);
    CHECK_EQ_INT(sum->other, 0);
}

/* --- a harvest: every step OK or busy; every item given once (counted, not read: an item is
 * borrowed only until the next step, which another thread may be making) --- */

static void *step_harvest(void *arg) {
    void **args = arg;
    flickr_harvest *harvest = args[0];
    struct tally *t = args[1];
    long round = 0;
    for (;;) {
        const flickr_value *item = NULL;
        int status = flickr_harvest_next(&item, harvest);
        count(t, status);
        if (status == FLICKR_OK && item == NULL) return NULL;
        if (status == FLICKR_OK) t->items++;
        /* Now and then the harvest's other functions, busy or not. */
        if (++round % 64 == 0) {
            char *text = NULL;
            count(t, flickr_harvest_report(&text, harvest));
            flickr_free(text);
            count(t, flickr_harvest_set_extra(harvest, "{\"n\":1}"));
            text = NULL;
            count(t, flickr_harvest_extra(&text, harvest));
            flickr_free(text);
            count(t, flickr_harvest_save(harvest));
        }
    }
}

static void test_harvest(flickr_context *ctx, const char *checkpoint) {
    const char *params[] = {"user_id", "me", NULL};
    const char *options[] = {"checkpoint", checkpoint, NULL};
    flickr_harvest *harvest = NULL;
    struct tally sum;
    char *report = NULL;
    CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, options), FLICKR_OK);
    hammer("harvest", step_harvest, harvest, &sum);
    /* The threads ended at the harvest's end, each step taken by exactly one of them. */
    CHECK_EQ_INT(sum.items, ALL);
    CHECK_EQ_INT(flickr_harvest_report(&report, harvest), FLICKR_OK);
    CHECK(report && strstr(report, "\"items\":3100") && strstr(report, "\"complete\":true"));
    flickr_free(report);
    flickr_harvest_free(harvest);
    unlink(checkpoint);
}

/* --- a walk --- */

static void *step_walk(void *arg) {
    void **args = arg;
    flickr_pages *pages = args[0];
    struct tally *t = args[1];
    for (;;) {
        const flickr_value *item = NULL;
        int status = flickr_pages_next(&item, pages);
        int64_t total = flickr_pages_total(pages);
        count(t, status);
        if (total < -1 || total > ALL) t->other++;
        if (status == FLICKR_OK && item == NULL) return NULL;
        if (status == FLICKR_OK) t->items++;
    }
}

static void test_walk(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", NULL};
    flickr_pages *pages = NULL;
    struct tally sum;
    CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.search", params, NULL), FLICKR_OK);
    hammer("walk", step_walk, pages, &sum);
    CHECK_EQ_INT(sum.items, ALL); /* 7 pages, each item given once */
    CHECK_EQ_INT(flickr_pages_total(pages), ALL);
    flickr_pages_free(pages);
}

/* --- an upload source: its settings changed by some threads while others upload it --- */

static const char jpeg[] = "\xff\xd8\xff\xe0 a small photo for the sandbox";

struct upload_run {
    flickr_context *ctx;
    flickr_upload_source *source;
};

static void *use_source(void *arg) {
    void **args = arg;
    struct upload_run *run = args[0];
    struct tally *t = args[1];
    int i;
    for (i = 0; i < 6; i++) {
        flickr_response *resp = NULL;
        count(t, flickr_upload_source_set_filename(run->source, i % 2 ? "a.jpg" : "b.jpeg"));
        count(t, flickr_upload_source_set_mime_type(run->source, "image/jpeg"));
        count(t, flickr_upload(&resp, run->ctx, run->source, NULL, NULL, NULL));
        if (resp) t->items++;
        flickr_response_free(resp);
    }
    return NULL;
}

static void test_upload_source(flickr_context *ctx) {
    struct upload_run run = {ctx, NULL};
    struct tally sum;
    CHECK_EQ_INT(flickr_upload_source_new_buffer(&run.source, jpeg, sizeof jpeg - 1, "photo.jpg"), FLICKR_OK);
    hammer("upload source", use_source, &run, &sum);
    CHECK_EQ_INT(sum.items, THREADS * 6); /* every upload went through */
    flickr_upload_source_free(run.source);
}

/* --- a request and a response: shared by every thread, never refused --- */

static void *use_request(void *arg) {
    void **args = arg;
    flickr_request *req = args[0];
    struct tally *t = args[1];
    int i;
    for (i = 0; i < 50; i++) {
        flickr_response *resp = NULL;
        count(t, flickr_request_wait(req));
        count(t, flickr_request_response(&resp, req));
        if (resp) {
            char *json = flickr_response_json(resp);
            char *marshal = NULL;
            size_t len = 0;
            if (json && strstr(json, "\"stat\"")) t->items++;
            flickr_free(json);
            count(t, flickr_response_marshal(&marshal, &len, resp));
            flickr_free(marshal);
            if (!flickr_value_get(flickr_response_root(resp), "stat")) t->other++;
            flickr_response_free(resp);
        }
        if (flickr_request_error(req) == NULL) t->other++;
        flickr_request_cancel(req); /* ended: no effect */
    }
    return NULL;
}

static void test_request_and_response(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", NULL};
    flickr_request *req = NULL;
    struct tally sum;
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL), FLICKR_OK);
    hammer("request and response", use_request, req, &sum);
    CHECK_EQ_INT(sum.busy, 0);
    CHECK_EQ_INT(sum.items, THREADS * 50);
    flickr_request_free(req);
}

/* --- refusals, one at a time: a step held inside the library (its server has not answered) --- */

struct held {
    flickr_harvest *harvest;
    flickr_pages *pages;
    int status;
};

static void *held_step(void *arg) {
    struct held *held = arg;
    const flickr_value *item = NULL;
    held->status = held->harvest ? flickr_harvest_next(&item, held->harvest) : flickr_pages_next(&item, held->pages);
    return NULL;
}

static void test_refused_while_a_step_runs(void) {
    int port, listener = loopback_listener(&port), conn, round;
    char url[64];
    flickr_context *ctx = NULL;
    const char *params[] = {"text", "x", "min_upload_date", "0", "max_upload_date", "10", NULL};
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, url), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_int64(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    for (round = 0; round < 2; round++) {
        struct held held = {NULL, NULL, FLICKR_OK};
        const flickr_value *item = NULL;
        char *text = NULL;
        pthread_t thread;
        if (round == 0) {
            CHECK_EQ_INT(flickr_harvest_new(&held.harvest, ctx, "flickr.photos.search", params, NULL), FLICKR_OK);
        } else {
            CHECK_EQ_INT(flickr_pages_new(&held.pages, ctx, "flickr.photos.search", params, NULL), FLICKR_OK);
        }
        CHECK(pthread_create(&thread, NULL, held_step, &held) == 0);
        conn = accept(listener, NULL, NULL); /* the step's request: the step is inside the library */
        CHECK(conn >= 0);
        if (round == 0) {
            CHECK_EQ_INT(flickr_harvest_next(&item, held.harvest), FLICKR_ESTATE);
            CHECK(item == NULL && strstr(flickr_error_last()->message, "in use by another call"));
            CHECK_EQ_INT(flickr_harvest_report(&text, held.harvest), FLICKR_ESTATE);
            CHECK(text == NULL);
            CHECK_EQ_INT(flickr_harvest_save(held.harvest), FLICKR_ESTATE);
            CHECK_EQ_INT(flickr_harvest_set_extra(held.harvest, "{}"), FLICKR_ESTATE);
            CHECK_EQ_INT(flickr_harvest_extra(&text, held.harvest), FLICKR_ESTATE);
        } else {
            CHECK_EQ_INT(flickr_pages_next(&item, held.pages), FLICKR_ESTATE);
            CHECK(item == NULL && strstr(flickr_error_last()->message, "in use by another call"));
            CHECK_EQ_INT(flickr_pages_total(held.pages), -1);
            CHECK_EQ_INT(flickr_error_last()->code, FLICKR_ESTATE);
        }
        close(conn); /* no answer: the held step fails, and the handle is free again */
        pthread_join(thread, NULL);
        CHECK(held.status != FLICKR_OK && held.status != FLICKR_ESTATE);
        if (round == 0) {
            CHECK_EQ_INT(flickr_harvest_report(&text, held.harvest), FLICKR_OK);
            flickr_free(text);
            flickr_harvest_free(held.harvest);
        } else {
            CHECK_EQ_INT(flickr_pages_total(held.pages), -1);
            flickr_pages_free(held.pages);
        }
    }
    close(listener);
    flickr_context_free(ctx);
}

int main(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    char checkpoint[] = "/tmp/flickr-concurrent-XXXXXX";
    int fd = mkstemp(checkpoint);
    CHECK(fd >= 0);
    close(fd);
    unlink(checkpoint); /* a name of our own: the harvest creates it */
    test_refused_while_a_step_runs();
    test_harvest(ctx, checkpoint);
    test_walk(ctx);
    test_upload_source(ctx);
    test_request_and_response(ctx);
    flickr_context_free(ctx);
    TEST_MAIN_END();
}
