/* SPDX-License-Identifier: MIT */
/* Authentication against the sandbox: every OAuth 1.0a step, the callback parser,
 * token checks, legacy-token migration and the deprecated frob flow, with every
 * failure the endpoints can answer. libcurl plays the user's browser. */
#include <flickr.h>
#include <curl/curl.h>
#include <stdlib.h>

#include "harness.h"
#include "sandbox_env.h"

/* The legacy functions are deprecated on purpose; this test still exercises them. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const flickr_error *err(void) { return flickr_error_last(); }

static const char *str(const flickr_response *resp, const char *path) {
    return flickr_value_string(flickr_value_get(flickr_response_root(resp), path));
}

static int contains(const char *haystack, const char *needle) {
    return haystack != NULL && needle != NULL && strstr(haystack, needle) != NULL;
}

/* ---- the browser ------------------------------------------------------------------------ */

struct page {
    long status;
    char *location; /* malloc'd, or NULL when there was no redirect */
    char body[16384];
    size_t len;
};

static size_t collect(char *data, size_t size, size_t count, void *userdata) {
    struct page *page = userdata;
    size_t n = size * count;
    size_t room = sizeof page->body - 1 - page->len;
    memcpy(page->body + page->len, data, n < room ? n : room);
    page->len += n < room ? n : room;
    page->body[page->len] = '\0';
    return n;
}

/* Fetches url without following redirects, as a browser tab would before going on. */
static void browse(const char *url, struct page *page) {
    CURL *curl = curl_easy_init();
    char *location = NULL;
    memset(page, 0, sizeof *page);
    if (curl == NULL) return;
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, page);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, 20L);
    if (getenv("FLICKR_SANDBOX_CA_FILE")) curl_easy_setopt(curl, CURLOPT_CAINFO, getenv("FLICKR_SANDBOX_CA_FILE"));
    if (curl_easy_perform(curl) == CURLE_OK) {
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &page->status);
        if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location != NULL)
            page->location = strdup(location);
    }
    curl_easy_cleanup(curl);
}

/* The verifier an "oob" authorization shows: <span id="verifier" ...>123-456-789</span>. */
static int oob_verifier(const struct page *page, char *out, size_t size) {
    const char *start = strstr(page->body, "id=\"verifier\"");
    const char *end;
    if (start == NULL || (start = strchr(start, '>')) == NULL) return 0;
    start++;
    end = strchr(start, '<');
    if (end == NULL || (size_t)(end - start) >= size) return 0;
    memcpy(out, start, (size_t)(end - start));
    out[end - start] = '\0';
    return 1;
}

/* ---- helpers ---------------------------------------------------------------------------- */

struct pair {
    char token[128];
    char secret[128];
};

static int request_token(flickr_context *ctx, const char *callback, struct pair *out) {
    flickr_response *resp = NULL;
    int rc = flickr_oauth_request_token(&resp, ctx, callback);
    if (rc != FLICKR_OK) return rc;
    snprintf(out->token, sizeof out->token, "%s", str(resp, "oauth_token") ? str(resp, "oauth_token") : "");
    snprintf(out->secret, sizeof out->secret, "%s",
             str(resp, "oauth_token_secret") ? str(resp, "oauth_token_secret") : "");
    flickr_response_free(resp);
    return rc;
}

/* Request token -> authorize (with extra query text) -> the callback's verifier, in `verifier`. */
static int approve(flickr_context *ctx, const char *perms, const char *extra, struct pair *req, char *verifier,
                   size_t size) {
    char *url, full[1024];
    struct page page;
    char *token = NULL, *found = NULL;
    int ok = 0;
    if (request_token(ctx, "http://127.0.0.1:9/callback?state=xyz", req) != FLICKR_OK) return 0;
    url = flickr_oauth_authorize_url(ctx, req->token, perms);
    if (url == NULL) return 0;
    snprintf(full, sizeof full, "%s%s", url, extra ? extra : "");
    flickr_free(url);
    browse(full, &page);
    if (page.location && flickr_oauth_parse_callback(page.location, &token, &found) == FLICKR_OK) {
        ok = strcmp(token, req->token) == 0 && strlen(found) < size;
        if (ok) snprintf(verifier, size, "%s", found);
    }
    flickr_free(token);
    flickr_free(found);
    free(page.location);
    return ok;
}

/* ---- tests ------------------------------------------------------------------------------ */

