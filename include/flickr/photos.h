/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/photos.h
 * @brief Photo image, page and short URLs, and images fetched through a bounded on-disk cache.
 */
#ifndef FLICKR_PHOTOS_H
#define FLICKR_PHOTOS_H

#include "client.h"

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
 * @brief The image URL of a photo at a size, on the context's FLICKR_OPT_PHOTO_ENDPOINT.
 *
 * flickr_photo_source_url() for the host the context downloads images from: the same as
 * flickr_photo_fetch() uses, so that URLs printed for a sandbox (FLICKR_OPT_BASE_URL) point at it.
 *
 * @param[out] out    receives a new URL; free it with flickr_free(). NULL on failure.
 * @param ctx         the context whose photo endpoint is used.
 * @param photo       a photo object, as for flickr_photo_source_url().
 * @param size_suffix a size, as for flickr_photo_source_url().
 * @return FLICKR_OK; FLICKR_EINVAL (message naming what is missing) when the photo lacks what the
 *         size needs, the size is unknown, or an argument is NULL.
 * @note Added in 0.4. Thread-safe. Makes no network access.
 */
FLICKR_API int flickr_photo_image_url(char **out, flickr_context *ctx, const flickr_value *photo,
                                      const char *size_suffix);

/**
 * @brief The ids in a Flickr URL, as an object of strings.
 *
 * Understands short links (https://flic.kr/p/{code}, /s/{code} for albums), photo pages
 * (https://www.flickr.com/photos/{user}/{id}/ with /in/{context}/ or /sizes/{size}/), static
 * image URLs of every size and host (live.staticflickr.com, farmN.staticflickr.com,
 * cN.staticflickr.com/{farm}/), albums and sets, galleries, favorites, groups (and a discussion
 * topic), people and tags; http or https, with or without "www.", query and fragment ignored.
 * The root object's `kind` is "photo", "image", "album", "gallery", "favorites", "group", "user"
 * or "tag"; the other members are those present of `photo_id`, `album_id`, `gallery_id`,
 * `topic_id`, `group`, `group_id` (an NSID), `user` (as written), `nsid` or `path_alias`,
 * `context`, `server`, `farm`, `secret`, `originalsecret`, `originalformat`, `size`, `format`, `tag`.
 *
 * @param[out] out receives the result; release with flickr_response_free(). NULL on failure.
 * @param url      the URL, UTF-8.
 * @return FLICKR_OK; FLICKR_EINVAL (message saying what was expected) for anything that is not
 *         one of these Flickr URLs.
 * @note Added in 0.4. Thread-safe. Makes no network access.
 */
FLICKR_API int flickr_url_parse(flickr_response **out, const char *url);

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

