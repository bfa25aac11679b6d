/* SPDX-License-Identifier: MIT */
/* flickr_call against the sandbox over real sockets: signing schemes, encoding,
 * the value tree of real answers, and every error class. */
#include <flickr.h>

#include "harness.h"
#include "sandbox_env.h"

static const flickr_error *err(void) { return flickr_error_last(); }

/* Calls flickr.test.echo with one parameter and checks it comes back unchanged. */
static void echo_round_trip(flickr_context *ctx, flickr_http_method verb, const char *name, const char *value) {
    const char *params[] = {name, value, NULL};
    flickr_response *resp = NULL;
    char path[128];
    int rc = flickr_call(&resp, ctx, "flickr.test.echo", params, verb);
    CHECK_EQ_INT(rc, FLICKR_OK);
    if (rc != FLICKR_OK) {
        fprintf(stderr, "  echo of %s=\"%s\" failed: %s\n", name, value, err()->message);
        return;
    }
    /* An empty value is signed (the call succeeded) but not echoed back. */
    snprintf(path, sizeof path, "%s._text", name);
    if (*value != '\0') CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), path)), value);
    flickr_response_free(resp);
}

/* RFC 3986 encoding survives the sandbox's signature check for every character class,
 * with each signing scheme and both verbs. */
static void test_encoding(void) {
    static const char *values[] = {
        "plain",        "with space",  "caf\xc3\xa9 \xe2\x9c\x93",  "\xf0\x9f\x98\x80 emoji", "!",  "*", "'", "(", ")",
        ";",            ":",           "@",                         "&",                      "=",  "+", "$", ",", "/",
        "?",            "#",           "[",                         "]",                      "~",  "%", "%20 not an escape",
        "a b+c&d=e/f?g~h%i#j", "!*'();:@&=+$,/?#[]~%", "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", "",
    };
    enum sandbox_auth schemes[] = {AUTH_NONE, AUTH_OAUTH, AUTH_LEGACY};
    size_t s, i;
    for (s = 0; s < sizeof schemes / sizeof schemes[0]; s++) {
        flickr_context *ctx = sandbox_context(schemes[s]);
        for (i = 0; i < sizeof values / sizeof values[0]; i++) {
            echo_round_trip(ctx, FLICKR_GET, "title", values[i]);
            echo_round_trip(ctx, FLICKR_POST, "title", values[i]);
        }
        flickr_context_free(ctx);
    }
    {   /* OAuth in the Authorization header instead of the query/body. */
        flickr_context *ctx = sandbox_context(AUTH_OAUTH);
        CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 1), FLICKR_OK);
        echo_round_trip(ctx, FLICKR_GET, "title", "header !*'() caf\xc3\xa9");
        echo_round_trip(ctx, FLICKR_POST, "title", "header !*'() caf\xc3\xa9");
        flickr_context_free(ctx);
    }
}

static void test_signing_schemes(void) {
    flickr_response *resp = NULL;
    flickr_context *ctx;
    const flickr_value *root;

    /* OAuth: the sandbox says so in the echo, and test.login knows the user. */
    ctx = sandbox_context(AUTH_OAUTH);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_OK);
    root = flickr_response_root(resp);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(root, "api_auth_is_oauth")), "1");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(root, "oauth_signature_method")), "HMAC-SHA1");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(root, "stat")), "ok");
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "user.id")), "12037949@N00");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "user.username")), "sandbox");
    CHECK_EQ_INT(flickr_response_http_status(resp), 200);
    flickr_response_free(resp);
    flickr_context_free(ctx);

    /* Legacy api_sig. */
    ctx = sandbox_context(AUTH_LEGACY);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_POST), FLICKR_OK);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(flickr_response_root(resp), "user.id")), "12037949@N00");
    flickr_response_free(resp);
    flickr_context_free(ctx);

    /* Unsigned: login needs a user. */
    ctx = sandbox_context(AUTH_NONE);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_EAPI);
    CHECK(resp == NULL);
    CHECK_EQ_INT(err()->api_code, 99);
    flickr_context_free(ctx);
}