static void test_full_flow(int in_header) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    struct pair req;
    struct page page;
    char *url, *token = NULL, *verifier = NULL, *value = NULL;
    char access[128], access_secret[128];

    if (in_header) CHECK_EQ_INT(flickr_context_set_long(ctx, FLICKR_OPT_OAUTH_IN_HEADER, 1), FLICKR_OK);

    /* Step 1. */
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, ctx, "http://127.0.0.1:9/callback"), FLICKR_OK);
    CHECK(resp != NULL);
    if (resp == NULL) {
        fprintf(stderr, "  request_token: %s\n", err()->message);
        flickr_context_free(ctx);
        return;
    }
    CHECK_EQ_STR(str(resp, "oauth_callback_confirmed"), "true");
    CHECK(str(resp, "oauth_token") && strlen(str(resp, "oauth_token")) > 10);
    CHECK(str(resp, "oauth_token_secret") && strlen(str(resp, "oauth_token_secret")) == 16);
    CHECK_EQ_INT(flickr_response_http_status(resp), 200);
    snprintf(req.token, sizeof req.token, "%s", str(resp, "oauth_token"));
    snprintf(req.secret, sizeof req.secret, "%s", str(resp, "oauth_token_secret"));
    flickr_response_free(resp);

    /* Step 2: the URL, then the browser's redirect to the callback. */
    url = flickr_oauth_authorize_url(ctx, req.token, "write");
    CHECK(url != NULL);
    if (url == NULL) return;
    CHECK(contains(url, "/services/oauth/authorize?oauth_token="));
    CHECK(contains(url, req.token));
    CHECK(contains(url, "&perms=write"));
    browse(url, &page);
    flickr_free(url);
    CHECK_EQ_INT(page.status, 302);
    CHECK(contains(page.location, "http://127.0.0.1:9/callback?oauth_token="));
    CHECK_EQ_INT(flickr_oauth_parse_callback(page.location, &token, &verifier), FLICKR_OK);
    free(page.location);
    CHECK_EQ_STR(token, req.token);
    CHECK(verifier != NULL && strlen(verifier) > 0);

    /* Step 3. */
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, token, req.secret, verifier), FLICKR_OK);
    flickr_free(token);
    flickr_free(verifier);
    if (resp == NULL) {
        fprintf(stderr, "  access_token: %s\n", err()->message);
        flickr_context_free(ctx);
        return;
    }
    CHECK_EQ_STR(str(resp, "user_nsid"), "12037949@N00"); /* sent as 12037949%40N00: decoded */
    CHECK_EQ_STR(str(resp, "username"), "sandbox");
    CHECK_EQ_STR(str(resp, "fullname"), "Sandbox User"); /* sent as Sandbox%20User */
    CHECK(str(resp, "oauth_token") && strcmp(str(resp, "oauth_token"), req.token) != 0);
    snprintf(access, sizeof access, "%s", str(resp, "oauth_token") ? str(resp, "oauth_token") : "");
    snprintf(access_secret, sizeof access_secret, "%s",
             str(resp, "oauth_token_secret") ? str(resp, "oauth_token_secret") : "");
    flickr_response_free(resp);

    /* The library changed no token of the context. */
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_OAUTH_TOKEN), FLICKR_OK);
    CHECK(value == NULL);
    flickr_free(value);

    /* Step 4: the application installs the token and calls. */
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, access), FLICKR_OK);
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, access_secret), FLICKR_OK);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "user.id"), "12037949@N00");
    flickr_response_free(resp);

    /* checkToken of the context's token, and of an explicit one. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, NULL, NULL), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "oauth.perms"), "write");
    CHECK_EQ_STR(str(resp, "oauth.token"), access);
    CHECK_EQ_STR(str(resp, "oauth.user.nsid"), "12037949@N00");
    CHECK_EQ_STR(str(resp, "oauth.user.username"), "sandbox");
    CHECK_EQ_STR(str(resp, "oauth.user.fullname"), "Sandbox User");
    flickr_response_free(resp);
    flickr_context_free(ctx);

    ctx = sandbox_context(AUTH_NONE);
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, access, access_secret), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "oauth.perms"), "write");
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

/* A stale token left in the context must not sign step 1 (ObjectiveFlickr's bug), nor be touched. */
static void test_request_token_ignores_context_token(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    struct pair req;
    char *value = NULL;
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, "72157600000000009-0000000000000000");
    flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, "stale-secret");
    CHECK_EQ_INT(request_token(ctx, "oob", &req), FLICKR_OK);
    CHECK(strlen(req.token) > 0);
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_OAUTH_TOKEN), FLICKR_OK);
    CHECK_EQ_STR(value, "72157600000000009-0000000000000000");
    flickr_free(value);
    /* The same with the context's real (access) token. */
    flickr_context_free(ctx);
    ctx = sandbox_context(AUTH_OAUTH);
    CHECK_EQ_INT(request_token(ctx, "oob", &req), FLICKR_OK);
    flickr_context_free(ctx);
}

