/* SPDX-License-Identifier: MIT */
/* flickr_pages_* against the sandbox's 300 seeded photos: every item of every
 * page once, the end on the last and on empty pages, explicit item paths. */
#include <flickr.h>

#include "harness.h"
#include "sandbox_env.h"

/* Walks and counts items; checks ids are distinct. Returns the count, or -1 on error. */
static long walk(flickr_context *ctx, const char *method, const char *const *params, const char *item_path,
                 int64_t *total) {
    flickr_pages *pages = NULL;
    const flickr_value *item = NULL;
    long count = 0, i;
    static char ids[4096][24];
    if (flickr_pages_new(&pages, ctx, method, params, item_path) != FLICKR_OK) return -1;
    CHECK_EQ_INT(flickr_pages_total(pages), -1); /* nothing fetched yet */
    while (flickr_pages_next(&item, pages) == FLICKR_OK && item != NULL) {
        const char *id = flickr_value_string(flickr_value_get(item, "id"));
        CHECK(id != NULL);
        if (id && count < 4096) {
            for (i = 0; i < count; i++) {
                if (strcmp(ids[i], id) == 0) {
                    fprintf(stderr, "duplicate id %s\n", id);
                    CHECK(0);
                }
            }
            snprintf(ids[count], sizeof ids[count], "%s", id);
        }
        count++;
    }
    if (item != NULL) count = -1; /* stopped on an error */
    *total = flickr_pages_total(pages);
    CHECK(flickr_pages_page(pages) >= 1); /* the last page answered */
    /* After the end it stays at the end. */
    CHECK_EQ_INT(flickr_pages_next(&item, pages), FLICKR_OK);
    CHECK(item == NULL);
    flickr_pages_free(pages);
    return count;
}

int main(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    int64_t total = 0;
    const char *per_37[] = {"per_page", "37", NULL};
    const char *search[] = {"text", "a", "per_page", "25", NULL};
    const char *nothing[] = {"text", "zzzz-no-such-photo-qqqq", NULL};
    const char *from_page[] = {"per_page", "100", "page", "2", NULL};
    long count;

    count = walk(ctx, "flickr.photos.getRecent", per_37, NULL, &total);
    CHECK(total > 100);
    CHECK_EQ_INT(count, total); /* 37 per page: a short last page, all items once */

    count = walk(ctx, "flickr.photos.getRecent", NULL, "photos.photo", &total);
    CHECK_EQ_INT(count, total); /* per_page 500 by default: one page */

    count = walk(ctx, "flickr.photos.search", search, NULL, &total);
    CHECK(count > 0);
    CHECK_EQ_INT(count, total);

    count = walk(ctx, "flickr.photos.search", nothing, NULL, &total);
    CHECK_EQ_INT(count, 0);
    CHECK_EQ_INT(total, 0);

    count = walk(ctx, "flickr.photos.getRecent", from_page, NULL, &total);
    CHECK_EQ_INT(count, total - 100); /* starting at page 2 */

    {   /* Misuse and errors. */
        flickr_pages *pages = NULL;
        const flickr_value *item = NULL;
        const char *bad_page[] = {"page", "0", NULL};
        const char *huge_page[] = {"page", "9223372036854775807", NULL};
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.getRecent", bad_page, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.getRecent", huge_page, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.getRecent", NULL, "photos"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.getRecent", NULL, "photos..photo"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_new(NULL, ctx, "flickr.photos.getRecent", NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_new(&pages, NULL, "flickr.photos.getRecent", NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_next(&item, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_pages_total(NULL), -1);
        flickr_pages_free(NULL);
        /* Not a paged method: a clear parse error. */
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.test.echo", NULL, NULL), FLICKR_OK);
        CHECK_EQ_INT(flickr_pages_next(&item, pages), FLICKR_EPARSE);
        CHECK(strstr(flickr_error_last()->message, "paged") != NULL);
        flickr_pages_free(pages);
        /* An API error surfaces from next(). */
        CHECK_EQ_INT(flickr_pages_new(&pages, ctx, "flickr.photos.search", NULL, NULL), FLICKR_OK);
        CHECK_EQ_INT(flickr_pages_next(&item, pages), FLICKR_EAPI);
        CHECK_EQ_INT(flickr_error_last()->api_code, 3); /* parameterless search */
        flickr_pages_free(pages);
    }
    flickr_context_free(ctx);
    TEST_MAIN_END();
}
