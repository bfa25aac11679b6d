/* SPDX-License-Identifier: MIT */
/* A complete OAuth 1.0a login with libflickr, then an authenticated call.
 *
 *   FLICKR_API_KEY=... FLICKR_API_SECRET=... [FLICKR_ENDPOINT=http://127.0.0.1:8080] oauth_login [--oob] [perms]
 *
 * 1. gets a request token (for a callback URL, or "oob");
 * 2. prints the URL where the user approves the application;
 * 3. reads, from stdin, the URL the browser was sent back to (the callback; its page
 *    need not load, copy it from the address bar), or with --oob the verifier Flickr shows;
 * 4. exchanges the request token for an access token, sets it on the context
 *    (the library never does this by itself) and calls flickr.test.login.
 *
 * FLICKR_ENDPOINT points every service at a Flickr-compatible server, such as the
 * sandbox (python -m flickr_sandbox). Uses only <flickr.h>. */
#include <flickr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLBACK_URL "http://127.0.0.1/oauth-callback"

static int fail(const char *what) {
    const flickr_error *err = flickr_error_last();
    fprintf(stderr, "%s failed: %s (%s)\n", what, err->message, flickr_strerror(err->code));
    return 1;
}

static const char *field(const flickr_response *resp, const char *path) {
    const char *value = flickr_value_string(flickr_value_get(flickr_response_root(resp), path));
    return value ? value : "";
}

/* Points every endpoint at base (e.g. "http://127.0.0.1:8080"). */
static int use_endpoint(flickr_context *ctx, const char *base) {
    return flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, base) == FLICKR_OK ? 0 : -1;
}

/* One line from stdin without its line end; 0 at end of input. */
static int read_line(char *buffer, size_t size) {
    size_t len;
    if (fgets(buffer, (int)size, stdin) == NULL) return 0;
    len = strlen(buffer);
    while (len > 0 && (buffer[len - 1] == '\n' || buffer[len - 1] == '\r' || buffer[len - 1] == ' ')) {
        buffer[--len] = '\0';
    }
    return 1;
}

int main(int argc, char **argv) {
    const char *key = getenv("FLICKR_API_KEY"), *secret = getenv("FLICKR_API_SECRET");
    const char *endpoint = getenv("FLICKR_ENDPOINT"), *perms = "read";
    flickr_context *ctx = NULL;
    flickr_response *resp = NULL;
    char request_token[256], request_secret[256], line[2048];
    char *url, *token = NULL, *verifier = NULL;
    int oob = 0, i, status = 1;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--oob") == 0) {
            oob = 1;
        } else {
            perms = argv[i];
        }
    }
    if (key == NULL || secret == NULL) {
        fprintf(stderr, "set FLICKR_API_KEY and FLICKR_API_SECRET\n");
        return 2;
    }
    if (flickr_context_new(&ctx, key, secret) != FLICKR_OK) return fail("flickr_context_new");
    if (endpoint != NULL && use_endpoint(ctx, endpoint) != 0) {
        status = fail("setting the endpoints");
        goto done;
    }

    /* 1. Request token. */
    if (flickr_oauth_request_token(&resp, ctx, oob ? "oob" : CALLBACK_URL) != FLICKR_OK) {
        status = fail("getting a request token");
        goto done;
    }
    snprintf(request_token, sizeof request_token, "%s", field(resp, "oauth_token"));
    snprintf(request_secret, sizeof request_secret, "%s", field(resp, "oauth_token_secret"));
    flickr_response_free(resp);
    resp = NULL;

    /* 2. The user approves in a browser. */
    url = flickr_oauth_authorize_url(ctx, request_token, perms);
    if (url == NULL) {
        status = fail("building the authorize URL");
        goto done;
    }
    printf("Open this URL in a browser and approve the application:\n%s\n", url);
    printf(oob ? "Then type the code Flickr shows:\n" : "Then paste the URL the browser was sent to:\n");
    fflush(stdout);
    flickr_free(url);

    /* 3. The callback URL (or the verifier). */
    if (!read_line(line, sizeof line)) {
        fprintf(stderr, "no input\n");
        goto done;
    }
    if (oob) {
        verifier = NULL;
    } else if (flickr_oauth_parse_callback(line, &token, &verifier) != FLICKR_OK) {
        status = fail("reading the callback URL");
        goto done;
    } else if (strcmp(token, request_token) != 0) {
        fprintf(stderr, "the callback is for another request token\n");
        goto done;
    }

    /* 4. Access token, installed on the context by the application. */
    if (flickr_oauth_access_token(&resp, ctx, request_token, request_secret, oob ? line : verifier) != FLICKR_OK) {
        status = fail("getting the access token");
        goto done;
    }
    printf("Authorized as %s (%s, %s)\n", field(resp, "username"), field(resp, "fullname"), field(resp, "user_nsid"));
    if (flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, field(resp, "oauth_token")) != FLICKR_OK ||
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, field(resp, "oauth_token_secret")) != FLICKR_OK) {
        status = fail("setting the token");
        goto done;
    }
    /* A real application would now store oauth_token and oauth_token_secret safely. */
    flickr_response_free(resp);
    resp = NULL;

    if (flickr_call(&resp, ctx, "flickr.test.login", NULL, FLICKR_GET) != FLICKR_OK) {
        status = fail("flickr.test.login");
        goto done;
    }
    printf("flickr.test.login: logged in as %s (%s)\n", field(resp, "user.username"), field(resp, "user.id"));
    status = 0;

done:
    flickr_response_free(resp);
    flickr_free(token);
    flickr_free(verifier);
    flickr_context_free(ctx);
    return status;
}