static void test_oob(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    struct pair req;
    struct page page;
    char verifier[64] = "";
    char *url;
    CHECK_EQ_INT(request_token(ctx, "oob", &req), FLICKR_OK);
    url = flickr_oauth_authorize_url(ctx, req.token, "read");
    CHECK(url != NULL);
    if (url == NULL) return;
    browse(url, &page);
    flickr_free(url);
    CHECK_EQ_INT(page.status, 200);
    CHECK(page.location == NULL);
    CHECK(oob_verifier(&page, verifier, sizeof verifier));
    CHECK_EQ_INT(strlen(verifier), 11); /* 123-456-789 */
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, verifier), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "user_nsid"), "12037949@N00");
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

static void test_access_token_failures(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE), *bad = NULL;
    flickr_response *resp = (flickr_response *)&resp;
    struct pair req;
    char verifier[64];

    /* A wrong verifier. */
    CHECK(approve(ctx, "write", NULL, &req, verifier, sizeof verifier));
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, "not-the-verifier"), FLICKR_EOAUTH);
    CHECK(resp == NULL);
    CHECK_EQ_INT(err()->code, FLICKR_EOAUTH);
    CHECK_EQ_INT(err()->http_status, 401);
    CHECK(contains(err()->message, "oauth_problem=verifier_invalid"));
    CHECK(!contains(err()->message, req.secret));

    /* A wrong request token secret: the signature is refused. */
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, "0123456789abcdef", verifier), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "oauth_problem=signature_invalid"));
    CHECK_EQ_INT(err()->http_status, 401);

    /* The right one works once; the request token is then used up. */
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, verifier), FLICKR_OK);
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, verifier), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "oauth_problem=token_rejected"));

    /* An unknown request token. */
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, "72157699999999999-0123456789abcdef", "0123456789abcdef",
                                           "123-456-789"),
                 FLICKR_EOAUTH);
    CHECK(contains(err()->message, "token_rejected"));

    /* A token never authorized (no verifier yet). */
    CHECK_EQ_INT(request_token(ctx, "oob", &req), FLICKR_OK);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, "123-456-789"), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "verifier_invalid"));

    /* The consumer secret is wrong: step 1 is refused. */
    CHECK_EQ_INT(flickr_context_new(&bad, sandbox_env("FLICKR_SANDBOX_API_KEY"), "ffffffffffffffff"), FLICKR_OK);
    {
        char url[512];
        sandbox_url(url, sizeof url, "/services/oauth/");
        flickr_context_set_string(bad, FLICKR_OPT_OAUTH_ENDPOINT, url);
    }
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, bad, "oob"), FLICKR_EOAUTH);
    CHECK(resp == NULL);
    CHECK_EQ_INT(err()->http_status, 401);
    CHECK(contains(err()->message, "signature_invalid"));
    CHECK(contains(err()->message, "request_token"));
    flickr_context_free(bad);

    /* An unknown consumer key. */
    CHECK_EQ_INT(flickr_context_new(&bad, "00000000000000000000000000000000", "ffffffffffffffff"), FLICKR_OK);
    {
        char url[512];
        sandbox_url(url, sizeof url, "/services/oauth/");
        flickr_context_set_string(bad, FLICKR_OPT_OAUTH_ENDPOINT, url);
    }
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, bad, "oob"), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "consumer_key_unknown"));
    flickr_context_free(bad);

    /* Not an OAuth endpoint: an HTML 404 page is an OAuth failure carrying its text. */
    {
        char url[512];
        sandbox_url(url, sizeof url, "/nowhere/");
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_ENDPOINT, url);
    }
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, ctx, "oob"), FLICKR_EOAUTH);
    CHECK_EQ_INT(err()->http_status, 404);
    CHECK(contains(err()->message, "No such page"));
    CHECK(!contains(err()->message, "<"));
    flickr_context_free(ctx);
}

