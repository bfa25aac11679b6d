/* SPDX-License-Identifier: MIT */
/* flickr_harvest_* against a sandbox seeded with 25,000 items (--seed-photos) that caps a search at
 * 4,000 results as Flickr does: every item once past the cap, the calls it takes, a checkpoint
 * continued by a new harvest (and one of another query refused), shards, the licence split and
 * its report, bad options. */
#include <flickr.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"
#include "sandbox_env.h"

#define ALL 25100 /* the 25,000 seeded items and the sandbox user's 100 default photos */

static uint64_t ids[2 * ALL];
static long n_ids;

static int by_value(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* How many distinct ids were collected, and how many of them more than once. */
static long distinct(long *repeated) {
    long i, unique = 0;
    qsort(ids, (size_t)n_ids, sizeof ids[0], by_value);
    *repeated = 0;
    for (i = 0; i < n_ids; i++) {
        if (i > 0 && ids[i] == ids[i - 1]) (*repeated)++;
        else unique++;
    }
    return unique;
}

/* Takes up to `limit` items (-1: all) of `harvest` into ids[]; the count taken, -1 on an error. */
static long take(flickr_harvest *harvest, long limit) {
    const flickr_value *item = NULL;
    long count = 0;
    while ((limit < 0 || count < limit) && flickr_harvest_next(&item, harvest) == FLICKR_OK && item != NULL) {
        const char *id = flickr_value_string(flickr_value_get(item, "id"));
        CHECK(id != NULL);
        if (id && n_ids < 2 * ALL) ids[n_ids++] = strtoull(id, NULL, 10);
        count++;
    }
    if (limit < 0 && item != NULL) {
        fprintf(stderr, "harvest stopped: %s\n", flickr_error_last()->message);
        return -1;
    }
    return count;
}

static char *report(flickr_harvest *harvest) {
    char *json = NULL;
    CHECK_EQ_INT(flickr_harvest_report(&json, harvest), FLICKR_OK);
    printf("report: %s\n", json ? json : "(none)");
    return json;
}

static long calls_of(const char *json) {
    const char *at = json ? strstr(json, "\"calls\":") : NULL;
    return at ? strtol(at + 8, NULL, 10) : -1;
}

static void test_every_item_once(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", "extras", "license", NULL};
    flickr_harvest *harvest = NULL;
    long repeated, unique, calls;
    char *json;
    n_ids = 0;
    CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, NULL), FLICKR_OK);
    CHECK_EQ_INT(take(harvest, -1), ALL);
    unique = distinct(&repeated);
    json = report(harvest);
    calls = calls_of(json);
    printf("%ld items once, %ld repeated, %ld calls (%.2f per 1,000)\n", unique, repeated, calls, 1000.0 * calls / ALL);
    CHECK_EQ_INT(unique, ALL);
    CHECK_EQ_INT(repeated, 0);
    CHECK(calls > 0 && calls <= 3 * ALL / 1000);
    CHECK(json && strstr(json, "\"complete\":true") && strstr(json, "\"matched\":25100"));
    flickr_free(json);
    flickr_harvest_free(harvest);
}

static void test_checkpoint(flickr_context *ctx, const char *dir) {
    const char *params[] = {"user_id", "me", NULL};
    const char *other[] = {"user_id", "me", "tags", "cat", NULL};
    char path[512];
    const char *options[] = {"checkpoint", path, NULL};
    flickr_harvest *first = NULL, *second = NULL, *refused = (flickr_harvest *)0x1;
    long repeated, unique;
    char *json;
    snprintf(path, sizeof path, "%s/harvest.json", dir);
    n_ids = 0;
    CHECK_EQ_INT(flickr_harvest_new(&first, ctx, "flickr.photos.search", params, options), FLICKR_OK);
    CHECK_EQ_INT(take(first, 7000), 7000);
    flickr_harvest_free(first); /* as a killed process: the checkpoint of the last page taken in full */
    CHECK(access(path, R_OK) == 0);
    CHECK_EQ_INT(flickr_harvest_new(&second, ctx, "flickr.photos.search", params, options), FLICKR_OK);
    CHECK(take(second, -1) > 0);
    unique = distinct(&repeated);
    printf("resumed: %ld items once, %ld given again (the unfinished page)\n", unique, repeated);
    CHECK_EQ_INT(unique, ALL);
    CHECK(repeated < 500);
    json = report(second);
    CHECK(json && strstr(json, "\"items\":25100") && strstr(json, "\"complete\":true"));
    flickr_free(json);
    flickr_harvest_free(second);
    CHECK_EQ_INT(flickr_harvest_new(&refused, ctx, "flickr.photos.search", other, options), FLICKR_EINVAL);
    CHECK(refused == NULL && strstr(flickr_error_last()->message, "another harvest"));
    unlink(path);
}

