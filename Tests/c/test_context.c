/* SPDX-License-Identifier: MIT */
/* flickr_context_*: creation, every option, validation and misuse. */
#include <flickr.h>
#include <limits.h>
#include <stdlib.h>

#include "harness.h"

static int last_code(void) { return flickr_error_last()->code; }
static const char *last_message(void) { return flickr_error_last()->message; }

static void expect_string(flickr_context *ctx, flickr_option opt, const char *expected) {
    char *value = NULL;
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, opt), FLICKR_OK);
    if (expected == NULL) {
        CHECK(value == NULL);
    } else {
        CHECK_EQ_STR(value, expected);
    }
    flickr_free(value);
}

static void expect_long(flickr_context *ctx, flickr_option opt, long expected) {
    long value = -12345;
    CHECK_EQ_INT(flickr_context_get_long(&value, ctx, opt), FLICKR_OK);
    CHECK_EQ_INT(value, expected);
}

static void test_new_and_free(void) {
    flickr_context *ctx = (flickr_context *)0x1;
    CHECK_EQ_INT(flickr_context_new(NULL, "key", "secret"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_new(&ctx, NULL, "secret"), FLICKR_EINVAL);
    CHECK(ctx == NULL);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key\xff\xfe", "secret"), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "UTF-8") != NULL);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "sec\x01ret"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", NULL), FLICKR_OK); /* unsigned calls only */
    CHECK(ctx != NULL);
    flickr_context_free(ctx);
    flickr_context_free(NULL);
}

static void test_defaults(void) {
    flickr_context *ctx = NULL;
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_REST_ENDPOINT, "https://api.flickr.com/services/rest/");
    expect_string(ctx, FLICKR_OPT_UPLOAD_ENDPOINT, "https://up.flickr.com/services/upload/");
    expect_string(ctx, FLICKR_OPT_REPLACE_ENDPOINT, "https://up.flickr.com/services/replace/");
    expect_string(ctx, FLICKR_OPT_OAUTH_ENDPOINT, "https://www.flickr.com/services/oauth/");
    expect_string(ctx, FLICKR_OPT_AUTH_ENDPOINT, "https://www.flickr.com/services/auth/");
    expect_string(ctx, FLICKR_OPT_OAUTH_TOKEN, NULL);
    expect_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, NULL);
    expect_string(ctx, FLICKR_OPT_AUTH_TOKEN, NULL);
    expect_string(ctx, FLICKR_OPT_PROXY, NULL);
    expect_string(ctx, FLICKR_OPT_CA_FILE, NULL);
    expect_string(ctx, FLICKR_OPT_USER_AGENT, "libflickr/" FLICKR_VERSION);
    expect_long(ctx, FLICKR_OPT_TIMEOUT_MS, 30000);
    expect_long(ctx, FLICKR_OPT_CONNECT_TIMEOUT_MS, 10000);
    expect_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 32L * 1024 * 1024);
    expect_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 0);
    expect_long(ctx, FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS, 60000);
    expect_long(ctx, FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS, 300000);
    expect_long(ctx, FLICKR_OPT_MAX_RETRIES, 3);
    expect_long(ctx, FLICKR_OPT_RETRY_BASE_MS, 500);
    expect_long(ctx, FLICKR_OPT_RETRY_POST, 0);
    expect_long(ctx, FLICKR_OPT_RATE_LIMIT_PER_HOUR, 0);
    expect_long(ctx, FLICKR_OPT_RATE_LIMIT_PER_SECOND, 0);
    expect_long(ctx, FLICKR_OPT_BUDGET_PER_HOUR, 0);
    expect_long(ctx, FLICKR_OPT_KEEP_BODY, 1);
    expect_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, NULL); /* resolved from XDG_CACHE_HOME or HOME when fetching */
    expect_string(ctx, FLICKR_OPT_PHOTO_ENDPOINT, "https://live.staticflickr.com");
    expect_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 10L * 1024 * 1024);
    flickr_context_free(ctx);
}

static void test_set_and_get(void) {
    flickr_context *ctx = NULL;
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);

    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, "http://127.0.0.1:8080/services/rest/"),
                 FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_REST_ENDPOINT, "http://127.0.0.1:8080/services/rest/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_ENDPOINT, "http://127.0.0.1:8080/services/oauth"),
                 FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_OAUTH_ENDPOINT, "http://127.0.0.1:8080/services/oauth/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, "72157626737672178-022bbd2f4c2f3432"),
                 FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_OAUTH_TOKEN, "72157626737672178-022bbd2f4c2f3432");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_USER_AGENT, "myapp/1.0 (caf\xc3\xa9)"), FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_USER_AGENT, "myapp/1.0 (caf\xc3\xa9)");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_PROXY, ""), FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_PROXY, "");
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 0), FLICKR_OK);
    expect_long(ctx, FLICKR_OPT_TIMEOUT_MS, 0);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 1), FLICKR_OK);
    expect_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 1);

    /* NULL restores the default. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, NULL), FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_REST_ENDPOINT, "https://api.flickr.com/services/rest/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, NULL), FLICKR_OK);
    expect_string(ctx, FLICKR_OPT_OAUTH_TOKEN, NULL);
    flickr_context_free(ctx);
}

static void test_invalid(void) {
    flickr_context *ctx = NULL;
    char *value = NULL;
    long number = 0;
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);

    CHECK_EQ_INT(flickr_context_set_string(NULL, FLICKR_OPT_USER_AGENT, "x"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(NULL, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_string(NULL, ctx, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_long(NULL, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_string(&value, NULL, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);

    /* Unknown options and options given to the setter of the other kind. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, (flickr_option)0, "x"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, (flickr_option)99, "x"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, (flickr_option)-7, 1), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "unknown option") != NULL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_TIMEOUT_MS, "5"), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "flickr_context_set_long") != NULL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_USER_AGENT, 5), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_long(&number, ctx, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
    CHECK(value == NULL);

    /* Values each option refuses; the context keeps its previous value. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, "ftp://example.com/"), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "FLICKR_OPT_REST_ENDPOINT") != NULL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_UPLOAD_ENDPOINT, "not a url"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REPLACE_ENDPOINT, "http://"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_ENDPOINT, "http://h:99999/"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_USER_AGENT, "a\r\nX-Evil: 1"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, "s3cr3t\n"), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "s3cr3t") == NULL); /* never echo a secret */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, "/nonexistent/ca.pem"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_PROXY, "\xc3\x28"), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "UTF-8") != NULL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, -1), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, LONG_MAX), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_CONNECT_TIMEOUT_MS, LONG_MIN), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 10), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 2), FLICKR_EINVAL);
    expect_string(ctx, FLICKR_OPT_REST_ENDPOINT, "https://api.flickr.com/services/rest/");
    expect_long(ctx, FLICKR_OPT_TIMEOUT_MS, 30000);
    flickr_context_free(ctx);
}

/* A freed handle is refused, not dereferenced; a double free is harmless. */
static void test_use_after_free(void) {
    flickr_context *ctx = NULL;
    long number = 0;
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);
    flickr_context_free(ctx);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_get_long(&number, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
    CHECK(strstr(last_message(), "freed") != NULL);
    flickr_context_free(ctx);
    CHECK_EQ_INT(flickr_context_set_long((flickr_context *)&number, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK_EQ_INT(last_code(), FLICKR_EINVAL);
}

int main(void) {
    test_new_and_free();
    test_defaults();
    test_set_and_get();
    test_invalid();
    test_use_after_free();
    TEST_MAIN_END();
}