static void test_denied_and_wrong_perms(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    struct pair req;
    struct page page;
    char verifier[64], *url, full[1024];
    char *token = NULL, *found = NULL;
    const char *tag_params[] = {"photo_id", "1", "tags", "x", NULL};

    /* The user declines: no redirect, and the token is dead. */
    CHECK_EQ_INT(request_token(ctx, "http://127.0.0.1:9/cb", &req), FLICKR_OK);
    url = flickr_oauth_authorize_url(ctx, req.token, "write");
    snprintf(full, sizeof full, "%s&sandbox_deny=1", url ? url : "");
    flickr_free(url);
    browse(full, &page);
    CHECK_EQ_INT(page.status, 200);
    CHECK(page.location == NULL);
    CHECK(contains(page.body, "declined"));
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, "whatever"), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "token_rejected"));
    /* A callback that says "denied" is an OAuth failure too. */
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://127.0.0.1:9/cb?denied=abc", &token, &found), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "declined"));
    CHECK(token == NULL && found == NULL);

    /* An unknown request token at the authorize page: Flickr's "Oops" page. */
    url = flickr_oauth_authorize_url(ctx, "72157699999999999-0123456789abcdef", "read");
    browse(url, &page);
    flickr_free(url);
    CHECK_EQ_INT(page.status, 400);
    CHECK(contains(page.body, "Oops"));

    /* Read permission only: a write method is refused with Flickr's error 99. */
    CHECK(approve(ctx, "read", NULL, &req, verifier, sizeof verifier));
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, verifier), FLICKR_OK);
    if (resp) {
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, str(resp, "oauth_token"));
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, str(resp, "oauth_token_secret"));
        flickr_response_free(resp);
    }
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, NULL, NULL), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "oauth.perms"), "read");
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_call(&resp, ctx, "flickr.photos.addTags", tag_params, FLICKR_POST), FLICKR_EAPI);
    CHECK_EQ_INT(err()->api_code, 99);

    /* Another user approves (sandbox_user): the access token is theirs. */
    CHECK(approve(ctx, "delete", "&sandbox_user=marie", &req, verifier, sizeof verifier));
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, req.token, req.secret, verifier), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "username"), "marie");
    CHECK_EQ_STR(str(resp, "user_nsid"), "48600090482@N01");
    flickr_response_free(resp);
    flickr_context_free(ctx);
}

static void test_check_token_failures(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    /* No token in the context. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, NULL, NULL), FLICKR_ESTATE);
    CHECK(resp == NULL);
    /* A token without its secret. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, "72157600000000001-5a1d6b0c0f1e2d3c", NULL), FLICKR_EINVAL);
    /* An unknown token: its signature cannot be checked, so OAuth refuses it. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, "72157699999999999-0123456789abcdef", "0123456789abcdef"),
                 FLICKR_EOAUTH);
    CHECK(contains(err()->message, "token_rejected"));
    /* The seeded token with a wrong secret. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN"), "0123456789abcdef"),
                 FLICKR_EOAUTH);
    CHECK(contains(err()->message, "signature_invalid"));
    /* The seeded token: perms delete. */
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, ctx, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN"),
                                          sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN_SECRET")),
                 FLICKR_OK);
    CHECK_EQ_STR(str(resp, "oauth.perms"), "delete");
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_oauth_check_token(NULL, ctx, NULL, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, NULL, NULL, NULL), FLICKR_EINVAL);
    flickr_context_free(ctx);
}

