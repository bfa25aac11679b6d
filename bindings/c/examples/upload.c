/* SPDX-License-Identifier: MIT */
/* Uploads a photo with a live progress bar, then sets its title and description
 * with flickr.photos.setMeta (POST), as ObjectiveFlickr's SnapAndRun did.
 *
 *   upload PHOTO [TITLE]
 *
 * Credentials and endpoint from the environment (see example_env.h). */
#include <string.h>

#include "example_env.h"

/* Redraws one line: [#####.....] 42% 12.3/29.0 MB. Called about ten times a second. */
static int show_progress(int64_t sent, int64_t total, void *userdata) {
    const int width = 30;
    int filled = (int)(sent * width / (total ? total : 1)), i;
    (void)userdata;
    fprintf(stderr, "\r[");
    for (i = 0; i < width; i++) fputc(i < filled ? '#' : '.', stderr);
    fprintf(stderr, "] %3d%% %.1f/%.1f MB", (int)(sent * 100 / (total ? total : 1)), sent / 1e6, total / 1e6);
    if (sent == total) fprintf(stderr, "\nwaiting for Flickr...\n");
    return 0; /* non-zero would cancel the upload */
}

int main(int argc, char **argv) {
    flickr_context *ctx;
    flickr_response *resp = NULL, *meta = NULL;
    const char *title = argc > 2 ? argv[2] : "Uploaded with libflickr";
    const char *upload_args[] = {"is_public", "0", "tags", "libflickr example", NULL};
    const char *photo_id;
    char *page = NULL;
    int status = 1;

    if (argc < 2) {
        fprintf(stderr, "usage: %s PHOTO [TITLE]\n", argv[0]);
        return 2;
    }
    ctx = example_context(1);
    if (flickr_upload_file(&resp, ctx, argv[1], upload_args, show_progress, NULL) != FLICKR_OK) {
        example_fail("upload");
        goto done;
    }
    photo_id = flickr_value_string(flickr_value_get(flickr_response_root(resp), "photoid"));
    printf("uploaded photo %s\n", photo_id);

    {
        const char *params[] = {"photo_id", photo_id, "title", title, "description", "Sent from bindings/c/examples",
                                NULL};
        if (flickr_call(&meta, ctx, "flickr.photos.setMeta", params, FLICKR_POST) != FLICKR_OK) {
            example_fail("flickr.photos.setMeta");
            goto done;
        }
    }
    {
        const char *params[] = {"photo_id", photo_id, NULL};
        flickr_response_free(meta);
        meta = NULL;
        if (flickr_call(&meta, ctx, "flickr.photos.getInfo", params, FLICKR_GET) != FLICKR_OK) {
            example_fail("flickr.photos.getInfo");
            goto done;
        }
        page = flickr_photo_page_url(flickr_value_get(flickr_response_root(meta), "photo"));
        printf("title: %s\npage: %s\n",
               flickr_value_string(flickr_value_get(flickr_response_root(meta), "photo.title")), page);
    }
    status = 0;
done:
    flickr_free(page);
    flickr_response_free(meta);
    flickr_response_free(resp);
    flickr_context_free(ctx);
    return status;
}
