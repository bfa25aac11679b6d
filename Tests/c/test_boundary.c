/* SPDX-License-Identifier: MIT */
/* The C API boundary: every function of the headers (include/flickr/) called with NULL,
 * empty strings, invalid UTF-8, absurd numbers and freed-then-reused handles.
 * Each gets FLICKR_EINVAL (or its documented result) and never crashes.
 *
 * Each function has a BOUNDARY(name) section; check_boundary_coverage.py (a ctest
 * test of its own) fails when a FLICKR_API declaration of the headers has none, so a
 * new function cannot be added without boundary checks.
 *
 * No network: every endpoint points at 127.0.0.1:9, where nothing listens, and the
 * calls checked here are refused before sending anything. */
#include <flickr.h>

#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "harness.h"

/* Deprecated legacy functions are part of the header and get the same checks. */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

#define BOUNDARY(name) /* marks the section of `name`, for check_boundary_coverage.py */

/* Invalid UTF-8: a stray byte, a truncated sequence, an overlong "/", a surrogate, beyond U+10FFFF. */
static const char *const bad_utf8[] = {"\xff", "abc\xc3", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ok\xfe"};
#define N_BAD (sizeof bad_utf8 / sizeof bad_utf8[0])

static int last_code(void) { return flickr_error_last()->code; }

/* A failing status that matches flickr_error_last(), whose message is never NULL or empty. */
#define CHECK_FAILS(expr, expected)                                                    \
    do {                                                                               \
        int boundary_rc = (expr);                                                      \
        CHECK_EQ_INT(boundary_rc, expected);                                           \
        CHECK_EQ_INT(last_code(), expected);                                           \
        CHECK(flickr_error_last()->message != NULL && flickr_error_last()->message[0]); \
    } while (0)

/* A pointer result that must be NULL with `expected` recorded. */
#define CHECK_NULL_WITH(expr, expected)         \
    do {                                        \
        const void *boundary_p = (expr);        \
        CHECK(boundary_p == NULL);              \
        CHECK_EQ_INT(last_code(), expected);    \
    } while (0)

/* Resets the thread's record to a known non-EINVAL state, so a later check proves a fresh record. */
static void reset_error(void) {
    flickr_response *r = NULL;
    (void)flickr_response_parse(&r, "", 0); /* FLICKR_EPARSE */
}

static flickr_context *offline_context(const char *secret) {
    static const flickr_option endpoints[] = {FLICKR_OPT_REST_ENDPOINT, FLICKR_OPT_UPLOAD_ENDPOINT,
                                              FLICKR_OPT_REPLACE_ENDPOINT, FLICKR_OPT_OAUTH_ENDPOINT,
                                              FLICKR_OPT_AUTH_ENDPOINT};
    flickr_context *ctx = NULL;
    size_t i;
    if (flickr_context_new(&ctx, "key", secret) != FLICKR_OK) {
        fprintf(stderr, "flickr_context_new: %s\n", flickr_error_last()->message);
        exit(2);
    }
    for (i = 0; i < sizeof endpoints / sizeof endpoints[0]; i++)
        flickr_context_set_string(ctx, endpoints[i], "http://127.0.0.1:9/x/");
    flickr_context_set_long(ctx, FLICKR_OPT_CONNECT_TIMEOUT_MS, 2000);
    return ctx;
}

/* A context whose handle has been freed (its address is then not reused before the checks). */
static flickr_context *freed_context(void) {
    flickr_context *ctx = offline_context("secret");
    flickr_context_free(ctx);
    return ctx;
}

static const char photo_xml[] =
    "<rsp stat=\"ok\"><photos page=\"1\"><photo id=\"8\" secret=\"abc\" server=\"5\" owner=\"1@N00\" title=\"t\"/>"
    "</photos><nosecret id=\"9\" server=\"5\"/><s>text</s></rsp>";

static flickr_response *photo_response(void) {
    flickr_response *resp = NULL;
    if (flickr_response_parse(&resp, photo_xml, sizeof photo_xml - 1) != FLICKR_OK) {
        fprintf(stderr, "flickr_response_parse: %s\n", flickr_error_last()->message);
        exit(2);
    }
    return resp;
}

static int64_t read_nothing(void *buffer, size_t capacity, void *userdata) {
    (void)buffer, (void)capacity, (void)userdata;
    return 0;
}

static void test_photos_with(const flickr_value *root, const flickr_value *photo, const flickr_value *array,
                             const flickr_value *string);

/* ---- common.h, version.h ---- */

static void *fresh_thread(void *arg) {
    const flickr_error *e = flickr_error_last();
    (void)arg;
    return (void *)(intptr_t)(e != NULL && e->code == FLICKR_OK && e->message != NULL &&
                              strcmp(e->message, "no error") == 0);
}

static void test_common(void) {
    static const int codes[] = {INT_MIN, -1000, -17, -16, -1, 0, 1, 7, 1000, INT_MAX};
    size_t i;
    int code;

    BOUNDARY(flickr_version)
    CHECK_EQ_STR(flickr_version(), FLICKR_VERSION);

    BOUNDARY(flickr_shutdown_callbacks)
    /* Only the refusal here: a shutdown cannot be undone (test_shutdown has the real thing). */
    CHECK_FAILS(flickr_shutdown_callbacks(-1), FLICKR_EINVAL);
    CHECK_FAILS(flickr_shutdown_callbacks(LONG_MIN), FLICKR_EINVAL);

    BOUNDARY(flickr_version_number)
    CHECK_EQ_INT(flickr_version_number(), FLICKR_VERSION_NUM);

    BOUNDARY(flickr_strerror)
    for (i = 0; i < sizeof codes / sizeof codes[0]; i++) CHECK(flickr_strerror(codes[i]) && *flickr_strerror(codes[i]));
    for (code = FLICKR_OK; code >= FLICKR_EBUDGET; code--) CHECK(flickr_strerror(code) && *flickr_strerror(code));

    BOUNDARY(flickr_error_last)
    {   /* Never NULL; a thread that never failed reads FLICKR_OK "no error". */
        pthread_t thread;
        void *fresh = NULL;
        CHECK(flickr_error_last() != NULL && flickr_error_last()->message != NULL);
        CHECK_EQ_INT(pthread_create(&thread, NULL, fresh_thread, NULL), 0);
        pthread_join(thread, &fresh);
        CHECK(fresh != NULL);
    }

    BOUNDARY(flickr_error_retry_after_ms)
    {   /* Only records the library handed out are read; anything else is 0, unread. */
        flickr_error own = {FLICKR_EBUDGET, 0, 0, "not the library's"};
        flickr_context *bad = NULL;
        CHECK(flickr_error_retry_after_ms(NULL) == 0);
        CHECK(flickr_error_retry_after_ms(&own) == 0);
        CHECK(flickr_error_retry_after_ms((const flickr_error *)&codes[0]) == 0);
        CHECK_FAILS(flickr_context_new(&bad, "", NULL), FLICKR_EINVAL);
        CHECK(flickr_error_retry_after_ms(flickr_error_last()) == 0); /* a failure, but not FLICKR_EBUDGET */
    }

    BOUNDARY(flickr_free)
    flickr_free(NULL);
}

/* ---- context.h ---- */

static const flickr_option string_options[] = {
    FLICKR_OPT_REST_ENDPOINT, FLICKR_OPT_UPLOAD_ENDPOINT, FLICKR_OPT_REPLACE_ENDPOINT, FLICKR_OPT_OAUTH_ENDPOINT,
    FLICKR_OPT_OAUTH_TOKEN,   FLICKR_OPT_OAUTH_TOKEN_SECRET, FLICKR_OPT_AUTH_TOKEN,  FLICKR_OPT_USER_AGENT,
    FLICKR_OPT_PROXY,         FLICKR_OPT_CA_FILE,          FLICKR_OPT_AUTH_ENDPOINT, FLICKR_OPT_PHOTO_CACHE_DIR,
    FLICKR_OPT_PHOTO_ENDPOINT, FLICKR_OPT_BASE_URL};
static const flickr_option number_options[] = {
    FLICKR_OPT_TIMEOUT_MS, FLICKR_OPT_CONNECT_TIMEOUT_MS, FLICKR_OPT_MAX_RESPONSE_BYTES, FLICKR_OPT_OAUTH_IN_HEADER,
    FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS, FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS, FLICKR_OPT_MAX_RETRIES,
    FLICKR_OPT_RETRY_BASE_MS, FLICKR_OPT_RETRY_POST, FLICKR_OPT_RATE_LIMIT_PER_HOUR, FLICKR_OPT_RATE_LIMIT_PER_SECOND,
    FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, FLICKR_OPT_MAX_CONNECTIONS, FLICKR_OPT_CHECK_ARGUMENTS,
    FLICKR_OPT_BUDGET_PER_HOUR, FLICKR_OPT_KEEP_BODY};
/* Values that are no option of either kind. */
static const int unknown_options[] = {INT_MIN, -1, 0, 15, 99, 116, 1000, 65536, INT_MAX};
#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static void ignore_line(const char *line, void *userdata) { (void)line, (void)userdata; }
static int never_interrupt(void *userdata) { (void)userdata; return 0; }

static void test_context(void) {
    flickr_context *ctx = (flickr_context *)0x1, *dead, *keep;
    size_t i, j;

    BOUNDARY(flickr_context_new)
    CHECK_FAILS(flickr_context_new(NULL, "key", "secret"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_new(&ctx, NULL, "secret"), FLICKR_EINVAL);
    CHECK(ctx == NULL);
    CHECK_FAILS(flickr_context_new(&ctx, "", "secret"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_new(&ctx, "key\nwith newline", "secret"), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        ctx = (flickr_context *)0x1;
        CHECK_FAILS(flickr_context_new(&ctx, bad_utf8[i], "secret"), FLICKR_EINVAL);
        CHECK(ctx == NULL);
        CHECK_FAILS(flickr_context_new(&ctx, "key", bad_utf8[i]), FLICKR_EINVAL);
        CHECK(ctx == NULL);
    }
    /* Documented successes: no secret (unsigned calls only), empty secret. */
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", NULL), FLICKR_OK);
    flickr_context_free(ctx);
    CHECK_EQ_INT(flickr_context_new(&ctx, "key", ""), FLICKR_OK);
    flickr_context_free(ctx);
    {   /* An absurdly long key: accepted or refused, never a crash. */
        size_t n = 1 << 20;
        char *huge = malloc(n + 1);
        int rc;
        memset(huge, 'k', n);
        huge[n] = '\0';
        rc = flickr_context_new(&ctx, huge, huge);
        CHECK(rc == FLICKR_OK || rc == FLICKR_EINVAL);
        if (rc == FLICKR_OK) flickr_context_free(ctx);
        free(huge);
    }

    BOUNDARY(flickr_context_free)
    flickr_context_free(NULL);
    ctx = offline_context("secret"); /* created first, so that the freed handle's address is not reused */
    keep = offline_context("secret");
    dead = freed_context();
    flickr_context_free(dead); /* a second free of the same handle is ignored */
    CHECK_EQ_INT(flickr_context_set_long(keep, FLICKR_OPT_TIMEOUT_MS, 5), FLICKR_OK); /* others unaffected */
    flickr_context_free(keep);

    BOUNDARY(flickr_context_set_string)
    CHECK_FAILS(flickr_context_set_string(NULL, FLICKR_OPT_USER_AGENT, "ua"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_string(dead, FLICKR_OPT_USER_AGENT, "ua"), FLICKR_EINVAL);
    for (i = 0; i < COUNT(unknown_options); i++)
        CHECK_FAILS(flickr_context_set_string(ctx, (flickr_option)unknown_options[i], "x"), FLICKR_EINVAL);
    for (i = 0; i < COUNT(number_options); i++)
        CHECK_FAILS(flickr_context_set_string(ctx, number_options[i], "5"), FLICKR_EINVAL);
    for (i = 0; i < COUNT(string_options); i++) {
        char *before = NULL, *after = NULL;
        CHECK_EQ_INT(flickr_context_get_string(&before, ctx, string_options[i]), FLICKR_OK);
        for (j = 0; j < N_BAD; j++)
            CHECK_FAILS(flickr_context_set_string(ctx, string_options[i], bad_utf8[j]), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_string(ctx, string_options[i], "bad\r\nX-Injected: 1"), FLICKR_EINVAL);
        /* Refused values leave the option unchanged. */
        CHECK_EQ_INT(flickr_context_get_string(&after, ctx, string_options[i]), FLICKR_OK);
        CHECK((before == NULL && after == NULL) || (before && after && strcmp(before, after) == 0));
        flickr_free(before);
        flickr_free(after);
    }
    {   /* Endpoints must be http(s) URLs. */
        static const char *const not_urls[] = {"", "ftp://example.com/", "example.com/rest", "http://", "file:///etc/passwd",
                                               "http://exa mple.com/", "javascript:alert(1)"};
        static const flickr_option endpoints[] = {FLICKR_OPT_REST_ENDPOINT, FLICKR_OPT_UPLOAD_ENDPOINT,
                                                  FLICKR_OPT_REPLACE_ENDPOINT, FLICKR_OPT_OAUTH_ENDPOINT,
                                                  FLICKR_OPT_AUTH_ENDPOINT, FLICKR_OPT_PHOTO_ENDPOINT};
        for (i = 0; i < COUNT(endpoints); i++)
            for (j = 0; j < COUNT(not_urls); j++)
                CHECK_FAILS(flickr_context_set_string(ctx, endpoints[i], not_urls[j]), FLICKR_EINVAL);
    }
    CHECK_FAILS(flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, "/nonexistent/ca.pem"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, ""), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, "/tmp/a\nb"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 1023), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_long(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, -1), FLICKR_EINVAL);
    /* NULL restores the default. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_USER_AGENT, NULL), FLICKR_OK);

    BOUNDARY(flickr_context_set_long)
    CHECK_FAILS(flickr_context_set_long(NULL, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_long(dead, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(unknown_options); i++)
        CHECK_FAILS(flickr_context_set_long(ctx, (flickr_option)unknown_options[i], 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(string_options); i++)
        CHECK_FAILS(flickr_context_set_long(ctx, string_options[i], 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(number_options); i++) {
        long before = -7, after = -8;
        CHECK_EQ_INT(flickr_context_get_long(&before, ctx, number_options[i]), FLICKR_OK);
        CHECK_FAILS(flickr_context_set_long(ctx, number_options[i], LONG_MIN), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_long(ctx, number_options[i], -1), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_long(ctx, number_options[i], LONG_MAX), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_context_get_long(&after, ctx, number_options[i]), FLICKR_OK);
        CHECK_EQ_INT(after, before);
    }
    CHECK_FAILS(flickr_context_set_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 2), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RESPONSE_BYTES, 1023), FLICKR_EINVAL);

    BOUNDARY(flickr_context_set_int64)
    CHECK_FAILS(flickr_context_set_int64(NULL, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_int64(dead, FLICKR_OPT_TIMEOUT_MS, 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(unknown_options); i++)
        CHECK_FAILS(flickr_context_set_int64(ctx, (flickr_option)unknown_options[i], 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(string_options); i++)
        CHECK_FAILS(flickr_context_set_int64(ctx, string_options[i], 1), FLICKR_EINVAL);
    for (i = 0; i < COUNT(number_options); i++) {
        int64_t before = -7, after = -8;
        CHECK_EQ_INT(flickr_context_get_int64(&before, ctx, number_options[i]), FLICKR_OK);
        CHECK_FAILS(flickr_context_set_int64(ctx, number_options[i], INT64_MIN), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_int64(ctx, number_options[i], -1), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_int64(ctx, number_options[i], INT64_MAX), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_context_get_int64(&after, ctx, number_options[i]), FLICKR_OK);
        CHECK(after == before);
    }
    /* The byte bounds' full range, whatever the width of long: 2^40 in, 2^40 out; one more refused. */
    {
        int64_t value = 0;
        CHECK_EQ_INT(flickr_context_set_int64(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, (int64_t)1 << 40), FLICKR_OK);
        CHECK_EQ_INT(flickr_context_get_int64(&value, ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES), FLICKR_OK);
        CHECK(value == (int64_t)1 << 40);
        CHECK_FAILS(flickr_context_set_int64(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, ((int64_t)1 << 40) + 1),
                    FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_set_int64(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 1023), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_context_get_int64(&value, ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES), FLICKR_OK);
        CHECK(value == (int64_t)1 << 40);
        if (sizeof(long) < 8) { /* a 32-bit long cannot hold it: refused, not cut short */
            long narrow = -7;
            CHECK_FAILS(flickr_context_get_long(&narrow, ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES), FLICKR_EINVAL);
            CHECK_EQ_INT(narrow, -7);
        } else {
            long wide = 0;
            CHECK_EQ_INT(flickr_context_get_long(&wide, ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES), FLICKR_OK);
            CHECK(wide == (long)((int64_t)1 << 40));
        }
        CHECK_EQ_INT(flickr_context_set_int64(ctx, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, 10485760), FLICKR_OK);
    }

    BOUNDARY(flickr_context_set_log)
    CHECK_FAILS(flickr_context_set_log(NULL, ignore_line, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_log(dead, ignore_line, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_log(ctx, ignore_line, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_log(ctx, NULL, NULL), FLICKR_OK); /* NULL stops logging */
    CHECK_EQ_INT(flickr_context_set_log(ctx, NULL, NULL), FLICKR_OK);

    BOUNDARY(flickr_context_set_interrupt)
    CHECK_FAILS(flickr_context_set_interrupt(NULL, never_interrupt, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_context_set_interrupt(dead, never_interrupt, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_context_set_interrupt(ctx, never_interrupt, NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_interrupt(ctx, NULL, NULL), FLICKR_OK); /* NULL: never asked */
    CHECK_EQ_INT(flickr_context_set_interrupt(ctx, NULL, NULL), FLICKR_OK);

    BOUNDARY(flickr_context_get_string)
    {
        char *value = (char *)0x1;
        CHECK_FAILS(flickr_context_get_string(NULL, ctx, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_string(&value, NULL, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
        CHECK(value == NULL);
        CHECK_FAILS(flickr_context_get_string(&value, dead, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_string(&value, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        for (i = 0; i < COUNT(unknown_options); i++)
            CHECK_FAILS(flickr_context_get_string(&value, ctx, (flickr_option)unknown_options[i]), FLICKR_EINVAL);
    }

    BOUNDARY(flickr_context_get_long)
    {
        long value = 0;
        CHECK_FAILS(flickr_context_get_long(NULL, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_long(&value, NULL, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_long(&value, dead, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_long(&value, ctx, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
        for (i = 0; i < COUNT(unknown_options); i++)
            CHECK_FAILS(flickr_context_get_long(&value, ctx, (flickr_option)unknown_options[i]), FLICKR_EINVAL);
    }

    BOUNDARY(flickr_context_get_int64)
    {
        int64_t value = 0;
        CHECK_FAILS(flickr_context_get_int64(NULL, ctx, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_int64(&value, NULL, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_int64(&value, dead, FLICKR_OPT_TIMEOUT_MS), FLICKR_EINVAL);
        CHECK_FAILS(flickr_context_get_int64(&value, ctx, FLICKR_OPT_USER_AGENT), FLICKR_EINVAL);
        for (i = 0; i < COUNT(unknown_options); i++)
            CHECK_FAILS(flickr_context_get_int64(&value, ctx, (flickr_option)unknown_options[i]), FLICKR_EINVAL);
    }
    flickr_context_free(ctx);
}

/* ---- client.h ---- */

/* params arrays that are refused before anything is sent. */
static void check_bad_params(int (*call)(const char *const *params, void *arg), void *arg) {
    const char *odd[] = {"title", NULL, NULL};
    const char *reserved[] = {"api_key", "other", NULL};
    const char *reserved2[] = {"oauth_token", "x", NULL};
    const char *bad_key[] = {NULL, "v", NULL};
    const char *bad_value[] = {"title", NULL, NULL};
    size_t i;
    CHECK_FAILS(call(odd, arg), FLICKR_EINVAL);
    CHECK_FAILS(call(reserved, arg), FLICKR_EINVAL);
    CHECK_FAILS(call(reserved2, arg), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        bad_key[0] = bad_utf8[i];
        bad_value[1] = bad_utf8[i];
        CHECK_FAILS(call(bad_key, arg), FLICKR_EINVAL);
        CHECK_FAILS(call(bad_value, arg), FLICKR_EINVAL);
    }
}

static int call_with_params(const char *const *params, void *ctx) {
    flickr_response *resp = (flickr_response *)0x1;
    int rc = flickr_call(&resp, ctx, "flickr.test.echo", params, FLICKR_GET);
    CHECK(resp == NULL);
    return rc;
}

static int call_discard_with_params(const char *const *params, void *ctx) {
    return flickr_call_discard(ctx, "flickr.test.echo", params, FLICKR_POST);
}

static int call_async_with_params(const char *const *params, void *ctx) {
    flickr_request *req = (flickr_request *)0x1;
    int rc = flickr_call_async(&req, ctx, "flickr.test.echo", params, FLICKR_GET, NULL, NULL);
    CHECK(req == NULL);
    return rc;
}

static void never_called(flickr_request *req, int status, const flickr_response *resp, void *userdata) {
    (void)req, (void)status, (void)resp;
    ++*(int *)userdata;
}

static void test_client(void) {
    flickr_context *ctx = offline_context("secret"), *dead = freed_context();
    flickr_response *resp = (flickr_response *)0x1;
    flickr_request *req = (flickr_request *)0x1, *finished = NULL;
    int calls = 0;
    size_t i;

    BOUNDARY(flickr_call)
    CHECK_FAILS(flickr_call(NULL, ctx, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, NULL, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_FAILS(flickr_call(&resp, dead, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, NULL, NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, "", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, "flickr.test.echo\r\nHost: evil", NULL, FLICKR_GET), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_call(&resp, ctx, bad_utf8[i], NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, "flickr.test.echo", NULL, (flickr_http_method)3), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, "flickr.test.echo", NULL, (flickr_http_method)-1), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call(&resp, ctx, "flickr.test.echo", NULL, (flickr_http_method)INT_MAX), FLICKR_EINVAL);
    check_bad_params(call_with_params, ctx);

    BOUNDARY(flickr_call_discard)
    CHECK_FAILS(flickr_call_discard(NULL, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_discard(dead, "flickr.test.echo", NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_discard(ctx, NULL, NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_discard(ctx, "", NULL, FLICKR_POST), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_call_discard(ctx, bad_utf8[i], NULL, FLICKR_GET), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_discard(ctx, "flickr.test.echo", NULL, (flickr_http_method)3), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_discard(ctx, "flickr.test.echo", NULL, (flickr_http_method)-1), FLICKR_EINVAL);
    check_bad_params(call_discard_with_params, ctx);

    BOUNDARY(flickr_call_async)
    CHECK_FAILS(flickr_call_async(NULL, ctx, "flickr.test.echo", NULL, FLICKR_GET, never_called, &calls), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_async(&req, NULL, "flickr.test.echo", NULL, FLICKR_GET, never_called, &calls), FLICKR_EINVAL);
    CHECK(req == NULL);
    CHECK_FAILS(flickr_call_async(&req, dead, "flickr.test.echo", NULL, FLICKR_GET, never_called, &calls), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_async(&req, ctx, NULL, NULL, FLICKR_GET, never_called, &calls), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++)
        CHECK_FAILS(flickr_call_async(&req, ctx, bad_utf8[i], NULL, FLICKR_GET, never_called, &calls), FLICKR_EINVAL);
    CHECK_FAILS(flickr_call_async(&req, ctx, "flickr.test.echo", NULL, (flickr_http_method)7, never_called, &calls),
                FLICKR_EINVAL);
    check_bad_params(call_async_with_params, ctx);
    CHECK_EQ_INT(calls, 0); /* done is never called for a request that was refused */

    /* A real request that ends (nothing listens on port 9), then is freed: the freed-then-reused patterns. */
    CHECK_EQ_INT(flickr_call_async(&finished, ctx, "flickr.test.echo", NULL, FLICKR_GET, NULL, NULL), FLICKR_OK);
    CHECK(finished != NULL);

    BOUNDARY(flickr_request_wait)
    CHECK_EQ_INT(flickr_request_wait(finished), FLICKR_ENETWORK);
    CHECK_FAILS(flickr_request_wait(NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_request_response)
    CHECK_FAILS(flickr_request_response(NULL, finished), FLICKR_EINVAL);
    resp = (flickr_response *)0x1;
    CHECK_FAILS(flickr_request_response(&resp, NULL), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_FAILS(flickr_request_response(&resp, finished), FLICKR_ENETWORK); /* the request's own error */

    BOUNDARY(flickr_request_error)
    CHECK(flickr_request_error(finished) != NULL && flickr_request_error(finished)->code == FLICKR_ENETWORK);
    reset_error();
    CHECK_NULL_WITH(flickr_request_error(NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_request_free)
    flickr_request_free(NULL);
    flickr_request_free(finished);
    flickr_request_free(finished); /* a second free is ignored */

    BOUNDARY(flickr_request_cancel)
    flickr_request_cancel(NULL);
    flickr_request_cancel(finished);

    /* Every request function refuses the freed request. */
    CHECK_FAILS(flickr_request_wait(finished), FLICKR_EINVAL);
    CHECK_FAILS(flickr_request_response(&resp, finished), FLICKR_EINVAL);
    reset_error();
    CHECK_NULL_WITH(flickr_request_error(finished), FLICKR_EINVAL);

    flickr_context_free(ctx);
}

/* Page walks (flickr_pages_*). */
static void test_methods(void) {
    const flickr_method_info *info = (const flickr_method_info *)0x1;
    size_t i;

    BOUNDARY(flickr_method_find)
    CHECK_FAILS(flickr_method_find(NULL, "flickr.test.echo"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_method_find(&info, NULL), FLICKR_EINVAL);
    CHECK(info == NULL);
    CHECK_FAILS(flickr_method_find(&info, ""), FLICKR_ENOTFOUND);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_method_find(&info, bad_utf8[i]), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_method_find(&info, "flickr.test.echo"), FLICKR_OK);

    BOUNDARY(flickr_method_count)
    CHECK(flickr_method_count() > 0);

    BOUNDARY(flickr_method_at)
    CHECK(flickr_method_at(0) != NULL);
    CHECK(flickr_method_at(flickr_method_count()) == NULL);
    CHECK(flickr_method_at((size_t)-1) == NULL);
    CHECK(flickr_method_at((size_t)1 << 63) == NULL);
}

static void test_pages(void) {
    flickr_context *ctx = offline_context("secret"), *dead = freed_context();
    flickr_pages *pages = (flickr_pages *)0x1, *walk = NULL;
    const flickr_value *item = (const flickr_value *)0x1;
    const char *odd[] = {"per_page", NULL, NULL};
    size_t i;

    BOUNDARY(flickr_pages_new)
    CHECK_FAILS(flickr_pages_new(NULL, ctx, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_pages_new(&pages, NULL, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK(pages == NULL);
    CHECK_FAILS(flickr_pages_new(&pages, dead, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_pages_new(&pages, ctx, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_pages_new(&pages, ctx, "flickr.photos.search", odd, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        CHECK_FAILS(flickr_pages_new(&pages, ctx, bad_utf8[i], NULL, NULL), FLICKR_EINVAL);
        CHECK_FAILS(flickr_pages_new(&pages, ctx, "flickr.photos.search", NULL, bad_utf8[i]), FLICKR_EINVAL);
    }
    CHECK(pages == NULL);
    CHECK_EQ_INT(flickr_pages_new(&walk, ctx, "flickr.photos.search", NULL, "photos.photo"), FLICKR_OK);

    BOUNDARY(flickr_pages_total)
    CHECK_EQ_INT(flickr_pages_total(NULL), -1);
    CHECK_EQ_INT(flickr_pages_total(walk), -1); /* before the first page */

    BOUNDARY(flickr_pages_page)
    CHECK_EQ_INT(flickr_pages_page(NULL), -1);
    CHECK_EQ_INT(flickr_pages_page(walk), 0); /* before the first answer */

    BOUNDARY(flickr_pages_next)
    CHECK_FAILS(flickr_pages_next(NULL, walk), FLICKR_EINVAL);
    CHECK_FAILS(flickr_pages_next(&item, NULL), FLICKR_EINVAL);
    CHECK(item == NULL);
    CHECK_FAILS(flickr_pages_next(&item, walk), FLICKR_ENETWORK); /* nothing listens on port 9 */

    BOUNDARY(flickr_pages_free)
    flickr_pages_free(NULL);
    flickr_pages_free(walk);
    flickr_pages_free(walk); /* a second free is ignored */
    CHECK_FAILS(flickr_pages_next(&item, walk), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_pages_total(walk), -1);
    CHECK_EQ_INT(flickr_pages_page(walk), -1);
    flickr_context_free(ctx);
}

/* Harvests (flickr_harvest_*). */
static void test_harvest(void) {
    flickr_context *ctx = offline_context("secret"), *dead = freed_context();
    flickr_harvest *harvest = (flickr_harvest *)0x1, *live = NULL;
    const flickr_value *item = (const flickr_value *)0x1;
    const char *odd[] = {"shard", NULL, NULL};
    const char *unknown[] = {"colour", "red", NULL};
    const char *directory[] = {"checkpoint", "/", NULL};
    char *json = (char *)0x1;
    size_t i;

    BOUNDARY(flickr_harvest_new)
    CHECK_FAILS(flickr_harvest_new(NULL, ctx, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_new(&harvest, NULL, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK(harvest == NULL);
    CHECK_FAILS(flickr_harvest_new(&harvest, dead, "flickr.photos.search", NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_new(&harvest, ctx, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", NULL, odd), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", NULL, unknown), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", NULL, directory), FLICKR_EIO);
    for (i = 0; i < N_BAD; i++) {
        const char *bad_option[] = {"checkpoint", bad_utf8[i], NULL};
        CHECK_FAILS(flickr_harvest_new(&harvest, ctx, bad_utf8[i], NULL, NULL), FLICKR_EINVAL);
        CHECK_FAILS(flickr_harvest_new(&harvest, ctx, "flickr.photos.search", NULL, bad_option), FLICKR_EINVAL);
    }
    CHECK(harvest == NULL);
    CHECK_EQ_INT(flickr_harvest_new(&live, ctx, "flickr.photos.search", NULL, NULL), FLICKR_OK);

    BOUNDARY(flickr_harvest_next)
    CHECK_FAILS(flickr_harvest_next(NULL, live), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_next(&item, NULL), FLICKR_EINVAL);
    CHECK(item == NULL);
    CHECK_FAILS(flickr_harvest_next(&item, live), FLICKR_ENETWORK); /* nothing listens on port 9 */

    BOUNDARY(flickr_harvest_report)
    CHECK_FAILS(flickr_harvest_report(NULL, live), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_report(&json, NULL), FLICKR_EINVAL);
    CHECK(json == NULL);
    CHECK_EQ_INT(flickr_harvest_report(&json, live), FLICKR_OK);
    CHECK(json != NULL && strstr(json, "\"items\":0") != NULL);
    flickr_free(json);

    BOUNDARY(flickr_harvest_save)
    CHECK_FAILS(flickr_harvest_save(NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_harvest_save(live), FLICKR_OK); /* no checkpoint option: nothing to write */

    BOUNDARY(flickr_harvest_set_extra)
    CHECK_FAILS(flickr_harvest_set_extra(NULL, "{}"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_set_extra(live, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_set_extra(live, "[1]"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_set_extra(live, "{\"a\":1.5}"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_set_extra(live, "{\"a\":"), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_harvest_set_extra(live, bad_utf8[i]), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_harvest_set_extra(live, "{\"output_bytes\": 12, \"s\": \"\\u00e9\"}"), FLICKR_OK);

    BOUNDARY(flickr_harvest_extra)
    json = (char *)0x1;
    CHECK_FAILS(flickr_harvest_extra(NULL, live), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_extra(&json, NULL), FLICKR_EINVAL);
    CHECK(json == NULL);
    CHECK_EQ_INT(flickr_harvest_extra(&json, live), FLICKR_OK);
    CHECK_EQ_STR(json, "{\"output_bytes\":12,\"s\":\"\u00e9\"}");
    flickr_free(json);

    BOUNDARY(flickr_harvest_free)
    flickr_harvest_free(NULL);
    flickr_harvest_free(live);
    flickr_harvest_free(live); /* a second free is ignored */
    CHECK_FAILS(flickr_harvest_next(&item, live), FLICKR_EINVAL);
    CHECK_FAILS(flickr_harvest_save(live), FLICKR_EINVAL);
    flickr_context_free(ctx);
}

/* ---- response.h ---- */

static void test_response(void) {
    flickr_response *resp = (flickr_response *)0x1, *dead;
    const flickr_value *root, *photos, *photo, *text;
    size_t len = 99;
    size_t i;

    BOUNDARY(flickr_response_parse)
    CHECK_FAILS(flickr_response_parse(NULL, "<rsp/>", 6), FLICKR_EINVAL);
    CHECK_FAILS(flickr_response_parse(&resp, NULL, 6), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_FAILS(flickr_response_parse(&resp, NULL, 0), FLICKR_EPARSE); /* allowed, and empty */
    CHECK_FAILS(flickr_response_parse(&resp, "<rsp/>", 0), FLICKR_EPARSE);
    CHECK_FAILS(flickr_response_parse(&resp, "<rsp/>", SIZE_MAX), FLICKR_EINVAL);
    CHECK_FAILS(flickr_response_parse(&resp, "<rsp/>", (size_t)PTRDIFF_MAX + 1), FLICKR_EINVAL);
    CHECK_FAILS(flickr_response_parse(&resp, "<rsp>\0</rsp>", 13), FLICKR_EPARSE); /* embedded NUL */
    for (i = 0; i < N_BAD; i++) {
        char doc[64];
        int n = snprintf(doc, sizeof doc, "<rsp a=\"%s\">%s</rsp>", bad_utf8[i], bad_utf8[i]);
        CHECK_FAILS(flickr_response_parse(&resp, doc, (size_t)n), FLICKR_EPARSE);
    }
    resp = photo_response();
    root = flickr_response_root(resp);
    photos = flickr_value_get(root, "photos.photo");
    photo = flickr_value_get(root, "photos.photo.0");
    text = flickr_value_get(root, "s._text");
    CHECK(root && photos && photo && text);

    BOUNDARY(flickr_response_root)
    reset_error();
    CHECK_NULL_WITH(flickr_response_root(NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_response_json)
    CHECK(flickr_response_json(NULL) == NULL);

    BOUNDARY(flickr_response_marshal)
    {
        char *bytes = (char *)0x1;
        size_t n = 99;
        CHECK_FAILS(flickr_response_marshal(NULL, &n, resp), FLICKR_EINVAL);
        CHECK_FAILS(flickr_response_marshal(&bytes, NULL, resp), FLICKR_EINVAL);
        CHECK(bytes == NULL); /* cleared before the check of out_len */
        CHECK_FAILS(flickr_response_marshal(&bytes, &n, NULL), FLICKR_EINVAL);
        CHECK(bytes == NULL && n == 0);
        CHECK_EQ_INT(flickr_response_marshal(&bytes, &n, resp), FLICKR_OK);
        CHECK(bytes != NULL && n > 2 && bytes[0] == '{' && bytes[n - 1] == '0' && bytes[n] == '\0');
        flickr_free(bytes);
    }

    BOUNDARY(flickr_response_body)
    CHECK(flickr_response_body(NULL, &len) == NULL);
    CHECK_EQ_INT(len, 0);
    CHECK(flickr_response_body(NULL, NULL) == NULL);
    CHECK(flickr_response_body(resp, NULL) != NULL);

    BOUNDARY(flickr_response_http_status)
    CHECK_EQ_INT(flickr_response_http_status(NULL), 0);
    CHECK_EQ_INT(flickr_response_http_status(resp), 0);

    BOUNDARY(flickr_value_kind)
    CHECK_EQ_INT(flickr_value_kind(NULL), FLICKR_VALUE_NONE);

    BOUNDARY(flickr_value_get)
    {
        size_t n = 200000, k;
        char *long_path = malloc(n + 1);
        CHECK(flickr_value_get(NULL, "photos") == NULL);
        CHECK(flickr_value_get(root, NULL) == NULL);
        CHECK(flickr_value_get(root, "") == root);
        for (i = 0; i < N_BAD; i++) CHECK(flickr_value_get(root, bad_utf8[i]) == NULL);
        CHECK(flickr_value_get(root, ".") == NULL);
        CHECK(flickr_value_get(root, "photos..photo") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.-1") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.+0") == NULL || flickr_value_get(root, "photos.photo.+0") == photo);
        CHECK(flickr_value_get(root, "photos.photo.1") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.18446744073709551616") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.99999999999999999999999999999") == NULL);
        CHECK(flickr_value_get(root, "photos.photo.0x0") == NULL);
        CHECK(flickr_value_get(root, "s._text._text") == NULL); /* a segment applied to a string */
        for (k = 0; k < n; k++) long_path[k] = (k % 2) ? '.' : 'a';
        long_path[n] = '\0';
        CHECK(flickr_value_get(root, long_path) == NULL);
        memset(long_path, '.', n);
        CHECK(flickr_value_get(root, long_path) == NULL);
        free(long_path);
    }

    BOUNDARY(flickr_value_string)
    CHECK(flickr_value_string(NULL) == NULL);
    CHECK(flickr_value_string(photos) == NULL);

    BOUNDARY(flickr_value_count)
    CHECK_EQ_INT(flickr_value_count(NULL), 0);
    CHECK_EQ_INT(flickr_value_count(text), 0);

    BOUNDARY(flickr_value_at)
    CHECK(flickr_value_at(NULL, 0) == NULL);
    CHECK(flickr_value_at(root, SIZE_MAX) == NULL);
    CHECK(flickr_value_at(root, (size_t)PTRDIFF_MAX) == NULL);
    CHECK(flickr_value_at(photos, 1) == NULL);
    CHECK(flickr_value_at(text, 0) == NULL);

    BOUNDARY(flickr_value_key_at)
    CHECK(flickr_value_key_at(NULL, 0) == NULL);
    CHECK(flickr_value_key_at(root, SIZE_MAX) == NULL);
    CHECK(flickr_value_key_at(root, (size_t)PTRDIFF_MAX + 1) == NULL);
    CHECK(flickr_value_key_at(photos, 0) == NULL); /* arrays have no keys */
    CHECK(flickr_value_key_at(text, 0) == NULL);

    BOUNDARY(flickr_value_json)
    CHECK(flickr_value_json(NULL) == NULL);

    BOUNDARY(flickr_value_marshal)
    {
        char *bytes = (char *)0x1;
        size_t n = 99;
        CHECK_FAILS(flickr_value_marshal(&bytes, &n, NULL), FLICKR_EINVAL);
        CHECK(bytes == NULL && n == 0);
        CHECK_FAILS(flickr_value_marshal(NULL, &n, text), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_value_marshal(&bytes, &n, text), FLICKR_OK); /* "text": a (ASCII), length 4, the bytes */
        CHECK(n == 9 && memcmp(bytes, "a\4\0\0\0text", 9) == 0);
        flickr_free(bytes);
    }

    test_photos_with(root, photo, photos, text);

    BOUNDARY(flickr_response_free)
    flickr_response_free(NULL);
    dead = resp;
    flickr_response_free(resp);
    flickr_response_free(dead); /* a second free is ignored */
    /* Every response function refuses the freed response. */
    reset_error();
    CHECK_NULL_WITH(flickr_response_root(dead), FLICKR_EINVAL);
    CHECK(flickr_response_json(dead) == NULL);
    {
        char *bytes = (char *)0x1;
        size_t n = 99;
        CHECK_FAILS(flickr_response_marshal(&bytes, &n, dead), FLICKR_EINVAL);
        CHECK(bytes == NULL && n == 0);
    }
    CHECK(flickr_response_body(dead, &len) == NULL && len == 0);
    CHECK_EQ_INT(flickr_response_http_status(dead), 0);
}

/* ---- photos.h ---- */

static void test_photos_with(const flickr_value *root, const flickr_value *photo, const flickr_value *array,
                             const flickr_value *string) {
    static const char *const bad_sizes[] = {"", "x", "ss", "S", "3K", "7k", "o\n", "s ", "\xc3\xa9"};
    const flickr_value *nosecret = flickr_value_get(root, "nosecret");
    char *url;
    size_t i;

    BOUNDARY(flickr_photo_source_url)
    CHECK_NULL_WITH(flickr_photo_source_url(NULL, "s"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_source_url(photo, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_NULL_WITH(flickr_photo_source_url(photo, bad_utf8[i]), FLICKR_EINVAL);
    for (i = 1; i < COUNT(bad_sizes); i++) CHECK_NULL_WITH(flickr_photo_source_url(photo, bad_sizes[i]), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_source_url(array, "s"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_source_url(string, "s"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_source_url(nosecret, "s"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_source_url(photo, "k"), FLICKR_EINVAL); /* needs url_k */
    CHECK_NULL_WITH(flickr_photo_source_url(photo, "o"), FLICKR_EINVAL); /* needs originalsecret */
    url = flickr_photo_source_url(photo, "");
    CHECK(url != NULL);
    flickr_free(url);

    BOUNDARY(flickr_photo_image_url)
    {
        char *url = (char *)0x1;
        flickr_context *ctx = NULL;
        CHECK_EQ_INT(flickr_context_new(&ctx, "key", NULL), FLICKR_OK);
        CHECK_FAILS(flickr_photo_image_url(NULL, ctx, photo, "b"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_photo_image_url(&url, NULL, photo, "b"), FLICKR_EINVAL);
        CHECK(url == NULL);
        CHECK_FAILS(flickr_photo_image_url(&url, ctx, NULL, "b"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_photo_image_url(&url, ctx, photo, NULL), FLICKR_EINVAL);
        CHECK_FAILS(flickr_photo_image_url(&url, ctx, array, "b"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_photo_image_url(&url, ctx, photo, "zz"), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_photo_image_url(&url, ctx, photo, bad_utf8[i]), FLICKR_EINVAL);
        flickr_context_free(ctx);
    }

    BOUNDARY(flickr_url_parse)
    {
        flickr_response *parsed = (flickr_response *)0x1;
        static const char *refused[] = {"", " ", "https://", "ftp://www.flickr.com/photos/a/1", "https://example.com/photos/a/1",
                                        "https://flic.kr/p/", "https://flic.kr/p/0OIl", "https://flic.kr/p/zzzzzzzzzzzzzzzz",
                                        "https://www.flickr.com/", "https://www.flickr.com/photos/a%/1",
                                        "https://www.flickr.com/photos/%00/1", "https://live.staticflickr.com/1/x.jpg"};
        CHECK_FAILS(flickr_url_parse(NULL, "https://flic.kr/p/2oJ4UTv"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_url_parse(&parsed, NULL), FLICKR_EINVAL);
        CHECK(parsed == NULL);
        for (i = 0; i < COUNT(refused); i++) CHECK_FAILS(flickr_url_parse(&parsed, refused[i]), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_url_parse(&parsed, bad_utf8[i]), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_url_parse(&parsed, "https://flic.kr/p/2oJ4UTv"), FLICKR_OK);
        flickr_response_free(parsed);
    }

    BOUNDARY(flickr_photo_page_url)
    CHECK_NULL_WITH(flickr_photo_page_url(NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_page_url(array), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_page_url(string), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_photo_page_url(nosecret), FLICKR_EINVAL); /* no owner */

    {
        char dir[] = "/tmp/flickr-boundary-XXXXXX";
        flickr_context *ctx = offline_context("secret"), *dead = freed_context();
        flickr_request *req = (flickr_request *)0x1;
        char *path = (char *)0x1;
        CHECK(mkdtemp(dir) != NULL);
        CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_CACHE_DIR, dir), FLICKR_OK);
        CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_PHOTO_ENDPOINT, "http://127.0.0.1:9/photos"), FLICKR_OK);
        CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_MAX_RETRIES, 0), FLICKR_OK);

        BOUNDARY(flickr_photo_fetch)
        CHECK_EQ_INT(flickr_photo_fetch(NULL, ctx, photo, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, NULL, photo, "s"), FLICKR_EINVAL);
        CHECK(path == NULL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, dead, photo, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, NULL, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo, NULL), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++) CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo, bad_utf8[i]), FLICKR_EINVAL);
        for (i = 1; i < COUNT(bad_sizes); i++) CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo, bad_sizes[i]), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, array, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, string, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, nosecret, "s"), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo, "k"), FLICKR_EINVAL); /* needs url_k */
        CHECK(path == NULL);
        /* Valid arguments, nothing listening: a network error, and nothing left in the cache. */
        CHECK_EQ_INT(flickr_photo_fetch(&path, ctx, photo, "s"), FLICKR_ENETWORK);
        CHECK(path == NULL);

        BOUNDARY(flickr_photo_fetch_async)
        CHECK_EQ_INT(flickr_photo_fetch_async(NULL, ctx, photo, "s", NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, NULL, photo, "s", NULL, NULL), FLICKR_EINVAL);
        CHECK(req == NULL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, dead, photo, "s", NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, NULL, "s", NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo, NULL, NULL, NULL), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++)
            CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo, bad_utf8[i], NULL, NULL), FLICKR_EINVAL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, nosecret, "s", NULL, NULL), FLICKR_EINVAL);
        CHECK(req == NULL);
        CHECK_EQ_INT(flickr_photo_fetch_async(&req, ctx, photo, "s", NULL, NULL), FLICKR_OK);
        CHECK_EQ_INT(flickr_request_wait(req), FLICKR_ENETWORK);
        flickr_request_free(req);

        {   /* Only the lock file: no image, no temporary file. */
            char command[128];
            snprintf(command, sizeof command, "test $(ls -A %s | wc -l) -eq 1 && test -f %s/.flickr-cache.lock", dir, dir);
            CHECK_EQ_INT(system(command), 0);
            snprintf(command, sizeof command, "rm -rf %s", dir);
            CHECK_EQ_INT(system(command), 0);
        }
        flickr_context_free(ctx);
    }

    BOUNDARY(flickr_photo_short_url)
    {
        static const char *const not_ids[] = {"", "abc", "-1", "+1", " 1", "1 ", "1.5", "0x10", "１２",
                                              "99999999999999999999999999999999999999"};
        CHECK_NULL_WITH(flickr_photo_short_url(NULL), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++) CHECK_NULL_WITH(flickr_photo_short_url(bad_utf8[i]), FLICKR_EINVAL);
        for (i = 0; i < COUNT(not_ids); i++) CHECK_NULL_WITH(flickr_photo_short_url(not_ids[i]), FLICKR_EINVAL);
        url = flickr_photo_short_url("18446744073709551615");
        CHECK(url != NULL); /* the largest 64-bit id still has a short URL */
        flickr_free(url);
    }
}

/* ---- auth.h ---- */

static void test_auth(void) {
    flickr_context *ctx = offline_context("secret"), *unsigned_ctx = offline_context(NULL), *dead = freed_context();
    flickr_response *resp = (flickr_response *)0x1;
    char *token = (char *)0x1, *verifier = (char *)0x1, *base = (char *)0x1, *frob = (char *)0x1;
    const char *odd[] = {"a", NULL, NULL};
    size_t i;

    BOUNDARY(flickr_oauth_signature)
    CHECK_NULL_WITH(flickr_oauth_signature(NULL, "http://x/", NULL, "cs", NULL, &base), FLICKR_EINVAL);
    CHECK(base == NULL);
    CHECK_NULL_WITH(flickr_oauth_signature("GET", NULL, NULL, "cs", NULL, NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_signature("GET", "http://x/", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_signature("", "http://x/", NULL, "cs", NULL, NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_signature("G T", "http://x/", NULL, "cs", NULL, NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_signature("GET", "http://x/", odd, "cs", NULL, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        CHECK_NULL_WITH(flickr_oauth_signature(bad_utf8[i], "http://x/", NULL, "cs", NULL, NULL), FLICKR_EINVAL);
        CHECK_NULL_WITH(flickr_oauth_signature("GET", bad_utf8[i], NULL, "cs", NULL, NULL), FLICKR_EINVAL);
        CHECK_NULL_WITH(flickr_oauth_signature("GET", "http://x/", NULL, bad_utf8[i], NULL, NULL), FLICKR_EINVAL);
        CHECK_NULL_WITH(flickr_oauth_signature("GET", "http://x/", NULL, "cs", bad_utf8[i], NULL), FLICKR_EINVAL);
    }
    {   /* Garbage URLs and empty secrets: a signature or EINVAL, never a crash. */
        static const char *const urls[] = {"", "x", "http://", "http://[::1", "http://x:99999999999/", "://", "http://x/%zz?%=&&=&a"};
        for (i = 0; i < COUNT(urls); i++) {
            char *sig = flickr_oauth_signature("GET", urls[i], NULL, "", "", NULL);
            CHECK(sig != NULL || last_code() == FLICKR_EINVAL);
            flickr_free(sig);
        }
    }

    BOUNDARY(flickr_oauth_request_token)
    CHECK_FAILS(flickr_oauth_request_token(NULL, ctx, "oob"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_request_token(&resp, NULL, "oob"), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_FAILS(flickr_oauth_request_token(&resp, dead, "oob"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_request_token(&resp, ctx, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_request_token(&resp, unsigned_ctx, "oob"), FLICKR_EINVAL); /* no shared secret */
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_oauth_request_token(&resp, ctx, bad_utf8[i]), FLICKR_EINVAL);

    BOUNDARY(flickr_oauth_authorize_url)
    CHECK_NULL_WITH(flickr_oauth_authorize_url(NULL, "tok", "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_authorize_url(dead, "tok", "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_authorize_url(ctx, NULL, "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_authorize_url(ctx, "tok", "admin"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_oauth_authorize_url(ctx, "tok", ""), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        CHECK_NULL_WITH(flickr_oauth_authorize_url(ctx, bad_utf8[i], "read"), FLICKR_EINVAL);
        CHECK_NULL_WITH(flickr_oauth_authorize_url(ctx, "tok", bad_utf8[i]), FLICKR_EINVAL);
    }

    BOUNDARY(flickr_oauth_parse_callback)
    {
        static const char *const malformed[] = {"", "no scheme?oauth_token=a&oauth_verifier=b", "http://x/cb",
                                                "http://x/cb?oauth_token=a b&oauth_verifier=c",
                                                " http://x/cb?oauth_token=a&oauth_verifier=b",
                                                "http://x/cb?oauth_token=a&oauth_verifier=b\n",
                                                "http://x/cb#oauth_token=a&oauth_verifier=b"};
        static const char *const declined[] = {"http://x/cb?foo=1", "http://x/cb?oauth_token=a",
                                               "http://x/cb?oauth_verifier=b", "myapp://auth?denied=a",
                                               "http://x/cb?a=1#oauth_token=a&oauth_verifier=b"};
        CHECK_FAILS(flickr_oauth_parse_callback(NULL, &token, &verifier), FLICKR_EINVAL);
        CHECK(token == NULL && verifier == NULL);
        CHECK_FAILS(flickr_oauth_parse_callback("http://x/?oauth_token=a&oauth_verifier=b", NULL, &verifier),
                    FLICKR_EINVAL);
        CHECK_FAILS(flickr_oauth_parse_callback("http://x/?oauth_token=a&oauth_verifier=b", &token, NULL),
                    FLICKR_EINVAL);
        CHECK(token == NULL);
        for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_oauth_parse_callback(bad_utf8[i], &token, &verifier), FLICKR_EINVAL);
        for (i = 0; i < COUNT(malformed); i++)
            CHECK_FAILS(flickr_oauth_parse_callback(malformed[i], &token, &verifier), FLICKR_EINVAL);
        for (i = 0; i < COUNT(declined); i++)
            CHECK_FAILS(flickr_oauth_parse_callback(declined[i], &token, &verifier), FLICKR_EOAUTH);
        CHECK(token == NULL && verifier == NULL);
        {   /* Broken escapes: decoded, refused or left as they are, never a crash or a leak. */
            static const char *const odd_urls[] = {"http://x/?oauth_token=%&oauth_verifier=%zz",
                                                   "http://x/?oauth_token=%00&oauth_verifier=%ff%fe",
                                                   "http://x/?oauth_token=&oauth_verifier=",
                                                   "http://x/?&&&=&oauth_token=a&oauth_token=b&oauth_verifier=v"};
            for (i = 0; i < COUNT(odd_urls); i++) {
                int rc = flickr_oauth_parse_callback(odd_urls[i], &token, &verifier);
                CHECK(rc == FLICKR_OK || rc == FLICKR_EINVAL || rc == FLICKR_EOAUTH);
                CHECK(rc == FLICKR_OK ? (token != NULL && verifier != NULL) : (token == NULL && verifier == NULL));
                flickr_free(token);
                flickr_free(verifier);
            }
        }
    }

    BOUNDARY(flickr_oauth_access_token)
    CHECK_FAILS(flickr_oauth_access_token(NULL, ctx, "t", "s", "v"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_access_token(&resp, NULL, "t", "s", "v"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_access_token(&resp, dead, "t", "s", "v"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, NULL, "s", "v"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, "t", NULL, "v"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, "t", "s", NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, bad_utf8[i], "s", "v"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, "t", bad_utf8[i], "v"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_oauth_access_token(&resp, ctx, "t", "s", bad_utf8[i]), FLICKR_EINVAL);
    }
    CHECK(resp == NULL);

    BOUNDARY(flickr_oauth_check_token)
    CHECK_FAILS(flickr_oauth_check_token(NULL, ctx, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_check_token(&resp, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_check_token(&resp, dead, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_check_token(&resp, ctx, NULL, NULL), FLICKR_ESTATE); /* the context holds no token */
    CHECK_FAILS(flickr_oauth_check_token(&resp, ctx, "tok", NULL), FLICKR_EINVAL); /* secret required with token */
    for (i = 0; i < N_BAD; i++) {
        CHECK_FAILS(flickr_oauth_check_token(&resp, ctx, bad_utf8[i], "s"), FLICKR_EINVAL);
        CHECK_FAILS(flickr_oauth_check_token(&resp, ctx, "tok", bad_utf8[i]), FLICKR_EINVAL);
    }

    BOUNDARY(flickr_oauth_exchange_legacy_token)
    CHECK_FAILS(flickr_oauth_exchange_legacy_token(NULL, ctx, "t"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_exchange_legacy_token(&resp, NULL, "t"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_exchange_legacy_token(&resp, dead, "t"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_oauth_exchange_legacy_token(&resp, ctx, NULL), FLICKR_ESTATE); /* the context holds none */
    CHECK_FAILS(flickr_oauth_exchange_legacy_token(&resp, unsigned_ctx, "t"), FLICKR_EINVAL); /* no secret */
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_oauth_exchange_legacy_token(&resp, ctx, bad_utf8[i]), FLICKR_EINVAL);

    BOUNDARY(flickr_auth_get_frob)
    CHECK_FAILS(flickr_auth_get_frob(NULL, ctx), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_frob(&frob, NULL), FLICKR_EINVAL);
    CHECK(frob == NULL);
    CHECK_FAILS(flickr_auth_get_frob(&frob, dead), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_frob(&frob, unsigned_ctx), FLICKR_EINVAL);

    BOUNDARY(flickr_auth_login_url)
    CHECK_NULL_WITH(flickr_auth_login_url(NULL, "frob", "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_login_url(dead, "frob", "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_login_url(ctx, NULL, "read"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_login_url(ctx, "frob", NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_login_url(ctx, "frob", "root"), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_login_url(unsigned_ctx, "frob", "read"), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) {
        CHECK_NULL_WITH(flickr_auth_login_url(ctx, bad_utf8[i], "read"), FLICKR_EINVAL);
        CHECK_NULL_WITH(flickr_auth_login_url(ctx, "frob", bad_utf8[i]), FLICKR_EINVAL);
    }

    BOUNDARY(flickr_auth_get_token)
    CHECK_FAILS(flickr_auth_get_token(NULL, ctx, "frob"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_token(&resp, NULL, "frob"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_token(&resp, dead, "frob"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_token(&resp, ctx, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_auth_get_token(&resp, ctx, ""), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_auth_get_token(&resp, ctx, bad_utf8[i]), FLICKR_EINVAL);

    BOUNDARY(flickr_auth_api_sig)
    CHECK_NULL_WITH(flickr_auth_api_sig(NULL, NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_api_sig("", NULL), FLICKR_EINVAL);
    CHECK_NULL_WITH(flickr_auth_api_sig("secret", odd), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_NULL_WITH(flickr_auth_api_sig(bad_utf8[i], NULL), FLICKR_EINVAL);

    flickr_context_free(ctx);
    flickr_context_free(unsigned_ctx);
}

/* ---- upload.h ---- */

static void test_upload(void) {
    flickr_context *ctx = offline_context("secret"), *dead = freed_context();
    flickr_upload_source *src = (flickr_upload_source *)0x1, *dead_src = NULL, *good = NULL;
    flickr_response *resp = (flickr_response *)0x1;
    flickr_request *req = (flickr_request *)0x1;
    const char *photo_param[] = {"photo", "x", NULL};
    const char *odd[] = {"title", NULL, NULL};
    static const char bytes[] = "not really a jpeg";
    size_t i;

    /* Uploads need credentials: give the context an OAuth token so argument checks are what fails. */
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, "tok");
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, "toksecret");

    BOUNDARY(flickr_upload_source_new_file)
    CHECK_FAILS(flickr_upload_source_new_file(NULL, "/etc/hostname"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_file(&src, NULL), FLICKR_EINVAL);
    CHECK(src == NULL);
    CHECK_FAILS(flickr_upload_source_new_file(&src, ""), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_file(&src, "/nonexistent/file.jpg"), FLICKR_EIO);
    CHECK_FAILS(flickr_upload_source_new_file(&src, "/"), FLICKR_EIO); /* not a regular file */
    /* A path is bytes, not text: one that is not UTF-8 is looked up (none of these exists). */
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_source_new_file(&src, bad_utf8[i]), FLICKR_EIO);
    CHECK_FAILS(flickr_upload_source_new_file(&src, "/dev/zero"), FLICKR_EIO); /* nor a device */

    BOUNDARY(flickr_upload_source_new_buffer)
    CHECK_FAILS(flickr_upload_source_new_buffer(NULL, bytes, 4, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_buffer(&src, NULL, 4, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_buffer(&src, bytes, SIZE_MAX, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_buffer(&src, bytes, (size_t)PTRDIFF_MAX + 1, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_source_new_buffer(&src, bytes, 4, bad_utf8[i]), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_buffer(&src, bytes, 4, "a\r\nb.jpg"), FLICKR_EINVAL);
    /* A quote is allowed (it is escaped as %22 in the multipart header), and the source can be freed. */
    CHECK_EQ_INT(flickr_upload_source_new_buffer(&src, bytes, 4, "quote\".jpg"), FLICKR_OK);
    flickr_upload_source_free(src);
    CHECK_EQ_INT(flickr_upload_source_new_buffer(&dead_src, NULL, 0, NULL), FLICKR_OK); /* allowed: len 0 */

    BOUNDARY(flickr_upload_source_new_stream)
    CHECK_FAILS(flickr_upload_source_new_stream(NULL, read_nothing, 0, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_stream(&src, NULL, 0, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_stream(&src, read_nothing, -1, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_new_stream(&src, read_nothing, INT64_MIN, NULL, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++)
        CHECK_FAILS(flickr_upload_source_new_stream(&src, read_nothing, 0, NULL, bad_utf8[i]), FLICKR_EINVAL);

    CHECK_EQ_INT(flickr_upload_source_new_buffer(&good, bytes, sizeof bytes - 1, "p.jpg"), FLICKR_OK);

    BOUNDARY(flickr_upload_source_set_filename)
    CHECK_FAILS(flickr_upload_source_set_filename(NULL, "a.jpg"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_filename(good, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_filename(good, "a\nb.jpg"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_filename(good, "a\rb.jpg"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_filename(good, "a\tb\x7f.jpg"), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_source_set_filename(good, bad_utf8[i]), FLICKR_EINVAL);

    BOUNDARY(flickr_upload_source_set_mime_type)
    CHECK_FAILS(flickr_upload_source_set_mime_type(NULL, "image/jpeg"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_mime_type(good, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_mime_type(good, ""), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_mime_type(good, "image/jpeg\r\nX-Injected: 1"), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_source_set_mime_type(good, bad_utf8[i]), FLICKR_EINVAL);

    BOUNDARY(flickr_upload_source_free)
    flickr_upload_source_free(NULL);
    flickr_upload_source_free(dead_src);
    flickr_upload_source_free(dead_src); /* a second free is ignored */
    CHECK_FAILS(flickr_upload_source_set_filename(dead_src, "a.jpg"), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_source_set_mime_type(dead_src, "image/png"), FLICKR_EINVAL);

    BOUNDARY(flickr_upload)
    CHECK_FAILS(flickr_upload(NULL, ctx, good, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload(&resp, NULL, good, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_FAILS(flickr_upload(&resp, dead, good, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload(&resp, ctx, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload(&resp, ctx, dead_src, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload(&resp, ctx, good, photo_param, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload(&resp, ctx, good, odd, NULL, NULL), FLICKR_EINVAL);
    {   /* Without credentials. */
        flickr_context *bare = offline_context("secret");
        CHECK_FAILS(flickr_upload(&resp, bare, good, NULL, NULL, NULL), FLICKR_ESTATE);
        flickr_context_free(bare);
    }

    BOUNDARY(flickr_replace)
    CHECK_FAILS(flickr_replace(NULL, ctx, good, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, NULL, good, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, dead_src, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, good, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, good, "", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, good, "12; rm", NULL, NULL, NULL), FLICKR_EINVAL);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_replace(&resp, ctx, good, bad_utf8[i], NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace(&resp, ctx, good, "1", odd, NULL, NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_upload_async)
    CHECK_FAILS(flickr_upload_async(NULL, ctx, good, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_async(&req, NULL, good, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK(req == NULL);
    CHECK_FAILS(flickr_upload_async(&req, dead, good, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_async(&req, ctx, NULL, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_async(&req, ctx, dead_src, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_async(&req, ctx, good, photo_param, NULL, NULL, NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_replace_async)
    CHECK_FAILS(flickr_replace_async(NULL, ctx, good, "1", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_async(&req, NULL, good, "1", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_async(&req, ctx, NULL, "1", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_async(&req, ctx, good, NULL, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_async(&req, ctx, good, "x", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK(req == NULL);

    BOUNDARY(flickr_upload_file)
    CHECK_FAILS(flickr_upload_file(NULL, ctx, "/etc/hostname", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_file(&resp, NULL, "/etc/hostname", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_file(&resp, ctx, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_file(&resp, ctx, "/nonexistent/file.jpg", NULL, NULL, NULL), FLICKR_EIO);
    for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_file(&resp, ctx, bad_utf8[i], NULL, NULL, NULL), FLICKR_EIO);

    BOUNDARY(flickr_replace_file)
    CHECK_FAILS(flickr_replace_file(NULL, ctx, "/etc/hostname", "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_file(&resp, NULL, "/etc/hostname", "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_file(&resp, ctx, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_file(&resp, ctx, "/etc/hostname", NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_file(&resp, ctx, "/nonexistent/file.jpg", "1", NULL, NULL, NULL), FLICKR_EIO);

    BOUNDARY(flickr_upload_buffer)
    CHECK_FAILS(flickr_upload_buffer(NULL, ctx, bytes, 4, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_buffer(&resp, NULL, bytes, 4, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_buffer(&resp, ctx, NULL, 4, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_buffer(&resp, ctx, bytes, SIZE_MAX, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_buffer(&resp, ctx, bytes, 4, "\xff.jpg", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_buffer(&resp, ctx, bytes, 4, NULL, photo_param, NULL, NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_replace_buffer)
    CHECK_FAILS(flickr_replace_buffer(NULL, ctx, bytes, 4, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_buffer(&resp, NULL, bytes, 4, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_buffer(&resp, ctx, NULL, 4, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_buffer(&resp, ctx, bytes, SIZE_MAX, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_buffer(&resp, ctx, bytes, 4, NULL, NULL, NULL, NULL, NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_upload_stream)
    CHECK_FAILS(flickr_upload_stream(NULL, ctx, read_nothing, 0, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_stream(&resp, NULL, read_nothing, 0, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_stream(&resp, ctx, NULL, 0, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_stream(&resp, ctx, read_nothing, -5, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_upload_stream(&resp, ctx, read_nothing, INT64_MIN, NULL, NULL, NULL, NULL), FLICKR_EINVAL);

    BOUNDARY(flickr_replace_stream)
    CHECK_FAILS(flickr_replace_stream(NULL, ctx, read_nothing, 0, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_stream(&resp, NULL, read_nothing, 0, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_stream(&resp, ctx, NULL, 0, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_stream(&resp, ctx, read_nothing, -1, NULL, "1", NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK_FAILS(flickr_replace_stream(&resp, ctx, read_nothing, 0, NULL, NULL, NULL, NULL, NULL), FLICKR_EINVAL);
    CHECK(resp == NULL);

    BOUNDARY(flickr_upload_wait_ticket)
    {
        char *photo_id = (char *)0x1;
        CHECK_FAILS(flickr_upload_wait_ticket(NULL, ctx, "1-2", 1000), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, NULL, "1-2", 1000), FLICKR_EINVAL);
        CHECK(photo_id == NULL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, dead, "1-2", 1000), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, NULL, 1000), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, "", 1000), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, "1,2", 1000), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, "1-2", -1), FLICKR_EINVAL);
        CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, "1-2", LONG_MIN), FLICKR_EINVAL);
        for (i = 0; i < N_BAD; i++) CHECK_FAILS(flickr_upload_wait_ticket(&photo_id, ctx, bad_utf8[i], 1000), FLICKR_EINVAL);
    }

    flickr_upload_source_free(good);
    flickr_context_free(ctx);
}

int main(void) {
    test_common();
    test_context();
    test_client();
    test_methods();
    test_pages();
    test_harvest();
    test_response();
    test_auth();
    test_upload();
    TEST_MAIN_END();
}
