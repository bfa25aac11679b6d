/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/upload.h
 * @brief Uploading and replacing photos: streamed, with progress and cancel.
 *
 * The photo is never copied into memory or a temporary file: the multipart
 * body is produced as it is sent, with the photo's bytes read from their
 * source (a file, a buffer, or a read callback) as the network takes them, so
 * memory use stays constant whatever the size. Every field but `photo` is
 * signed (OAuth 1.0a with the context's token, or the legacy api_sig); an
 * upload needs one of the two (FLICKR_ESTATE otherwise).
 *
 * Upload arguments go in `params` like call parameters: title, description,
 * tags (space-separated), is_public, is_friend, is_family, safety_level,
 * content_type, hidden, async (1: answer at once with a ticket), and any
 * other key, passed through. `photo`, `photo_id` and the credentials are set
 * by the library and refused there.
 *
 * Answers: `<photoid secret=".." originalsecret="..">ID</photoid>` mapped as
 * usual (`photoid._text` is the id), or `<ticketid>` for async uploads (see
 * flickr_upload_wait_ticket()). Flickr's upload errors (2 no photo, 3 general
 * failure, 4 empty file, 5 unknown file type, 6 limit reached...) come back as
 * FLICKR_EAPI with Flickr's code. Uploads have no total time limit; see
 * FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS and FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS.
 * They are never retried automatically.
 */
#ifndef FLICKR_UPLOAD_H
#define FLICKR_UPLOAD_H

#include "client.h"

FLICKR_BEGIN_DECLS

/** @brief An opaque description of where a photo's bytes come from; release with flickr_upload_source_free(). */
typedef struct flickr_upload_source flickr_upload_source;

/**
 * @brief Reports upload progress; return non-zero to abort (the upload then fails with FLICKR_EABORTED).
 *
 * Called on the thread that runs the upload — the calling thread for
 * flickr_upload() and the other synchronous functions, the context's worker
 * thread for the _async ones — at most about ten times a second,
 * with counts that never decrease, and always once more with sent == total
 * when the whole body has gone out.
 *
 * Nothing is lost either way: an upload reported as FLICKR_EABORTED never sent its last
 * bytes, so Flickr has no photo from it. Once the whole body has been handed to the
 * network (always the case at sent == total) the server may already be storing the photo,
 * so a non-zero return is ignored: the call waits for the answer and reports it, photo id
 * included. (flickr_request_cancel() is not held back like this: cancelled after the whole
 * body went out, an upload may still have created a photo, and its message says so.)
 *
 * @param sent     body bytes sent so far.
 * @param total    the body's total size (the photo plus the multipart fields).
 * @param userdata the pointer given with the callback, untouched.
 */
typedef int (*flickr_progress_fn)(int64_t sent, int64_t total, void *userdata);

/**
 * @brief Supplies a stream's next bytes, on the thread that runs the upload (see flickr_progress_fn).
 * @param buffer   where to write.
 * @param capacity at most this many bytes.
 * @param userdata the pointer given with the stream, untouched.
 * @return the number of bytes written (1..capacity); 0 only at the end; negative to fail
 *         (the upload then fails with FLICKR_EIO). Ending before the declared length is FLICKR_EIO.
 */
typedef int64_t (*flickr_read_fn)(void *buffer, size_t capacity, void *userdata);