static void test_parse_callback(void) {
    char *token = (char *)"x", *verifier = (char *)"y";
    static const char *malformed[] = {
        "",
        "no scheme?oauth_token=a&oauth_verifier=b",
        "oauth_token=a&oauth_verifier=b",
        "?oauth_token=a&oauth_verifier=b",
        "http://127.0.0.1/cb",
        "http://127.0.0.1/cb#?oauth_token=a&oauth_verifier=b",
        "http://127.0.0.1/cb?oauth_token=a&oauth_verifier=b\n",
        "http://127.0.0.1/cb?oauth_token=a b&oauth_verifier=b",
        "1http://x/?oauth_token=a&oauth_verifier=b",
    };
    static const char *incomplete[] = {
        "http://127.0.0.1/cb?oauth_token=a",
        "http://127.0.0.1/cb?oauth_verifier=b",
        "http://127.0.0.1/cb?oauth_token=&oauth_verifier=b",
        "http://127.0.0.1/cb?oauth_token=a&oauth_verifier=",
        "http://127.0.0.1/cb?",
        "http://127.0.0.1/cb?oauth_problem=user_refused",
        "myapp://auth?state=1",
    };
    size_t i;

    /* Any scheme; values decoded; fragment and other parameters ignored. */
    CHECK_EQ_INT(flickr_oauth_parse_callback(
                     "snapnrun://auth?oauth_token=72157%2D1&state=a%26b&oauth_verifier=ab%20c+d#frag", &token, &verifier),
                 FLICKR_OK);
    CHECK_EQ_STR(token, "72157-1");
    CHECK_EQ_STR(verifier, "ab c d");
    flickr_free(token);
    flickr_free(verifier);
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://www.example.com/?oauth_token=72157626737672178-022bbd2f4c2f3432"
                                             "&oauth_verifier=5d1b96a26b494074",
                                             &token, &verifier),
                 FLICKR_OK);
    CHECK_EQ_STR(token, "72157626737672178-022bbd2f4c2f3432");
    CHECK_EQ_STR(verifier, "5d1b96a26b494074");
    flickr_free(token);
    flickr_free(verifier);
    CHECK_EQ_INT(flickr_oauth_parse_callback("oatransdemo://callback?oauth_verifier=v&oauth_token=t#x=1", &token,
                                             &verifier),
                 FLICKR_OK);
    CHECK_EQ_STR(token, "t");
    CHECK_EQ_STR(verifier, "v");
    flickr_free(token);
    flickr_free(verifier);

    for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        token = verifier = (char *)"x";
        CHECK_EQ_INT(flickr_oauth_parse_callback(malformed[i], &token, &verifier), FLICKR_EINVAL);
        CHECK(token == NULL && verifier == NULL);
        CHECK(strlen(err()->message) > 0);
    }
    for (i = 0; i < sizeof incomplete / sizeof incomplete[0]; i++) {
        token = verifier = (char *)"x";
        CHECK_EQ_INT(flickr_oauth_parse_callback(incomplete[i], &token, &verifier), FLICKR_EOAUTH);
        CHECK(token == NULL && verifier == NULL);
    }
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://127.0.0.1/cb?oauth_token=a", &token, &verifier), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "oauth_verifier"));
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://127.0.0.1/cb?oauth_verifier=b", &token, &verifier), FLICKR_EOAUTH);
    CHECK(contains(err()->message, "oauth_token"));
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://127.0.0.1/cb", &token, &verifier), FLICKR_EINVAL);
    CHECK(contains(err()->message, "query"));
    CHECK_EQ_INT(flickr_oauth_parse_callback(NULL, &token, &verifier), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://x/?oauth_token=a&oauth_verifier=b", NULL, &verifier), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://x/?oauth_token=a&oauth_verifier=b", &token, NULL), FLICKR_EINVAL);
    CHECK(token == NULL);
    CHECK_EQ_INT(flickr_oauth_parse_callback("http://x/?oauth_token=a&oauth_verifier=\xff", &token, &verifier),
                 FLICKR_EINVAL);
}

static void test_argument_validation(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE), *unsigned_ctx = NULL;
    flickr_response *resp = (flickr_response *)&resp;
    char *url;
    static const char *bad_perms[] = {"", "admin", "READ", "Write", "read ", "read,write", "none"};
    size_t i;

    url = flickr_oauth_authorize_url(ctx, "72157-abc def", "read");
    CHECK(url == NULL);
    url = flickr_oauth_authorize_url(ctx, "72157-1+2", NULL);
    CHECK(url != NULL && contains(url, "oauth_token=72157-1%2B2") && !contains(url, "perms"));
    flickr_free(url);
    for (i = 0; i < sizeof bad_perms / sizeof bad_perms[0]; i++) {
        url = flickr_oauth_authorize_url(ctx, "72157-1", bad_perms[i]);
        CHECK(url == NULL);
        CHECK_EQ_INT(err()->code, FLICKR_EINVAL);
        CHECK(contains(err()->message, "perms"));
    }
    url = flickr_oauth_authorize_url(ctx, "72157-1", "delete");
    CHECK(contains(url, "&perms=delete"));
    flickr_free(url);
    CHECK(flickr_oauth_authorize_url(NULL, "72157-1", "read") == NULL);
    CHECK_EQ_INT(err()->code, FLICKR_EINVAL);
    CHECK(flickr_oauth_authorize_url(ctx, NULL, "read") == NULL);
    CHECK(flickr_oauth_authorize_url(ctx, "", "read") == NULL);

    CHECK_EQ_INT(flickr_oauth_request_token(NULL, ctx, "oob"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, NULL, "oob"), FLICKR_EINVAL);
    CHECK(resp == NULL);
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, ctx, NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, ctx, ""), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, ctx, "http://x/ cb"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, NULL, "s", "v"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, "t", NULL, "v"), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, "t", "s", NULL), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_access_token(&resp, ctx, "t", "s", ""), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_oauth_access_token(NULL, ctx, "t", "s", "v"), FLICKR_EINVAL);

    /* A context without shared secret cannot sign. */
    CHECK_EQ_INT(flickr_context_new(&unsigned_ctx, "key", NULL), FLICKR_OK);
    CHECK_EQ_INT(flickr_oauth_request_token(&resp, unsigned_ctx, "oob"), FLICKR_EINVAL);
    CHECK(contains(err()->message, "secret"));
    flickr_context_free(unsigned_ctx);
    flickr_context_free(ctx);
}

