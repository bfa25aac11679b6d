/* SPDX-License-Identifier: MIT */
/* The method catalogue (flickr/methods.h) against the sandbox: lookups and iteration, the
 * catalogue's verb (FLICKR_METHOD_VERB), a known method's missing required argument refused
 * before anything is sent (FLICKR_OPT_CHECK_ARGUMENTS), unknown methods sent as given with a log
 * line, and FLICKR_OPT_BASE_URL pointing every endpoint at one server. */
#include <stdint.h>

#include "harness.h"
#include "sandbox_env.h"

static char last_line[1024];
static int lines;

static void remember(const char *line, void *userdata) {
    (void)userdata;
    snprintf(last_line, sizeof last_line, "%s", line);
    lines++;
}

static size_t list_length(const char *const *list) {
    size_t n = 0;
    while (list[n] != NULL) n++;
    return n;
}

static void test_lookup(void) {
    const flickr_method_info *info = NULL;
    size_t count = flickr_method_count(), i;
    CHECK(count >= 223);
    CHECK_EQ_INT(flickr_method_find(&info, "flickr.photos.search"), FLICKR_OK);
    CHECK_EQ_STR(info->name, "flickr.photos.search");
    CHECK_EQ_INT(info->verb, FLICKR_GET);
    CHECK_EQ_INT(info->permission, FLICKR_PERM_NONE);
    CHECK_EQ_INT((int)list_length(info->required), 0);
    CHECK(list_length(info->optional) > 30);
    CHECK_EQ_STR(info->doc_url, "https://www.flickr.com/services/api/flickr.photos.search.html");

    CHECK_EQ_INT(flickr_method_find(&info, "flickr.photos.delete"), FLICKR_OK);
    CHECK_EQ_INT(info->verb, FLICKR_POST);
    CHECK_EQ_INT(info->permission, FLICKR_PERM_DELETE);
    CHECK_EQ_STR(info->required[0], "photo_id");
    CHECK(info->required[1] == NULL);

    CHECK_EQ_INT(flickr_method_find(&info, "flickr.photos.notAMethod"), FLICKR_ENOTFOUND);
    CHECK(info == NULL);
    CHECK(strstr(flickr_error_last()->message, "flickr.photos.notAMethod") != NULL);
    CHECK_EQ_INT(flickr_method_find(&info, "flickr.photos.searc"), FLICKR_ENOTFOUND);
    CHECK_EQ_INT(flickr_method_find(&info, ""), FLICKR_ENOTFOUND);
    CHECK_EQ_INT(flickr_method_find(&info, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_method_find(NULL, "flickr.photos.search"), FLICKR_EINVAL);

    /* Iteration: sorted, each found again by name at the same address, POST exactly for writes. */
    for (i = 0; i < count; i++) {
        const flickr_method_info *at = flickr_method_at(i), *found = NULL;
        if (at == NULL) {
            CHECK(at != NULL);
            break;
        }
        if (i > 0) CHECK(strcmp(flickr_method_at(i - 1)->name, at->name) < 0);
        CHECK_EQ_INT(flickr_method_find(&found, at->name), FLICKR_OK);
        CHECK(found == at);
        CHECK_EQ_INT(at->verb == FLICKR_POST, at->permission >= FLICKR_PERM_WRITE);
    }
    CHECK(flickr_method_at(count) == NULL);
    CHECK(flickr_method_at(SIZE_MAX) == NULL);
}

static void test_missing_argument(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    const char *no_id[] = {"extras", "tags", NULL};
    const char *with_id[] = {"photo_id", "1", NULL};
    flickr_context_set_log(ctx, remember, NULL);

    /* Refused before sending: no log line (every request that goes out logs one). */
    lines = 0;
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getInfo", no_id, FLICKR_METHOD_VERB), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK(strstr(flickr_error_last()->message, "\"photo_id\"") != NULL);
    CHECK_EQ_INT(flickr_call_discard(ctx, "flickr.photos.getInfo", NULL, FLICKR_GET), FLICKR_EINVAL);
    {
        flickr_request *req = NULL;
        CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.photos.getInfo", NULL, FLICKR_GET, NULL, NULL),
                     FLICKR_EINVAL);
        CHECK(req == NULL);
    }
    CHECK_EQ_INT(lines, 0);

    /* Present: it goes out, and Flickr's own answer comes back (photo 1 does not exist). */
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getInfo", with_id, FLICKR_METHOD_VERB), FLICKR_EAPI);
    CHECK_EQ_INT(flickr_error_last()->api_code, 1);
    CHECK_EQ_INT(lines, 1);

    /* The check off: the call goes out and the server answers for itself. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_CHECK_ARGUMENTS, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getInfo", NULL, FLICKR_GET), FLICKR_EAPI);
    CHECK_EQ_INT(lines, 2);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_CHECK_ARGUMENTS, 2), FLICKR_EINVAL);
    flickr_context_free(ctx);

    /* auth_token (legacy) and oauth_token are the library's to send: never reported missing. */
    ctx = sandbox_context(AUTH_OAUTH);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.auth.oauth.checkToken", NULL, FLICKR_METHOD_VERB), FLICKR_OK);
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