/**
 * @brief A source reading a file, opened here, once.
 *
 * The file is opened now (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, so that a FIFO or a
 * device named by mistake cannot block the call), checked through that descriptor to be a
 * regular file, and every upload of the source reads that descriptor: what the path names later
 * (another file renamed over it, a FIFO) does not matter. The source holds the descriptor until
 * it is freed and the uploads using it have ended. Each upload sends the file's size at its
 * start; a file that shrinks or changes while it is being sent fails that upload with FLICKR_EIO
 * before its last bytes go, so Flickr gets no photo from it.
 *
 * @param[out] out receives the source; release with flickr_upload_source_free(). NULL on failure.
 * @param path     a readable regular file: bytes as the OS takes them (a file name need not be
 *                 UTF-8), NUL-terminated, non-empty. Its last component is the default file name,
 *                 sent as UTF-8 text: bytes that are not UTF-8 become U+FFFD, and `"`, `\` and
 *                 control characters are percent-encoded in the multipart header.
 * @return FLICKR_OK, FLICKR_EINVAL (NULL or empty path, a file larger than any upload), FLICKR_EIO
 *         (missing, unreadable, not a regular file) or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_source_new_file(flickr_upload_source **out, const char *path);

/**
 * @brief A source reading a caller's buffer, which is not copied.
 * @param[out] out  receives the source; release with flickr_upload_source_free().
 * @param data      the bytes; borrowed: they must stay valid and unchanged until every upload
 *                  using this source has ended. May be NULL only when len is 0.
 * @param len       their number.
 * @param filename  the file name to send (also used to guess the MIME type), or NULL for "photo".
 * @return FLICKR_OK, FLICKR_EINVAL or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_source_new_buffer(flickr_upload_source **out, const void *data, size_t len,
                                               const char *filename);

/**
 * @brief A source reading from a callback, for data that is not in a file or in memory.
 *
 * A stream can be sent only once (a redirect or reconnect that would need to
 * resend it fails the upload).
 *
 * @param[out] out  receives the source; release with flickr_upload_source_free().
 * @param read      called for the bytes while an upload sends them.
 * @param length    the exact number of bytes the stream will supply (it goes in Content-Length).
 * @param userdata  passed to read untouched; must stay valid until the upload ends.
 * @param filename  the file name to send, or NULL for "photo".
 * @return FLICKR_OK, FLICKR_EINVAL (NULL read, negative length) or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_source_new_stream(flickr_upload_source **out, flickr_read_fn read, int64_t length,
                                               void *userdata, const char *filename);

/**
 * @brief Set the file name sent with the photo (and used to guess its MIME type).
 * @param src      the source.
 * @param filename UTF-8 without control characters, copied.
 * @return FLICKR_OK, FLICKR_EINVAL, or FLICKR_ESTATE while another thread changes the same source.
 * @note Added in 0.1. Uploads of the source in progress keep the name and type they started with
 *       or take the new one; two threads changing one source at once: the second call fails with
 *       FLICKR_ESTATE (since 0.5.0; docs/threading.md).
 */
FLICKR_API int flickr_upload_source_set_filename(flickr_upload_source *src, const char *filename);

/**
 * @brief Set the photo part's MIME type instead of guessing it from the file name's extension.
 * @param src       the source.
 * @param mime_type e.g. "image/jpeg"; copied.
 * @return FLICKR_OK, FLICKR_EINVAL, or FLICKR_ESTATE while another thread changes the same source.
 * @note Added in 0.1. Uploads of the source in progress keep the name and type they started with
 *       or take the new one; two threads changing one source at once: the second call fails with
 *       FLICKR_ESTATE (since 0.5.0; docs/threading.md).
 */
FLICKR_API int flickr_upload_source_set_mime_type(flickr_upload_source *src, const char *mime_type);

