/* SPDX-License-Identifier: MIT */
/* What the upload tests share: photo-like payloads, their SHA-256, files, the sandbox's count. */
#ifndef FLICKR_TEST_UPLOAD_FILES_H
#define FLICKR_TEST_UPLOAD_FILES_H
#include <flickr.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>

/* A JPEG-looking payload: the sandbox sniffs the magic bytes, the rest is a pattern. */
static inline void fill_photo(unsigned char *data, size_t len, unsigned seed) {
    size_t i;
    for (i = 0; i < len; i++) data[i] = (unsigned char)(i * 31u + seed);
    if (len >= 4) {
        data[0] = 0xFF;
        data[1] = 0xD8;
        data[2] = 0xFF;
        data[3] = 0xE0;
    }
}

static inline void sha256_hex(const unsigned char *data, size_t len, char out[65]) {
    unsigned char digest[32];
    unsigned int n = 0, i;
    EVP_Digest(data, len, digest, &n, EVP_sha256(), NULL);
    for (i = 0; i < 32; i++) sprintf(out + 2 * i, "%02x", digest[i]);
}

static inline void write_file(const char *path, const unsigned char *data, size_t len) {
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len) exit(2);
    fclose(f);
}

/* The photo id of an upload answer, or NULL. */
static inline const char *photo_id(const flickr_response *resp) {
    return flickr_value_string(flickr_value_get(flickr_response_root(resp), "photoid"));
}

/* How many photos the sandbox holds for this user. */
static inline int photo_total(flickr_context *ctx) {
    const char *params[] = {"user_id", "me", "per_page", "1", NULL};
    flickr_response *resp = NULL;
    int total = -1;
    if (flickr_call(&resp, ctx, "flickr.photos.search", params, FLICKR_GET) == FLICKR_OK)
        total = atoi(flickr_value_string(flickr_value_get(flickr_response_root(resp), "photos.total")));
    flickr_response_free(resp);
    return total;
}

#endif
