/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/context.h
 * @brief The context: API credentials, tokens, endpoints and transport settings.
 *
 * A context is what every call runs against. It is safe to share between
 * threads: setters and calls may run concurrently from any thread. A request
 * takes a snapshot of the settings when it starts, so changing an option
 * affects only requests started afterwards.
 */
#ifndef FLICKR_CONTEXT_H
#define FLICKR_CONTEXT_H

#include "common.h"

FLICKR_BEGIN_DECLS

/** @brief An opaque context; create with flickr_context_new(), release with flickr_context_free(). */
typedef struct flickr_context flickr_context;

/**
 * @brief Settings of a context.
 *
 * String options (set with flickr_context_set_string) are numbered from 1;
 * numeric options (set with flickr_context_set_long, or flickr_context_set_int64
 * for the full 64-bit range) from 100. Passing an
 * option to the setter of the other kind fails with FLICKR_EINVAL.
 * Values are never renumbered; new options are appended.
 * scripts/gen-header-tables.py copies the names and values into the library and
 * the Python binding, with each numeric option's range and default, which its
 * comment gives as "LOW to HIGH; default VALUE.": edit them here only, then run it.
 */
typedef enum flickr_option {
    /** REST endpoint URL (http or https). Default "https://api.flickr.com/services/rest/". */
    FLICKR_OPT_REST_ENDPOINT = 1,
    /** Upload endpoint URL. Default "https://up.flickr.com/services/upload/". */
    FLICKR_OPT_UPLOAD_ENDPOINT = 2,
    /** Replace endpoint URL. Default "https://up.flickr.com/services/replace/". */
    FLICKR_OPT_REPLACE_ENDPOINT = 3,
    /** Base URL of the OAuth endpoints request_token, authorize and access_token.
     *  Default "https://www.flickr.com/services/oauth/"; a missing final "/" is added. */
    FLICKR_OPT_OAUTH_ENDPOINT = 4,
    /** OAuth access token. With FLICKR_OPT_OAUTH_TOKEN_SECRET, calls are OAuth-signed. Default none. */
    FLICKR_OPT_OAUTH_TOKEN = 5,
    /** OAuth access token secret. Default none. Never appears in messages or logs. */
    FLICKR_OPT_OAUTH_TOKEN_SECRET = 6,
    /** Legacy (pre-OAuth) auth token; calls are then signed with api_sig. Default none. */
    FLICKR_OPT_AUTH_TOKEN = 7,
    /** User-Agent header. Default "libflickr/VERSION". No CR or LF allowed. */
    FLICKR_OPT_USER_AGENT = 8,
    /** Proxy URL, e.g. "http://proxy:3128" or "socks5h://host:1080". NULL (default) uses the
     *  usual proxy environment variables; "" disables any proxy, environment included. */
    FLICKR_OPT_PROXY = 9,
    /** PEM file of CA certificates trusted for TLS instead of the system's. Must be readable. */
    FLICKR_OPT_CA_FILE = 10,
    /** Legacy authentication (frob) endpoint. Default "https://www.flickr.com/services/auth/". */
    FLICKR_OPT_AUTH_ENDPOINT = 11,
    /** Directory of the photo cache used by flickr_photo_fetch(); created (mode 0700) when missing.
     *  Default "$XDG_CACHE_HOME/flickr/photos", else "$HOME/.cache/flickr/photos". Several
     *  contexts, threads and processes may share one directory. Added in 0.2. */
    FLICKR_OPT_PHOTO_CACHE_DIR = 12,
    /** Base URL of photo images for flickr_photo_fetch(): "{base}/{server}/{id}_{secret}_{size}.jpg".
     *  Default "https://live.staticflickr.com"; a sandbox's is "http://HOST:PORT/photos". Sizes with
     *  their own secret (h, k, 3k... and o with url_o) come from the photo's url_* attributes as they
     *  are. Added in 0.2. */
    FLICKR_OPT_PHOTO_ENDPOINT = 13,
    /** Points every endpoint at one server that serves Flickr's paths (a sandbox, a proxy, a
     *  recording server): setting "http://HOST:PORT" sets FLICKR_OPT_REST_ENDPOINT to
     *  "http://HOST:PORT/services/rest/", the upload, replace, OAuth and auth endpoints to
     *  ".../services/upload/", "/services/replace/", "/services/oauth/", "/services/auth/", and
     *  FLICKR_OPT_PHOTO_ENDPOINT to ".../photos" (final slashes of the value are dropped). An
     *  endpoint option set afterwards overrides its own endpoint; NULL restores all seven
     *  defaults. Reading it gives the last base set, or NULL. Added in 0.4. */
    FLICKR_OPT_BASE_URL = 14,

    /** Total time limit of one call in milliseconds, from the moment it starts: every attempt,
     *  retry back-off and rate-limit wait included, and a photo fetch's wait for the cache's locks (a retry or a rate-limit slot that would start
     *  past it is not waited for: the call fails with FLICKR_ETIMEOUT at once). Also checked while
     *  a compressed answer decodes. Uploads are bounded by the two upload limits below instead.
     *  0 means none. 0 to 86400000; default 30000. */
    FLICKR_OPT_TIMEOUT_MS = 100,
    /** Time limit for establishing a connection in milliseconds; 0 means the transport's own.
     *  0 to 600000; default 10000. */
    FLICKR_OPT_CONNECT_TIMEOUT_MS = 101,
    /** Largest response body accepted, in bytes; a larger one fails with FLICKR_ETOOBIG.
     *  1024 to 2^40; default 33554432 (32 MiB). */
    FLICKR_OPT_MAX_RESPONSE_BYTES = 102,
    /** 1: send OAuth parameters in an "Authorization: OAuth" header; 0: in the query (GET) or
     *  form body (POST). 0 to 1; default 0. */
    FLICKR_OPT_OAUTH_IN_HEADER = 103,
    /** Uploads: fail when no byte has moved for this many milliseconds while the body is being
     *  sent; 0 means never. Uploads have no total time limit. 0 to 86400000; default 60000. */
    FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS = 104,
    /** Uploads: fail when no answer has come this many milliseconds after the last byte was sent
     *  (Flickr can take long to process a large file); 0 means never.
     *  0 to 86400000; default 300000. */
    FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS = 105,
    /** How many times a request is retried after a passing failure: a connection failure or
     *  timeout, HTTP 429/500/502/503/504, or Flickr error 105. Only GET calls are retried unless
     *  FLICKR_OPT_RETRY_POST is set. 0 to 10; default 3. */
    FLICKR_OPT_MAX_RETRIES = 106,
    /** First wait before a retry, in milliseconds; it doubles with each retry (with jitter, at
     *  most 30 s). A Retry-After answer is honoured up to 120 s (longer: no retry).
     *  0 to 60000; default 500. */
    FLICKR_OPT_RETRY_BASE_MS = 107,
    /** 1: also retry POST calls and uploads (not uploads from a stream, which cannot be resent);
     *  0: never, as they may have taken effect. 0 to 1; default 0. */
    FLICKR_OPT_RETRY_POST = 108,
    /** Client-side rate limit: at most this many requests per hour from this context, spaced
     *  evenly and shared by all its threads (Flickr asks for at most 3600 per key). 0: off.
     *  0 to 3600000; default 0. */
    FLICKR_OPT_RATE_LIMIT_PER_HOUR = 109,
    /** Client-side rate limit in requests per second (with both limits set, the stricter wins).
     *  0: off. 0 to 1000; default 0. */
    FLICKR_OPT_RATE_LIMIT_PER_SECOND = 110,
    /** Bound of the photo cache in bytes: after each download the least recently used images
     *  are removed until the cache fits. An image larger than the bound is not downloaded
     *  (FLICKR_ETOOBIG). 1024 to 2^40; default 10485760 (10 MiB). Added in 0.2. A bound above
     *  2^31 - 1 needs flickr_context_set_int64() where long has 32 bits (i686, armv7). */
    FLICKR_OPT_PHOTO_CACHE_MAX_BYTES = 111,
    /** Most connections the context's asynchronous requests open at once; requests
     *  beyond it wait in a queue for a free one, so thousands in flight never exhaust the
     *  process's file descriptors. Synchronous calls use one connection per calling thread, kept
     *  alive between calls. A descriptor shortage that happens anyway fails with FLICKR_ENOMEM
     *  ("too many open files"), not as a network error. 1 to 65536; default 256. Added in 0.3. */
    FLICKR_OPT_MAX_CONNECTIONS = 112,
    /** 1: a call of a method in the catalogue (flickr/methods.h) that lacks one of its
     *  required arguments fails with FLICKR_EINVAL before anything is sent, the message naming the
     *  argument. 0: calls go out as given. Methods the catalogue does not hold are always sent as
     *  given (with a log line). 0 to 1; default 1. Added in 0.4. */
    FLICKR_OPT_CHECK_ARGUMENTS = 113,
    /** The API key's budget: at most this many calls per rolling hour by every
     *  context on the machine that uses the same key and sets this option, in any process. They
     *  share a small state file in the user's cache directory ($XDG_CACHE_HOME, else ~/.cache:
     *  libflickr/budget/, named by a hash of the key, never the key). A call that finds no slot
     *  free waits for one within its time limit (FLICKR_OPT_TIMEOUT_MS; interruptible), or fails
     *  at once with FLICKR_EBUDGET when the slot is past it (flickr_error_retry_after_ms() says
     *  when one frees up). An HTTP 429 answer holds back every such context's calls to the host
     *  that sent it, for its Retry-After (30 s without one, at most an hour). Photo downloads
     *  never count. Flickr allows
     *  3600 calls an hour per key. 0: off. 0 to 100000; default 0. Added in 0.5.
     *  docs/budget.md. */
    FLICKR_OPT_BUDGET_PER_HOUR = 114,
    /** 1: a call's response keeps the body as received, for flickr_response_body().
     *  0: a successful call's response holds only what was mapped from it: the body is not
     *  gathered while it arrives (its first 512 bytes are, for the message of a failure), so a
     *  large answer costs its tree and not its size once more (a 32 MiB photo list: 32 MiB
     *  less at the peak); flickr_response_body() then gives "" and a length of 0. Answers of
     *  flickr_call_discard(), OAuth steps and flickr_response_parse() keep their body either
     *  way. 0 to 1; default 1. Added in 0.5. */
    FLICKR_OPT_KEEP_BODY = 115
} flickr_option;

