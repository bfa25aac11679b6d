/* SPDX-License-Identifier: MIT */
/* Test helpers: contexts pointed at the sandbox started by with_sandbox.py. */
#ifndef FLICKR_TEST_SANDBOX_ENV_H
#define FLICKR_TEST_SANDBOX_ENV_H

#include <flickr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *sandbox_env(const char *name) {
    const char *value = getenv(name);
    if (value == NULL) {
        fprintf(stderr, "%s is not set: run this test through with_sandbox.py\n", name);
        exit(2);
    }
    return value;
}

/* The sandbox endpoint for `path` ("/services/rest/"), in a static buffer per call site. */
static void sandbox_url(char *buffer, size_t size, const char *path) {
    snprintf(buffer, size, "%s%s", sandbox_env("FLICKR_SANDBOX_URL"), path);
}

enum sandbox_auth { AUTH_NONE, AUTH_OAUTH, AUTH_LEGACY };

static flickr_context *sandbox_context(enum sandbox_auth auth) {
    flickr_context *ctx = NULL;
    char url[512];
    if (flickr_context_new(&ctx, sandbox_env("FLICKR_SANDBOX_API_KEY"), sandbox_env("FLICKR_SANDBOX_API_SECRET")) !=
        FLICKR_OK) {
        fprintf(stderr, "flickr_context_new: %s\n", flickr_error_last()->message);
        exit(2);
    }
    /* One option points every endpoint (REST, upload, replace, OAuth, photos) at the sandbox. */
    sandbox_url(url, sizeof url, "");
    flickr_context_set_string(ctx, FLICKR_OPT_BASE_URL, url);
    if (getenv("FLICKR_SANDBOX_CA_FILE")) flickr_context_set_string(ctx, FLICKR_OPT_CA_FILE, getenv("FLICKR_SANDBOX_CA_FILE"));
    if (auth == AUTH_OAUTH) {
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN"));
        flickr_context_set_string(ctx, FLICKR_OPT_OAUTH_TOKEN_SECRET, sandbox_env("FLICKR_SANDBOX_OAUTH_TOKEN_SECRET"));
    } else if (auth == AUTH_LEGACY) {
        flickr_context_set_string(ctx, FLICKR_OPT_AUTH_TOKEN, sandbox_env("FLICKR_SANDBOX_AUTH_TOKEN"));
    }
    return ctx;
}

#endif
