/* SPDX-License-Identifier: MIT */
/* What the examples share: a context configured from the environment, so the
 * same programs run against the real Flickr or a local sandbox:
 *   FLICKR_API_KEY, FLICKR_API_SECRET          the application's credentials
 *   FLICKR_OAUTH_TOKEN, FLICKR_OAUTH_TOKEN_SECRET  a user's access token (optional)
 *   FLICKR_ENDPOINT   base URL of a Flickr-compatible server (optional; e.g. the sandbox)
 *   FLICKR_CA_FILE    CA certificates to trust (optional; e.g. a TLS sandbox's) */
#ifndef FLICKR_EXAMPLE_ENV_H
#define FLICKR_EXAMPLE_ENV_H

#include <flickr.h>
#include <stdio.h>
#include <stdlib.h>

/* A context from the environment; exits with a message when it cannot be made. */
static flickr_context *example_context(int need_user) {
    const char *key = getenv("FLICKR_API_KEY"), *secret = getenv("FLICKR_API_SECRET");
    const char *token = getenv("FLICKR_OAUTH_TOKEN"), *token_secret = getenv("FLICKR_OAUTH_TOKEN_SECRET");
    const char *base = getenv("FLICKR_ENDPOINT"), *ca = getenv("FLICKR_CA_FILE");
    flickr_context *ctx = NULL;
    int rc;
    if (!key || !secret) {
        fprintf(stderr, "set FLICKR_API_KEY and FLICKR_API_SECRET (and FLICKR_ENDPOINT for a sandbox)\n");
        exit(2);
    }
    if (need_user && (!token || !token_secret)) {
        fprintf(stderr, "set FLICKR_OAUTH_TOKEN and FLICKR_OAUTH_TOKEN_SECRET (see the oauth_login example)\n");
        exit(2);
    }
    rc = flickr_context_new(&ctx, key, secret);
    /* One option points every endpoint (REST, upload, replace, OAuth, photos) at the server. */
    if (rc == FLICKR_OK && base) rc = flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, base);
    if (rc == FLICKR_OK && ca) rc = flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, ca);
    if (rc == FLICKR_OK && token && token_secret) {
        rc = flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, token);
        if (rc == FLICKR_OK) rc = flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, token_secret);
    }
    if (rc != FLICKR_OK) {
        fprintf(stderr, "configuration: %s\n", flickr_error_last()->message);
        flickr_context_free(ctx);
        exit(2);
    }
    return ctx;
}

/* Prints the calling thread's last error. */
static void example_fail(const char *what) {
    const flickr_error *err = flickr_error_last();
    fprintf(stderr, "%s failed: %s (%s", what, err->message, flickr_strerror(err->code));
    if (err->api_code) fprintf(stderr, ", Flickr error %d", err->api_code);
    if (err->http_status) fprintf(stderr, ", HTTP %d", err->http_status);
    fprintf(stderr, ")\n");
}

#endif