/**
 * @brief Receives one line per request, and one per retry.
 *
 * A request's line holds what was called (the method name, "upload"...), the
 * verb and URL without its query, the outcome (HTTP status or error code),
 * the duration and the number of retries; a retry's line says why and how
 * long it waits. Lines never contain secrets. Called on the thread that ends the
 * request: the calling thread for synchronous calls, the context's worker thread
 * for asynchronous requests. The line is valid only during the call.
 *
 * @param line     NUL-terminated UTF-8, without a newline.
 * @param userdata the pointer given to flickr_context_set_log(), untouched.
 */
typedef void (*flickr_log_fn)(const char *line, void *userdata);

/**
 * @brief Asked while a synchronous call waits whether to give up; non-zero stops the call.
 *
 * Called on the thread that made the call, about every 100 ms while it waits: for the
 * network, a retry's back-off, a rate-limit slot, an upload ticket, a photo cache entry or
 * directory that another thread or process holds locked. A call that is stopped
 * fails with FLICKR_EABORTED (an upload stopped after its whole body was sent may still
 * have created the photo; its message says so). Calls that end sooner never call it.
 * Bindings use it to deliver a Ctrl-C promptly (Python runs its signal handlers only when
 * it gets the thread back). It must not call libflickr functions on the same context.
 *
 * @param userdata the pointer given to flickr_context_set_interrupt(), untouched.
 * @return 0 to go on waiting, non-zero to stop.
 */
