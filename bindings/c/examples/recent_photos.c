/* SPDX-License-Identifier: MIT */
/* Prints the most recent public photos with their image and page URLs, like
 * ObjectiveFlickr's RandomPublicPhoto sample: flickr.photos.getRecent, no login.
 *
 *   recent_photos [COUNT]
 *
 * Credentials and endpoint from the environment (see example_env.h). */
#include "example_env.h"

int main(int argc, char **argv) {
    const char *count = argc > 1 ? argv[1] : "5";
    const char *params[] = {"per_page", count, "extras", "owner_name,date_upload", NULL};
    flickr_context *ctx = example_context(0);
    flickr_response *resp = NULL;
    const flickr_value *photos;
    size_t i, n;

    if (flickr_call(&resp, ctx, "flickr.photos.getRecent", params, FLICKR_GET) != FLICKR_OK) {
        example_fail("flickr.photos.getRecent");
        flickr_context_free(ctx);
        return 1;
    }
    photos = flickr_value_get(flickr_response_root(resp), "photos.photo");
    n = flickr_value_count(photos);
    printf("%zu recent photos (of %s):\n", n,
           flickr_value_string(flickr_value_get(flickr_response_root(resp), "photos.total")));
    for (i = 0; i < n; i++) {
        const flickr_value *photo = flickr_value_at(photos, i);
        char *image = flickr_photo_source_url(photo, "m");
        char *page = flickr_photo_page_url(photo);
        char *short_url = flickr_photo_short_url(flickr_value_string(flickr_value_get(photo, "id")));
        printf("- \"%s\" by %s\n  image: %s\n  page:  %s\n  short: %s\n",
               flickr_value_string(flickr_value_get(photo, "title")),
               flickr_value_string(flickr_value_get(photo, "ownername")), image ? image : "(none)",
               page ? page : "(none)", short_url ? short_url : "(none)");
        flickr_free(image);
        flickr_free(page);
        flickr_free(short_url);
    }
    flickr_response_free(resp);
    flickr_context_free(ctx);
    return 0;
}