/**
 * @brief The local path of a photo's image at a size, downloaded only when it is not cached.
 *
 * The cache is a directory (FLICKR_OPT_PHOTO_CACHE_DIR) holding one file per image and size,
 * bounded in bytes (FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, default 10 MiB): after each download the
 * least recently used images are removed until it fits. A cached image is never downloaded
 * again; using it marks it as recently used. The image is streamed to a temporary file in the
 * cache directory and renamed into place once complete and checked, so no thread or process
 * ever sees a partial file. Threads and processes asking for the same image at once download
 * it once: the others wait for it. That wait is part of the call and bounded like the rest of
 * it: FLICKR_OPT_TIMEOUT_MS counts from the call's start, the wait included, and the interrupt
 * callback (flickr_context_set_interrupt()) is asked every 100 ms during it, so a holder that
 * never lets go (a process stopped with Ctrl-Z, a download that hangs) costs at most the time
 * limit; the same holds for the short wait for the directory's lock before the rename. The
 * download is a plain GET of the public image URL (no credentials are sent), with the
 * context's timeouts, retries, proxy and TLS settings.
 *
 * The directory may hold other files: the cache counts, touches and deletes only its own, named
 * `flickr-cache-{key}[-u{lastupdate}][-alt1|-alt2].{ext}`, where key is the image URL's Flickr
 * file name `{id}_{secret}[_{size}]` (digits, `_`, lowercase letters and digits) or `h` and 16
 * hex digits (a hash of any other URL), and ext one of jpg, jpeg, png, gif, webp, tif, tiff,
 * heic, avif, mp4, img; temporary files are `.{such a name}.{pid}.{random}.part` (one older than
 * an hour is a dead process's, removed); the lock file is `.flickr-cache.lock`. Every other file
 * is left alone, whatever its age or size. Symbolic links in the directory are never followed:
 * a link (or a directory) where an image would be is a miss, left in place, and the image is
 * stored under its `-alt1` name; a symbolic link as the lock file is an error. The directory
 * itself may be a link.
 *
 * A replaced photo keeps its URLs. The cache never serves an image this process knows is
 * outdated: after flickr_replace() (or its variants, through any context) of a photo, or a
 * completed flickr_upload_wait_ticket(), its images cached before (in any directory) are
 * downloaded again. A replace by another process or client is seen through the photo's last
 * update time, part of the file name when the photo carries it: `lastupdate` (lists with
 * extras=last_update), `last_update`, or `dates.lastupdate` (flickr.photos.getInfo).
 *
 * A photo known only by its id, secret and server can be made with
 * flickr_response_parse() of `<photo id="..." secret="..." server="..."/>` (its root is the photo).
 *
 * @param[out] path_out receives the image file's path, inside the cache directory (relative only when
 *                      that directory was set relative); free it with flickr_free(). NULL on failure. The file stays until evicted by a later download: open it
 *                      promptly (an open file stays readable after eviction).
 * @param ctx         the context.
 * @param photo       a photo object, as for flickr_photo_source_url().
 * @param size_suffix a size, as for flickr_photo_source_url() ("b" for 1024 px).
 * @return FLICKR_OK; FLICKR_EINVAL when the photo lacks what the size needs or the size is
 *         unknown; FLICKR_EHTTP for an HTTP error such as 404; FLICKR_EPARSE when the answer is
 *         not an image; FLICKR_ETOOBIG when the image is larger than the cache's bound (or
 *         FLICKR_OPT_MAX_RESPONSE_BYTES); FLICKR_EIO when the cache directory cannot be created or
 *         written (message from the system: not a directory, read-only, disk full...), its lock file
 *         is a symbolic link or not a regular file, or the image's name and both `-alt` names are
 *         taken by links or directories; FLICKR_ETIMEOUT also when another thread or process held
 *         the image's cache entry (or the directory's lock) until the time limit passed (the
 *         message names the entry, without the photo's secret); FLICKR_EABORTED when the interrupt
 *         callback said stop; FLICKR_ESTATE
 *         with no cache directory configured nor HOME set, or from a done callback of the same
 *         context; network codes as for flickr_call(). Nothing is cached on failure and no
 *         partial file is left.
 * @note Added in 0.2. Thread-safe; blocks the calling thread.
 */
FLICKR_API int flickr_photo_fetch(char **path_out, flickr_context *ctx, const flickr_value *photo,
                                  const char *size_suffix);

/**
 * @brief Start fetching a photo's image into the cache; returns at once.
 *
 * As flickr_photo_fetch(), but `done` runs on the context's worker thread when the image is on
 * disk (at once, still on that thread, when it was cached). Its response's root is an object:
 * `path` (the file), `url` (where it came from), `bytes` (its size), `cached` ("1" when no
 * download was needed, else "0"). Concurrent asynchronous fetches of the same image do not wait
 * for one another: each may download it, and the last rename wins (the files are the same).
 * The rename waits for the directory's lock (held for moments by another fetch's rename and
 * eviction) within the time limit; flickr_request_cancel() ends that wait at once. The wait
 * runs on the worker thread and holds up the context's other transfers while it lasts.
 *
 * @param[out] out receives the request; release it with flickr_request_free(). NULL on failure.
 * @param ctx         the context.
 * @param photo       a photo object; read before this returns (it may be freed afterwards).
 * @param size_suffix a size, as for flickr_photo_source_url().
 * @param done        called once when the fetch ends; may be NULL.
 * @param userdata    passed to `done`, untouched.
 * @return FLICKR_OK when started; FLICKR_EINVAL for a bad photo or size (nothing started);
 *         FLICKR_ESTATE with no cache directory. Later failures reach `done` and
 *         flickr_request_error().
 * @note Added in 0.2. Thread-safe.
 */
FLICKR_API int flickr_photo_fetch_async(flickr_request **out, flickr_context *ctx, const flickr_value *photo,
                                        const char *size_suffix, flickr_done_fn done, void *userdata);

FLICKR_END_DECLS

#endif /* FLICKR_PHOTOS_H */
