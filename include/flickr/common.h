/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/common.h
 * @brief Export macro, status codes, error reporting and memory release.
 *
 * Conventions used by every libflickr function:
 * - Fallible functions return `int`: FLICKR_OK (0) or a negative FLICKR_E* code.
 *   On failure, flickr_error_last() on the same thread describes what happened.
 * - Results come back through an `out` parameter placed first. A pointer returned
 *   through `out` is owned by the caller, and so is a `char *` returned as the
 *   function's result (free it with flickr_free()); a `const` pointer returned as
 *   the function's result is borrowed and lives as long as its owning handle
 *   (each doc says so).
 * - Strings in are NUL-terminated UTF-8 and are copied; invalid UTF-8 is refused
 *   with FLICKR_EINVAL. Strings the library allocates are released with flickr_free().
 * - Every `*_free(NULL)` is a no-op.
 */
#ifndef FLICKR_COMMON_H
#define FLICKR_COMMON_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define FLICKR_API __attribute__((visibility("default")))
#define FLICKR_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define FLICKR_API
#define FLICKR_DEPRECATED(msg)
#endif

#ifdef __cplusplus
#define FLICKR_BEGIN_DECLS extern "C" {
#define FLICKR_END_DECLS }
#else
#define FLICKR_BEGIN_DECLS
#define FLICKR_END_DECLS
#endif

FLICKR_BEGIN_DECLS

/**
 * @brief Status codes returned by fallible functions.
 *
 * Zero is success; every error is negative. Values are never renumbered and
 * new codes are only appended, so bindings may map them to exception classes.
 * Each code's comment starts with what flickr_strerror() returns for it, quoted.
 * scripts/gen-header-tables.py copies the codes, their values and these texts into
 * the library, the Python binding and docs/conventions.md: edit them here only.
 */
typedef enum flickr_status {
    /** "success": The call did what it was asked. */
    FLICKR_OK = 0,
    /** "internal error": An internal error that fits no other code. */
    FLICKR_ERROR = -1,
    /** "invalid argument": An argument was NULL, malformed or out of range. */
    FLICKR_EINVAL = -2,
    /** "out of memory": Memory, or file descriptors, ran out. */
    FLICKR_ENOMEM = -3,
    /** "network error": DNS, connect, reset or another transport failure. */
    FLICKR_ENETWORK = -4,
    /** "timed out": A connect, idle or total time limit passed. */
    FLICKR_ETIMEOUT = -5,
    /** "unexpected HTTP status": A non-2xx HTTP answer without a Flickr envelope; see
     *  http_status. */
    FLICKR_EHTTP = -6,
    /** "Flickr API error": Flickr answered stat="fail"; see api_code and the message. */
    FLICKR_EAPI = -7,
    /** "OAuth request refused": An OAuth endpoint or check refused the request; the message
     *  holds its text. */
    FLICKR_EOAUTH = -8,
    /** "malformed response": The answer was empty, not XML, or not the expected form. */
    FLICKR_EPARSE = -9,
    /** "aborted": A callback asked to stop, or the request was cancelled. */
    FLICKR_EABORTED = -10,
    /** "TLS error": A certificate not trusted, a wrong host, or a failed TLS handshake. */
    FLICKR_ETLS = -11,
    /** "I/O error": A local file or stream could not be read or written. */
    FLICKR_EIO = -12,
    /** "response too large": The answer exceeded its size limit: FLICKR_OPT_MAX_RESPONSE_BYTES,
     *  or FLICKR_OPT_PHOTO_CACHE_MAX_BYTES for an image. */
    FLICKR_ETOOBIG = -13,
    /** "invalid state for this call": The handle is not in a state that allows the call. */
    FLICKR_ESTATE = -14,
    /** "not found": No such thing: a method name the catalogue does not hold. Added in 0.4. */
    FLICKR_ENOTFOUND = -15,
    /** "over the call budget": The key's budget (FLICKR_OPT_BUDGET_PER_HOUR) or a host's 429
     *  back-off has no slot before the call's time limit; flickr_error_retry_after_ms() says when
     *  one frees up. Added in 0.5. */
    FLICKR_EBUDGET = -16
} flickr_status;