static void test_verb_and_unknown(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_response *resp = NULL;
    const char *search[] = {"per_page", "1", "user_id", "me", NULL};
    const char *echo[] = {"a", "b", NULL};
    flickr_context_set_log(ctx, remember, NULL);

    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.search", search, FLICKR_METHOD_VERB), FLICKR_OK);
    CHECK(strstr(last_line, "flickr.photos.search GET ") != NULL);
    flickr_response_free(resp);
    {
        /* A write method goes out as POST (its tags change, so the sandbox took the call). */
        const char *photo_id = NULL;
        const char *list[] = {"per_page", "1", "user_id", "me", NULL};
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.search", list, FLICKR_GET), FLICKR_OK);
        photo_id = flickr_value_string(flickr_value_get(flickr_response_root(resp), "photos.photo.0.id"));
        CHECK(photo_id != NULL);
        if (photo_id != NULL) {
            const char *tags[] = {"photo_id", photo_id, "tags", "catalogue-verb", NULL};
            flickr_response *added = NULL;
            CHECK_EQ_INT(flickr_call(&added, ctx, "flickr.photos.addTags", tags, FLICKR_METHOD_VERB), FLICKR_OK);
            CHECK(strstr(last_line, "flickr.photos.addTags POST ") != NULL);
            flickr_response_free(added);
        }
        flickr_response_free(resp);
    }

    /* Unknown: sent as given (GET), with a log line saying so before the request's own line. */
    lines = 0;
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.notInTheCatalogue", echo, FLICKR_METHOD_VERB), FLICKR_EAPI);
    CHECK_EQ_INT(flickr_error_last()->api_code, 112); /* the sandbox, like Flickr: method not found */
    CHECK_EQ_INT(lines, 2);
    CHECK(strstr(last_line, "flickr.test.notInTheCatalogue GET ") != NULL);

    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", echo, (flickr_http_method)3), FLICKR_EINVAL);
    flickr_context_free(ctx);
}

static void test_base_url(void) {
    flickr_context *ctx = NULL;
    char *value = NULL;
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_BASE_URL), FLICKR_OK);
    CHECK(value == NULL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, "http://127.0.0.1:8080//"), FLICKR_OK);
    {
        static const struct {
            flickr_option option;
            const char *expected;
        } endpoints[] = {
            {FLICKR_OPT_BASE_URL, "http://127.0.0.1:8080"},
            {FLICKR_OPT_REST_ENDPOINT, "http://127.0.0.1:8080/services/rest/"},
            {FLICKR_OPT_UPLOAD_ENDPOINT, "http://127.0.0.1:8080/services/upload/"},
            {FLICKR_OPT_REPLACE_ENDPOINT, "http://127.0.0.1:8080/services/replace/"},
            {FLICKR_OPT_OAUTH_ENDPOINT, "http://127.0.0.1:8080/services/oauth/"},
            {FLICKR_OPT_AUTH_ENDPOINT, "http://127.0.0.1:8080/services/auth/"},
            {FLICKR_OPT_PHOTO_ENDPOINT, "http://127.0.0.1:8080/photos"},
        };
        size_t i;
        for (i = 0; i < sizeof endpoints / sizeof endpoints[0]; i++) {
            CHECK_EQ_INT(flickr_context_get_string(&value, ctx, endpoints[i].option), FLICKR_OK);
            CHECK_EQ_STR(value, endpoints[i].expected);
            flickr_free(value);
        }
    }
    /* An endpoint set afterwards wins for itself; NULL restores every default. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, "http://10.0.0.1/rest/"), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_REST_ENDPOINT), FLICKR_OK);
    CHECK_EQ_STR(value, "http://10.0.0.1/rest/");
    flickr_free(value);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_REST_ENDPOINT), FLICKR_OK);
    CHECK_EQ_STR(value, "https://api.flickr.com/services/rest/");
    flickr_free(value);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_PHOTO_ENDPOINT), FLICKR_OK);
    CHECK_EQ_STR(value, "https://live.staticflickr.com");
    flickr_free(value);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, "ftp://example.com"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, "not a url"), FLICKR_EINVAL);
    flickr_context_free(ctx);
}

int main(void) {
    test_lookup();
    test_missing_argument();
    test_verb_and_unknown();
    test_base_url();
    TEST_MAIN_END();
}