/* flickr.auth.oauth.getAccessToken: a legacy token becomes an OAuth one and dies. */
static void test_exchange_legacy_token(void) {
    flickr_context *ctx = sandbox_context(AUTH_LEGACY), *plain = sandbox_context(AUTH_NONE);
    flickr_response *resp = NULL;
    char *value = NULL;
    CHECK_EQ_INT(flickr_oauth_exchange_legacy_token(&resp, plain, NULL), FLICKR_ESTATE);
    CHECK_EQ_INT(flickr_oauth_exchange_legacy_token(&resp, plain, "72157699999999999-0000000000000000"), FLICKR_EAPI);
    CHECK_EQ_INT(err()->api_code, 98);

    CHECK_EQ_INT(flickr_oauth_exchange_legacy_token(&resp, ctx, NULL), FLICKR_OK);
    if (resp) {
        CHECK(str(resp, "auth.access_token.oauth_token") != NULL);
        flickr_context_set_string(plain, FLICKR_OPT_OAUTH_TOKEN, str(resp, "auth.access_token.oauth_token"));
        flickr_context_set_string(plain, FLICKR_OPT_OAUTH_TOKEN_SECRET,
                                  str(resp, "auth.access_token.oauth_token_secret"));
        flickr_response_free(resp);
    }
    CHECK_EQ_INT(flickr_call(&resp, plain, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "user.id"), "12037949@N00");
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_oauth_check_token(&resp, plain, NULL, NULL), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "oauth.perms"), "delete");
    flickr_response_free(resp);
    /* The context still holds the (now dead) legacy token: nothing changed it. */
    CHECK_EQ_INT(flickr_context_get_string(&value, ctx, FLICKR_OPT_AUTH_TOKEN), FLICKR_OK);
    CHECK_EQ_STR(value, sandbox_env("FLICKR_SANDBOX_AUTH_TOKEN"));
    flickr_free(value);
    CHECK_EQ_INT(flickr_oauth_exchange_legacy_token(&resp, ctx, NULL), FLICKR_EAPI);
    CHECK_EQ_INT(err()->api_code, 98);
    flickr_context_free(ctx);
    flickr_context_free(plain);
}