/**
 * @brief What the calling thread's last failing call reported.
 *
 * Read through flickr_error_last(). Only meaningful right after a call that
 * returned an error: successful calls do not clear it.
 */
typedef struct flickr_error {
    int code;            /**< A FLICKR_E* code. */
    int api_code;        /**< Flickr's <err code="...">, or 0 when Flickr gave none. */
    int http_status;     /**< The HTTP status of the answer, or 0 when none arrived. */
    const char *message; /**< Human-readable UTF-8 text; never NULL, never holds a secret. */
} flickr_error;

/**
 * @brief The library's version, "MAJOR.MINOR.PATCH".
 * @return a static string; never NULL, never freed.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const char *flickr_version(void);

/**
 * @brief The library's version as 0xMMmmpp, to compare with FLICKR_VERSION_NUM.
 * @return the version number.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_version_number(void);

/**
 * @brief A static description of a status code.
 * @param code FLICKR_OK or a FLICKR_E* code; unknown values are described as such.
 * @return a static string; never NULL, never freed.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const char *flickr_strerror(int code);

/**
 * @brief The calling thread's last failure.
 *
 * Each thread has its own record, so a failure on one thread never changes
 * what another reads. The record is replaced by the next failure on this
 * thread and is not cleared by success.
 *
 * @return a pointer to the thread's record; never NULL. Before any failure its
 *         code is FLICKR_OK and its message "no error". The record and its
 *         message stay valid until the next libflickr call on this thread.
 * @note Added in 0.1. Thread-safe (thread-local).
 */
FLICKR_API const flickr_error *flickr_error_last(void);

/**
 * @brief How long until the failure described by @p err may be tried again, in milliseconds.
 *
 * For FLICKR_EBUDGET: when the key's budget (FLICKR_OPT_BUDGET_PER_HOUR) frees a slot, or the
 * host's back-off ends, counted from the failure. The message says it too.
 *
 * @param err what flickr_error_last() (on this thread) or flickr_request_error() returned, still
 *            valid; NULL, or any other pointer, gives 0 without reading it.
 * @return the wait in milliseconds (at least 1) for a FLICKR_EBUDGET failure; 0 otherwise.
 * @note Added in 0.5. Thread-safe, as the record it reads.
 */
FLICKR_API int64_t flickr_error_retry_after_ms(const flickr_error *err);

/**
 * @brief Release a string or buffer that libflickr allocated and handed to the caller.
 * @param p what a libflickr function returned as owned (documented "free with
 *          flickr_free"); if NULL, nothing happens.
 * @note Added in 0.1. Thread-safe. Never pass a pointer that libflickr did not give you as owned.
 */
FLICKR_API void flickr_free(void *p);

/**
 * @brief Stops every callback for the rest of the process: for a language runtime about to exit.
 *
 * From its return on, the library calls none of the caller's functions again, in any context:
 * log lines are dropped; interrupt callbacks are not asked and count as "stop", so synchronous
 * calls end with FLICKR_EABORTED within about 100 ms; upload progress callbacks are not called
 * and stop their uploads (while part of the body is still to go), read callbacks are not called
 * (FLICKR_EABORTED); done callbacks are not called (flickr_request_wait() still works). Calls may
 * still be made; they reach no callback. It cannot be undone.
 *
 * Why: a runtime such as Python frees its callback trampolines as it shuts down, while the
 * library's threads may still be about to call them. Call this while the runtime is still whole
 * (Python's binding does, at exit), without holding a lock a running callback needs.
 *
 * @param timeout_ms how long to wait for callbacks already running on other threads to return
 *                   (0: not at all). Callbacks the calling thread is inside are not waited for.
 * @return FLICKR_OK when no callback is running any more; FLICKR_ETIMEOUT when some still were at
 *         the end of the wait (they finish on their own; none starts afterwards); FLICKR_EINVAL for
 *         a negative timeout.
 * @note Added in 0.4. Thread-safe; may be called more than once.
 */
FLICKR_API int flickr_shutdown_callbacks(long timeout_ms);

FLICKR_END_DECLS

#endif /* FLICKR_COMMON_H */
