/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/photos.h
 * @brief Photo image, page and short URLs.
 */
#ifndef FLICKR_PHOTOS_H
#define FLICKR_PHOTOS_H

#include "response.h"

FLICKR_BEGIN_DECLS

/**
 * @brief The image URL of a photo at a size, on live.staticflickr.com.
 *
 * Sizes: "s" 75 square, "q" 150 square, "t" 100, "m" 240, "n" 320, "w" 400,
 * "" 500, "z" 640, "c" 800, "b" 1024 (these use the photo's `id`, `secret`
 * and `server`); "h" 1600, "k" 2048, "3k", "4k", "5k", "6k" (these have their
 * own secrets: they come from the photo's `url_h`... attributes, requested
 * with extras=url_h...); "o" the original (`originalsecret` and
 * `originalformat`, or `url_o`).
 *
 * @param photo       a photo object (from photos.photo.N of a list, or photo of getInfo).
 * @param size_suffix one of the sizes above.
 * @return a new URL; free it with flickr_free(). NULL with FLICKR_EINVAL (message naming what is
 *         missing) when the photo lacks what the size needs or the size is unknown.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_photo_source_url(const flickr_value *photo, const char *size_suffix);

/**
 * @brief The photo's page, https://www.flickr.com/photos/{path alias or owner NSID}/{id}/.
 * @param photo a photo object.
 * @return a new URL; free it with flickr_free(). NULL with FLICKR_EINVAL when id or owner is missing.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_photo_page_url(const flickr_value *photo);

/**
 * @brief The photo's short URL, https://flic.kr/p/{base58 id}.
 * @param photo_id a decimal photo id.
 * @return a new URL; free it with flickr_free(). NULL with FLICKR_EINVAL for a non-numeric id.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_photo_short_url(const char *photo_id);

FLICKR_END_DECLS

#endif /* FLICKR_PHOTOS_H */