static void test_photo_list(void) {
    const char *params[] = {"per_page", "5", "page", "2", "extras", "url_m,description,owner_name", NULL};
    flickr_response *resp = NULL;
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    const flickr_value *photos, *photo;
    char *url;
    size_t i;
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getRecent", params, FLICKR_GET), FLICKR_OK);
    photos = flickr_value_get(flickr_response_root(resp), "photos");
    CHECK_EQ_INT(flickr_value_kind(photos), FLICKR_VALUE_OBJECT);
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photos, "page")), "2");
    CHECK_EQ_STR(flickr_value_string(flickr_value_get(photos, "perpage")), "5");
    CHECK_EQ_INT(flickr_value_kind(flickr_value_get(photos, "photo")), FLICKR_VALUE_ARRAY);
    CHECK_EQ_INT(flickr_value_count(flickr_value_get(photos, "photo")), 5);
    for (i = 0; i < 5; i++) {
        photo = flickr_value_at(flickr_value_get(photos, "photo"), i);
        CHECK(flickr_value_string(flickr_value_get(photo, "id")) != NULL);
        CHECK(flickr_value_string(flickr_value_get(photo, "url_m")) != NULL);
        url = flickr_photo_source_url(photo, "m");
        CHECK(url != NULL && strncmp(url, "https://live.staticflickr.com/", 30) == 0);
        flickr_free(url);
        url = flickr_photo_page_url(photo);
        CHECK(url != NULL && strncmp(url, "https://www.flickr.com/photos/", 30) == 0);
        flickr_free(url);
    }
    CHECK(flickr_value_get(photos, "photo.5") == NULL);
    {
        size_t len = 0;
        const char *body = flickr_response_body(resp, &len);
        char *json = flickr_response_json(resp);
        CHECK(body != NULL && len > 100 && strncmp(body, "<?xml", 5) == 0 && body[len] == '\0');
        CHECK(json != NULL && strncmp(json, "{\"stat\":\"ok\",\"photos\":{\"page\":\"2\"", 32) == 0);
        flickr_free(json);
    }
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