static void test_unfinished_slice(flickr_context *ctx) {
    /* 2008: one slice within the cap (1,469 items), nothing else pending while it is paged. */
    const char *params[] = {"user_id", "me", "min_upload_date", "1199145600", "max_upload_date", "1230768000", NULL};
    flickr_harvest *harvest = NULL;
    char *json;
    CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, NULL), FLICKR_OK);
    CHECK_EQ_INT(take(harvest, 100), 100);
    json = report(harvest); /* the slice being paged is not done */
    CHECK(json && strstr(json, "\"slices_pending\":1,") && strstr(json, "\"finished\":false"));
    flickr_free(json);
    CHECK_EQ_INT(take(harvest, -1), 1369);
    json = report(harvest);
    CHECK(json && strstr(json, "\"slices_pending\":0,") && strstr(json, "\"complete\":true"));
    flickr_free(json);
    flickr_harvest_free(harvest);
}

static void test_shards(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", NULL};
    const char *shards[][3] = {{"shard", "1/3", NULL}, {"shard", "2/3", NULL}, {"shard", "3/3", NULL}};
    long repeated, unique, taken[3];
    int k;
    n_ids = 0;
    for (k = 0; k < 3; k++) {
        flickr_harvest *harvest = NULL;
        CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, shards[k]), FLICKR_OK);
        taken[k] = take(harvest, -1);
        CHECK(taken[k] > ALL / 6);
        flickr_harvest_free(harvest);
    }
    unique = distinct(&repeated);
    printf("shards: %ld + %ld + %ld items, %ld distinct\n", taken[0], taken[1], taken[2], unique);
    CHECK_EQ_INT(unique, ALL);
    CHECK_EQ_INT(repeated, 0);
}

static void test_licence_split(flickr_context *ctx) {
    /* One slice of decades is the minimum: asked once per licence, licence 0 stays over the cap. */
    const char *params[] = {"user_id", "me", NULL};
    const char *options[] = {"min_slice", "1000000000", NULL};
    flickr_harvest *harvest = NULL;
    long repeated, unique;
    char *json;
    n_ids = 0;
    CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, options), FLICKR_OK);
    CHECK(take(harvest, -1) > 4000);
    unique = distinct(&repeated);
    json = report(harvest);
    CHECK_EQ_INT(repeated, 0);
    CHECK(unique < ALL);
    CHECK(json && strstr(json, "\"complete\":false") && strstr(json, "\"license\":0,\"total\":"));
    flickr_free(json);
    flickr_harvest_free(harvest);
}

static void test_bad_options(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", NULL};
    const char *bad[][3] = {{"shard", "3/2", NULL}, {"dates", "posted", NULL}, {"min_slice", "0", NULL},
                            {"colour", "red", NULL}, {"checkpoint", "", NULL}};
    const char *bad_params[] = {"user_id", "me", "min_upload_date", "yesterday", NULL};
    flickr_harvest *harvest = (flickr_harvest *)0x1;
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", params, bad[i]), FLICKR_EINVAL);
        CHECK(harvest == NULL);
    }
    CHECK_EQ_INT(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", bad_params, NULL), FLICKR_EINVAL);
    CHECK(strstr(flickr_error_last()->message, "unix seconds") != NULL);
}

int main(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    char dir[] = "/tmp/flickr-harvest-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    test_every_item_once(ctx);
    test_checkpoint(ctx, dir);
    test_unfinished_slice(ctx);
    test_shards(ctx);
    test_licence_split(ctx);
    test_bad_options(ctx);
    rmdir(dir);
    flickr_context_free(ctx);
    TEST_MAIN_END();
}