/**
 * @brief Release a source. Uploads already started with it keep what they need.
 * @param src the source; if NULL, nothing happens.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API void flickr_upload_source_free(flickr_upload_source *src);

/**
 * @brief Upload a photo and wait for the answer.
 * @param[out] out  receives the response (photoid or ticketid); release with flickr_response_free().
 * @param ctx       the context; must hold an OAuth token and secret, or a legacy auth token.
 * @param src       where the photo comes from.
 * @param params    upload arguments: NULL-terminated key, value, ..., NULL; NULL means none.
 * @param progress  called as the body goes out; may be NULL.
 * @param userdata  passed to progress untouched.
 * @return FLICKR_OK; FLICKR_EAPI with Flickr's upload error code; FLICKR_EABORTED when progress
 *         returned non-zero; FLICKR_EIO when the source failed; FLICKR_ESTATE without credentials;
 *         FLICKR_ETIMEOUT for an idle or answer-wait limit; transport codes as for flickr_call().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload(flickr_response **out, flickr_context *ctx, flickr_upload_source *src,
                             const char *const *params, flickr_progress_fn progress, void *userdata);

/**
 * @brief Replace a photo's image and wait for the answer.
 * @param photo_id the decimal id of a photo of the authenticated user.
 * Other parameters and results as for flickr_upload(); replace accepts `async` among params.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_replace(flickr_response **out, flickr_context *ctx, flickr_upload_source *src,
                              const char *photo_id, const char *const *params, flickr_progress_fn progress,
                              void *userdata);

/**
 * @brief Start an upload and return at once; it ends like a call started with flickr_call_async().
 *
 * flickr_request_cancel() stops it mid-body; nothing is left behind (no
 * partial state is kept; a file source's descriptor is closed once the source is freed too).
 *
 * @param[out] out  receives the request; release with flickr_request_free().
 * @param progress  may be NULL; @param done may be NULL; both receive userdata.
 * Other parameters as for flickr_upload().
 * @return FLICKR_OK, or an error found before starting (FLICKR_EINVAL, FLICKR_ESTATE...).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_async(flickr_request **out, flickr_context *ctx, flickr_upload_source *src,
                                   const char *const *params, flickr_progress_fn progress, flickr_done_fn done,
                                   void *userdata);

/**
 * @brief Start a replace and return at once (see flickr_upload_async()).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_replace_async(flickr_request **out, flickr_context *ctx, flickr_upload_source *src,
                                    const char *photo_id, const char *const *params, flickr_progress_fn progress,
                                    flickr_done_fn done, void *userdata);

/**
 * @brief Upload a file: flickr_upload() with a file source.
 * @param path a readable regular file, bytes as the OS takes them; opened once, as by
 *             flickr_upload_source_new_file(); its name is sent as the file name.
 * Other parameters and results as for flickr_upload().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_file(flickr_response **out, flickr_context *ctx, const char *path,
                                  const char *const *params, flickr_progress_fn progress, void *userdata);

/**
 * @brief Replace a photo with a file: flickr_replace() with a file source.
 * @param path as for flickr_upload_file().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_replace_file(flickr_response **out, flickr_context *ctx, const char *path,
                                   const char *photo_id, const char *const *params, flickr_progress_fn progress,
                                   void *userdata);

/**
 * @brief Upload from memory: flickr_upload() with a buffer source (not copied; valid during the call).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_buffer(flickr_response **out, flickr_context *ctx, const void *data, size_t len,
                                    const char *filename, const char *const *params, flickr_progress_fn progress,
                                    void *userdata);

/**
 * @brief Replace from memory: flickr_replace() with a buffer source.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_replace_buffer(flickr_response **out, flickr_context *ctx, const void *data, size_t len,
                                     const char *filename, const char *photo_id, const char *const *params,
                                     flickr_progress_fn progress, void *userdata);

/**
 * @brief Upload from a read callback: flickr_upload() with a stream source. userdata goes to
 *        both read and progress.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_upload_stream(flickr_response **out, flickr_context *ctx, flickr_read_fn read,
                                    int64_t length, const char *filename, const char *const *params,
                                    flickr_progress_fn progress, void *userdata);

/**
 * @brief Replace from a read callback: flickr_replace() with a stream source.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_replace_stream(flickr_response **out, flickr_context *ctx, flickr_read_fn read,
                                     int64_t length, const char *filename, const char *photo_id,
                                     const char *const *params, flickr_progress_fn progress, void *userdata);

/**
 * @brief Wait for an asynchronous upload's ticket: polls flickr.photos.upload.checkTickets,
 *        backing off from 250 ms to 5 s between polls, until it completes or fails.
 * @param[out] photo_id_out receives the new photo's id; free it with flickr_free().
 * @param ctx         the context.
 * @param ticket_id   the ticket from the upload's `ticketid`.
 * @param timeout_ms  give up after this long (FLICKR_ETIMEOUT).
 * @return FLICKR_OK; FLICKR_EAPI when the ticket failed or is unknown; FLICKR_ETIMEOUT; call errors.
 * @note Added in 0.1. Thread-safe. Blocks; not from a done callback of the same context (FLICKR_ESTATE).
 */
FLICKR_API int flickr_upload_wait_ticket(char **photo_id_out, flickr_context *ctx, const char *ticket_id,
                                         long timeout_ms);

FLICKR_END_DECLS

#endif /* FLICKR_UPLOAD_H */