typedef int (*flickr_interrupt_fn)(void *userdata);

/**
 * @brief Create a context.
 * @param[out] out       receives the new context; release it with flickr_context_free().
 *                       Set to NULL on failure.
 * @param api_key        the application's API key (the OAuth consumer key); non-empty UTF-8, copied.
 * @param shared_secret  the application's secret (the OAuth consumer secret); UTF-8, copied.
 *                       NULL or "" makes a context that can only make unsigned calls.
 * @return FLICKR_OK, FLICKR_EINVAL (NULL out, missing key, invalid UTF-8 or control
 *         characters) or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe. Makes no network access. Fork-safe: a child of fork() may go on
 *       using the context; its first request there gets the child its own connections and worker
 *       thread (the parent's are left to the parent, their memory leaked in the child), and
 *       requests in flight at the fork end in the child with FLICKR_ESTATE (docs/threading.md).
 */
FLICKR_API int flickr_context_new(flickr_context **out, const char *api_key, const char *shared_secret);

/**
 * @brief Release a context.
 *
 * Objects created from the context (responses, requests) keep what they need
 * alive, so they may be released before or after it.
 *
 * @param ctx the context; if NULL, nothing happens.
 * @note Added in 0.1. Thread-safe with respect to other contexts; do not use ctx afterwards.
 */
