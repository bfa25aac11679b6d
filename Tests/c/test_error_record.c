/* SPDX-License-Identifier: MIT */
/* When an error's message cannot be copied, the thread's record (flickr_error_last) and a
 * request's (flickr_request_error) both fall back to the code's own summary, never NULL or "":
 * one ErrorRecord type fills both (issue 30; the request's copy once fell back to "").
 * The copy fails because this program's strdup, which libflickr.so binds to, is told to. */
#include <flickr.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "loopback.h"

static volatile int fail_strdup;
static volatile int strdup_failures;

char *strdup(const char *s) {
    size_t n = strlen(s) + 1;
    char *copy;
    if (fail_strdup) {
        strdup_failures++;
        return NULL;
    }
    copy = malloc(n);
    if (copy != NULL) memcpy(copy, s, n);
    return copy;
}

static void check_fallback(const flickr_error *e, int code) {
    CHECK(e != NULL);
    if (e == NULL) return;
    CHECK_EQ_INT(e->code, code);
    CHECK(e->message != NULL);
    CHECK_EQ_STR(e->message, flickr_strerror(code));
}

static void test_thread_record(void) {
    fail_strdup = 1;
    CHECK_EQ_INT(flickr_context_set_long(NULL, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    fail_strdup = 0;
    check_fallback(flickr_error_last(), FLICKR_EINVAL);
    /* A message that can be copied is the real one again. */
    CHECK_EQ_INT(flickr_context_set_long(NULL, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK(strcmp(flickr_error_last()->message, flickr_strerror(FLICKR_EINVAL)) != 0);
}

static void test_request_record(void) {
    flickr_context *ctx = NULL;
    flickr_request *req = NULL;
    char url[64];
    int rc, port, fd = loopback_listener(&port); /* never answers: the request ends at its timeout */
    snprintf(url, sizeof url, "http://127.0.0.1:%d/rest/", port);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", "secret"), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_REST_ENDPOINT, url), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, 300), FLICKR_OK);
    CHECK_EQ_INT(flickr_call_async(&req, ctx, "flickr.test.echo", NULL, FLICKR_GET, NULL, NULL), FLICKR_OK);
    fail_strdup = 1; /* the request cannot end before its timeout: its error is recorded after this */
    rc = req ? flickr_request_wait(req) : FLICKR_ERROR;
    fail_strdup = 0;
    CHECK(rc != FLICKR_OK);
    if (req != NULL) check_fallback(flickr_request_error(req), rc);
    flickr_request_free(req);
    flickr_context_free(ctx);
    close(fd);
}

int main(void) {
    test_thread_record();
    test_request_record();
    printf("%d copies refused\n", strdup_failures);
    CHECK(strdup_failures > 0);
    TEST_MAIN_END();
}