/* Each error class from a real exchange, with the details a caller needs. */
static void test_errors(void) {
    flickr_response *resp = (flickr_response *)0x1;
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    const char *fault[] = {"sandbox_fault", NULL, NULL};
    char url[256];

    /* Each class as the caller finally sees it; retries (and waiting out a 429's Retry-After: 3 x 7 s)
     * are test_retry.c's subject, so they are off here. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.fakeMethod", NULL, FLICKR_GET), FLICKR_EAPI);
    CHECK(resp == NULL);
    CHECK_EQ_INT(err()->api_code, 112);
    CHECK_EQ_INT(err()->http_status, 200);
    CHECK_EQ_STR(err()->message, "Method \"flickr.fakeMethod\" not found");

    {   /* Per-method code: photo not found. */
        const char *params[] = {"photo_id", "1", NULL};
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getInfo", params, FLICKR_GET), FLICKR_EAPI);
        CHECK_EQ_INT(err()->api_code, 1);
    }

    fault[1] = "http503";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_EHTTP);
    CHECK_EQ_INT(err()->http_status, 503);
    CHECK(strstr(err()->message, "503") != NULL);
    fault[1] = "http429=7";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_EHTTP);
    CHECK_EQ_INT(err()->http_status, 429);
    fault[1] = "malformed";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_EPARSE);
    CHECK(strstr(err()->message, "line") != NULL);
    fault[1] = "empty";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_EPARSE);
    fault[1] = "truncate";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_ENETWORK);
    fault[1] = "drop";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_ENETWORK);
    fault[1] = "reset";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_ENETWORK);

    /* A body past the cap. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 64 * 1024), FLICKR_OK);
    fault[1] = "huge=1000000";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_ETOOBIG);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 32L << 20), FLICKR_OK);
    fault[1] = "huge=1000000";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);

    /* Past the total time limit. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 300), FLICKR_OK);
    fault[1] = "latency=2000";
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_ETIMEOUT);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 30000), FLICKR_OK);

    /* A bad token secret: the sandbox refuses the signature like Flickr (401 oauth_problem). */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, "0000000000000000"), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_EOAUTH);
    CHECK_EQ_INT(err()->http_status, 401);
    CHECK(strstr(err()->message, "signature_invalid") != NULL);
    CHECK(strstr(err()->message, "0000000000000000") == NULL); /* never the secret */
    CHECK(strstr(err()->message, sandbox_env("FLICKR_SANDBOX_API_SECRET")) == NULL);

    /* Nothing listens on port 9 of loopback. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, "http://127.0.0.1:9/services/rest/"),
                 FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_ENETWORK);
    CHECK_EQ_INT(err()->http_status, 0);

    /* The context is still usable after all that. */
    sandbox_url(url, sizeof url, "/services/rest/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, url), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET,
                                           sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN_SECRET")), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

static void test_invalid_arguments(void) {
    flickr_response *resp = NULL;
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    const char *odd[] = {"title", NULL};
    const char *reserved[] = {"api_key", "x", NULL};
    const char *oauth[] = {"oauth_token", "x", NULL};
    const char *bad_utf8[] = {"title", "\xc3\x28", NULL};
    CHECK_EQ_INT(flickr_call(NULL, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, NULL, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, NULL, NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", NULL, (flickr_http_method)7), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", odd, FLICKR_GET), FLICKR_EINVAL);
    CHECK(strstr(err()->message, "title") != NULL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", reserved, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", oauth, FLICKR_GET), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", bad_utf8, FLICKR_GET), FLICKR_EINVAL);
    CHECK(resp == NULL);
    flickr_context_free(ctx);
}

/* flickr_call_discard: the write happens, every signing scheme is accepted, and each failure
 * reads exactly as flickr_call reports it (code, Flickr code, HTTP status, message). */
static void test_discard(void) {
    flickr_context *ctx = sandbox_context(AUTH_OAUTH);
    flickr_response *resp = NULL;
    const char *mine[] = {"user_id", "me", "per_page", "1", NULL};
    char photo_id[64] = "";
    const char *tag_params[] = {"photo_id", photo_id, "tags", "discarded-answer", NULL};
    const char *info_params[] = {"photo_id", photo_id, NULL};
    enum sandbox_auth schemes[] = {AUTH_NONE, AUTH_OAUTH, AUTH_LEGACY};
    const char *faults[] = {"http503", "http429=7", "empty", "truncate", "drop", "huge=1000000"};
    size_t i;

    /* One of the caller's own photos, to tag. */
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.search", mine, FLICKR_GET), FLICKR_OK);
    if (resp) {
        const char *id = flickr_value_string(flickr_value_get(flickr_response_root(resp), "photos.photo.0.id"));
        CHECK(id != NULL);
        snprintf(photo_id, sizeof photo_id, "%s", id ? id : "");
    }
    flickr_response_free(resp);
    resp = NULL;
    CHECK_EQ_INT(flickr_call_discard(ctx, "flickr.photos.addTags", tag_params, FLICKR_POST), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.getInfo", info_params, FLICKR_GET), FLICKR_OK);
    if (resp) CHECK(strstr(flickr_response_body(resp, NULL), "discarded-answer") != NULL);
    flickr_response_free(resp);

    for (i = 0; i < sizeof schemes / sizeof schemes[0]; i++) {
        flickr_context *other = sandbox_context(schemes[i]);
        const char *params[] = {"title", "caf\xc3\xa9 & !*'()", NULL};
        CHECK_EQ_INT(flickr_call_discard(other, "flickr.test.echo", params, FLICKR_GET), FLICKR_OK);
        CHECK_EQ_INT(flickr_call_discard(other, "flickr.test.echo", params, FLICKR_POST), FLICKR_OK);
        flickr_context_free(other);
    }

    /* Failures: compared field by field with flickr_call's for the same answer. */
    {
        const char *fake[] = {NULL};
        flickr_error expected;
        char message[512];
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.fakeMethod", fake, FLICKR_GET), FLICKR_EAPI);
        expected = *err();
        snprintf(message, sizeof message, "%s", expected.message);
        CHECK_EQ_INT(flickr_call_discard(ctx, "flickr.fakeMethod", fake, FLICKR_GET), FLICKR_EAPI);
        CHECK_EQ_INT(err()->api_code, 112);
        CHECK_EQ_INT(err()->http_status, expected.http_status);
        CHECK_EQ_STR(err()->message, message);
    }
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 64 * 1024), FLICKR_OK);
    /* Retried or not, both calls end the same way; without retries, the 429's Retry-After is not waited out. */
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    for (i = 0; i < sizeof faults / sizeof faults[0]; i++) {
        const char *fault[] = {"sandbox_fault", faults[i], NULL};
        int code = flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET);
        flickr_error expected = *err();
        char message[512];
        snprintf(message, sizeof message, "%s", expected.message);
        CHECK(code != FLICKR_OK);
        CHECK_EQ_INT(flickr_call_discard(ctx, "flickr.test.echo", fault, FLICKR_GET), code);
        CHECK_EQ_INT(err()->code, expected.code);
        CHECK_EQ_INT(err()->api_code, expected.api_code);
        CHECK_EQ_INT(err()->http_status, expected.http_status);
        CHECK_EQ_STR(err()->message, message);
    }
    /* As documented: an answer that breaks after <rsp stat="ok"> is not read, so not judged. */
    {
        const char *fault[] = {"sandbox_fault", "malformed", NULL};
        CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_EPARSE);
        CHECK_EQ_INT(flickr_call_discard(ctx, "flickr.test.echo", fault, FLICKR_GET), FLICKR_OK);
    }
    flickr_context_free(ctx);
}

int main(void) {
    test_encoding();
    test_signing_schemes();
    test_photo_list();
    test_errors();
    test_discard();
    test_invalid_arguments();
    TEST_MAIN_END();
}
