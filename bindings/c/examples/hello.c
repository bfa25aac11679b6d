/* SPDX-License-Identifier: MIT */
/* The smallest libflickr program: check the header against the library, make a
 * context, show an option, and show how an error is reported. */
#include <flickr.h>
#include <stdio.h>

int main(void) {
    flickr_context *ctx = NULL;
    char *endpoint = NULL;

    printf("libflickr %s (built against headers %s)\n", flickr_version(), FLICKR_VERSION);
    if (flickr_version_number() >> 16 != FLICKR_VERSION_MAJOR) {
        fprintf(stderr, "library and headers disagree on the major version\n");
        return 1;
    }
    if (flickr_context_new(&ctx, "demo-key", "demo-secret") != FLICKR_OK) {
        fprintf(stderr, "context: %s\n", flickr_error_last()->message);
        return 1;
    }
    if (flickr_context_get_string(&endpoint, ctx, FLICKR_OPT_REST_ENDPOINT) == FLICKR_OK) {
        printf("REST endpoint: %s\n", endpoint);
        flickr_free(endpoint);
    }
    if (flickr_context_set_long(ctx, FLICKR_OPT_TIMEOUT_MS, -5) != FLICKR_OK) {
        const flickr_error *err = flickr_error_last();
        printf("refused as expected: %s (%s)\n", err->message, flickr_strerror(err->code));
    }
    flickr_context_free(ctx);
    return 0;
}