static void test_legacy_frob_flow(void) {
    flickr_context *ctx = sandbox_context(AUTH_NONE), *user;
    flickr_response *resp = NULL;
    char *frob = NULL, *url, *sig;
    struct page page;
    char auth_url[512];
    const char *vector[] = {"api_key", "1234567890", "foo", "1", "bar", "2", "baz", "3", NULL};
    const char *vector2[] = {"api_key", "KEY", "method", "flickr.photos.getRecent", "per_page", "1", NULL};

    sig = flickr_auth_api_sig("SECRET", vector);
    CHECK_EQ_STR(sig, "0a55ae496d1db08f39deb5d894ae3849");
    flickr_free(sig);
    sig = flickr_auth_api_sig("SECRET", vector2);
    CHECK_EQ_STR(sig, "bce3d1452288a969567418fd034097b1");
    flickr_free(sig);
    CHECK(flickr_auth_api_sig(NULL, vector) == NULL);
    CHECK(flickr_auth_api_sig("", vector) == NULL);

    sandbox_url(auth_url, sizeof auth_url, "/services/auth/");
    CHECK_EQ_INT(flickr_context_set_string(ctx, FLICKR_OPT_AUTH_ENDPOINT, auth_url), FLICKR_OK);
    CHECK_EQ_INT(flickr_auth_get_frob(&frob, ctx), FLICKR_OK);
    CHECK(frob != NULL && strlen(frob) > 10);
    if (frob == NULL) {
        fprintf(stderr, "  getFrob: %s\n", err()->message);
        flickr_context_free(ctx);
        return;
    }
    /* Not approved yet. */
    CHECK_EQ_INT(flickr_auth_get_token(&resp, ctx, frob), FLICKR_EAPI);
    CHECK_EQ_INT(err()->api_code, 108);

    CHECK(flickr_auth_login_url(ctx, frob, "admin") == NULL);
    CHECK_EQ_INT(err()->code, FLICKR_EINVAL);
    CHECK(flickr_auth_login_url(ctx, NULL, "read") == NULL);
    url = flickr_auth_login_url(ctx, frob, "write");
    CHECK(contains(url, auth_url));
    CHECK(contains(url, "api_sig="));
    CHECK(contains(url, "perms=write"));
    browse(url, &page);
    flickr_free(url);
    CHECK_EQ_INT(page.status, 200);
    CHECK(contains(page.body, "successfully authorized"));

    CHECK_EQ_INT(flickr_auth_get_token(&resp, ctx, frob), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "auth.perms"), "write");
    CHECK_EQ_STR(str(resp, "auth.user.nsid"), "12037949@N00");
    CHECK_EQ_STR(str(resp, "auth.user.username"), "sandbox");
    user = sandbox_context(AUTH_NONE);
    if (resp && str(resp, "auth.token")) {
        CHECK_EQ_INT(flickr_context_set_string(user, FLICKR_OPT_AUTH_TOKEN, str(resp, "auth.token")), FLICKR_OK);
    }
    flickr_response_free(resp);
    CHECK_EQ_INT(flickr_call(&resp, user, "flickr.test.login", NULL, FLICKR_GET), FLICKR_OK);
    CHECK_EQ_STR(str(resp, "user.id"), "12037949@N00");
    flickr_response_free(resp);
    /* A frob is single use. */
    CHECK_EQ_INT(flickr_auth_get_token(&resp, ctx, frob), FLICKR_EAPI);
    CHECK_EQ_INT(err()->api_code, 108);
    flickr_free(frob);

    /* Declined (the sandbox's test flag is signed like every parameter of the page). */
    CHECK_EQ_INT(flickr_auth_get_frob(&frob, ctx), FLICKR_OK);
    {
        char full[1024];
        const char *signed_params[] = {"api_key", sandbox_env("FLICKR_SANDBOX_API_KEY"), "perms", "read", "frob", frob,
                                       "sandbox_deny", "1", NULL};
        sig = flickr_auth_api_sig(sandbox_env("FLICKR_SANDBOX_API_SECRET"), signed_params);
        snprintf(full, sizeof full, "%s?api_key=%s&perms=read&frob=%s&sandbox_deny=1&api_sig=%s", auth_url,
                 sandbox_env("FLICKR_SANDBOX_API_KEY"), frob, sig ? sig : "");
        flickr_free(sig);
        browse(full, &page);
    }
    CHECK(contains(page.body, "declined"));
    CHECK_EQ_INT(flickr_auth_get_token(&resp, ctx, frob), FLICKR_EAPI);
    flickr_free(frob);

    CHECK_EQ_INT(flickr_auth_get_frob(NULL, ctx), FLICKR_EINVAL);
    CHECK_EQ_INT(flickr_auth_get_frob(&frob, NULL), FLICKR_EINVAL);
    CHECK(frob == NULL);
    CHECK_EQ_INT(flickr_auth_get_token(&resp, ctx, NULL), FLICKR_EINVAL);
    flickr_context_free(user);
    flickr_context_free(ctx);
}

int main(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
    test_parse_callback();
    test_argument_validation();
    test_full_flow(0);
    test_full_flow(1);
    test_request_token_ignores_context_token();
    test_oob();
    test_access_token_failures();
    test_denied_and_wrong_perms();
    test_check_token_failures();
    test_legacy_frob_flow();
    test_exchange_legacy_token(); /* last: it retires the seeded legacy token */
    curl_global_cleanup();
    TEST_MAIN_END();
}
