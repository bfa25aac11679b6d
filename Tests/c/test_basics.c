/* SPDX-License-Identifier: MIT */
/* Version, status codes, the thread-local error record and flickr_free. */
#include <flickr.h>
#include <pthread.h>
#include <stdlib.h>

#include "harness.h"

static void test_version(void) {
    CHECK_EQ_STR(flickr_version(), FLICKR_VERSION);
    CHECK_EQ_INT(flickr_version_number(), FLICKR_VERSION_NUM);
    CHECK(FLICKR_VERSION_CHECK(0, 2, 0));
    CHECK(!FLICKR_VERSION_CHECK(99, 0, 0));
}

static void test_strerror(void) {
    int code;
    CHECK_EQ_STR(flickr_strerror(FLICKR_OK), "success");
    CHECK_EQ_STR(flickr_strerror(FLICKR_EINVAL), "invalid argument");
    CHECK_EQ_STR(flickr_strerror(FLICKR_EAPI), "Flickr API error");
    CHECK_EQ_STR(flickr_strerror(FLICKR_ETOOBIG), "response too large");
    for (code = FLICKR_ESTATE; code <= FLICKR_OK; code++) {
        const char *text = flickr_strerror(code);
        CHECK(text != NULL && strlen(text) > 0 && strcmp(text, "unknown error code") != 0);
    }
    CHECK_EQ_STR(flickr_strerror(-1000), "unknown error code");
    CHECK_EQ_STR(flickr_strerror(42), "unknown error code");
}

static void test_free(void) {
    char *copy = NULL;
    flickr_context *ctx = NULL;
    flickr_free(NULL); /* a no-op */
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_get_string(&copy, ctx, FLICKR_OPT_USER_AGENT), FLICKR_OK);
    CHECK_EQ_STR(copy, "libflickr/" FLICKR_VERSION);
    flickr_free(copy);
    flickr_context_free(ctx);
}

/* The record belongs to the thread: a failure on another thread leaves ours alone. */
static void *fail_on_other_thread(void *arg) {
    const flickr_error *err;
    (void)arg;
    flickr_context_set_long(NULL, FLICKR_OPT_TIMEOUT_MS, 1);
    err = flickr_error_last();
    return (void *)(err->code == FLICKR_EINVAL && strstr(err->message, "context") != NULL ? (void *)1 : NULL);
}

static void test_error_last(void) {
    flickr_context *ctx = NULL;
    const flickr_error *err;
    pthread_t thread;
    void *other_ok = NULL;

    err = flickr_error_last();
    CHECK(err != NULL);
    CHECK(err->message != NULL);

    CHECK_EQ_INT(flickr_context_new(&ctx, "", "secret"), FLICKR_EINVAL);
    CHECK(ctx == NULL);
    err = flickr_error_last();
    CHECK_EQ_INT(err->code, FLICKR_EINVAL);
    CHECK_EQ_INT(err->api_code, 0);
    CHECK_EQ_INT(err->http_status, 0);
    CHECK(strstr(err->message, "API key") != NULL);

    CHECK(pthread_create(&thread, NULL, fail_on_other_thread, NULL) == 0);
    CHECK(pthread_join(thread, &other_ok) == 0);
    CHECK(other_ok == (void *)1);
    CHECK(strstr(flickr_error_last()->message, "API key") != NULL);
}

int main(void) {
    test_version();
    test_strerror();
    test_free();
    test_error_last();
    TEST_MAIN_END();
}