FLICKR_API void flickr_context_free(flickr_context *ctx);

/**
 * @brief Set a string option.
 * @param ctx   the context.
 * @param opt   a string option (numbered below 100).
 * @param value UTF-8, copied; NULL restores the option's default.
 * @return FLICKR_OK, or FLICKR_EINVAL for a NULL context, a numeric or unknown option, or
 *         a value the option does not accept (not an http(s) URL, control characters,
 *         unreadable CA file...); the context is then unchanged.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_context_set_string(flickr_context *ctx, flickr_option opt, const char *value);

/**
 * @brief Set a numeric option.
 * @param ctx   the context.
 * @param opt   a numeric option (numbered from 100).
 * @param value the new value, in the option's unit.
 * @return FLICKR_OK, or FLICKR_EINVAL for a NULL context, a string or unknown option, or a
 *         value out of the option's range; the context is then unchanged.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_context_set_long(flickr_context *ctx, flickr_option opt, long value);

/**
 * @brief Set a numeric option from a 64-bit value.
 *
 * The same as flickr_context_set_long(), with the options' full ranges where long has 32 bits
 * (i686, armv7): FLICKR_OPT_PHOTO_CACHE_MAX_BYTES and FLICKR_OPT_MAX_RESPONSE_BYTES go up to 2^40.
 * @param ctx   the context.
 * @param opt   a numeric option (numbered from 100).
 * @param value the new value, in the option's unit.
 * @return FLICKR_OK, or FLICKR_EINVAL for a NULL context, a string or unknown option, or a
 *         value out of the option's range; the context is then unchanged.
 * @note Added in 0.5. Thread-safe.
 */
FLICKR_API int flickr_context_set_int64(flickr_context *ctx, flickr_option opt, int64_t value);

/**
 * @brief Set (or, with NULL, remove) the callback that can stop the context's synchronous calls.
 * @param ctx      the context.
 * @param fn       asked while a synchronous call waits (see flickr_interrupt_fn); NULL: never.
 * @param userdata passed to fn untouched; must stay valid while fn is set and calls run.
 * @return FLICKR_OK or FLICKR_EINVAL.
 * @note Added in 0.3. Thread-safe; calls already started keep the callback they started with.
 *       Asynchronous requests are stopped with flickr_request_cancel() instead.
 */
FLICKR_API int flickr_context_set_interrupt(flickr_context *ctx, flickr_interrupt_fn fn, void *userdata);

/**
 * @brief Set (or, with NULL, remove) the context's log callback.
 * @param ctx      the context.
 * @param fn       receives the lines; NULL stops logging.
 * @param userdata passed to fn untouched; must stay valid while fn is set and requests run.
 * @return FLICKR_OK or FLICKR_EINVAL.
 * @note Added in 0.1. Thread-safe; requests already started keep the callback they started with.
 */
FLICKR_API int flickr_context_set_log(flickr_context *ctx, flickr_log_fn fn, void *userdata);

/**
 * @brief Read a string option.
 * @param[out] out receives a copy of the value, or NULL when the option is unset;
 *                 free it with flickr_free().
 * @param ctx      the context.
 * @param opt      a string option.
 * @return FLICKR_OK, FLICKR_EINVAL or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_context_get_string(char **out, flickr_context *ctx, flickr_option opt);

/**
 * @brief Read a numeric option.
 * @param[out] out receives the value.
 * @param ctx      the context.
 * @param opt      a numeric option.
 * @return FLICKR_OK, or FLICKR_EINVAL (also for a value that does not fit in a 32-bit long:
 *         read it with flickr_context_get_int64()).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_context_get_long(long *out, flickr_context *ctx, flickr_option opt);

/**
 * @brief Read a numeric option as a 64-bit value.
 * @param[out] out receives the value.
 * @param ctx      the context.
 * @param opt      a numeric option.
 * @return FLICKR_OK or FLICKR_EINVAL.
 * @note Added in 0.5. Thread-safe.
 */
FLICKR_API int flickr_context_get_int64(int64_t *out, flickr_context *ctx, flickr_option opt);

FLICKR_END_DECLS

#endif /* FLICKR_CONTEXT_H */
