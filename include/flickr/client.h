/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/client.h
 * @brief Calling any Flickr method, synchronously or asynchronously.
 *
 * Calls add `api_key` and sign: OAuth 1.0a HMAC-SHA1 when the context holds an
 * OAuth token and secret, the legacy api_sig (MD5) when it holds a legacy auth
 * token, nothing otherwise. GET parameters go in the query, POST parameters in
 * a form body (FLICKR_OPT_OAUTH_IN_HEADER moves the OAuth ones to an
 * Authorization header).
 *
 * Threads: synchronous calls (flickr_call() and the other functions that wait for
 * an answer) run entirely on the calling thread, over connections the context
 * keeps alive between calls; any number of threads may call at once. Asynchronous
 * requests (flickr_call_async() and the other _async functions) run on the
 * context's own worker thread, one per context, which drives all of the context's
 * asynchronous transfers and calls their done callbacks.
 */
#ifndef FLICKR_CLIENT_H
#define FLICKR_CLIENT_H

#include "context.h"
#include "response.h"

FLICKR_BEGIN_DECLS

/** @brief An opaque asynchronous request; release with flickr_request_free(). */
typedef struct flickr_request flickr_request;

/** @brief The HTTP method of a call. Flickr's write methods require FLICKR_POST. */
typedef enum flickr_http_method {
    FLICKR_GET = 0,   /**< The parameters in the URL's query; the verb of Flickr's reading methods. */
    FLICKR_POST = 1,  /**< The parameters in a form body; Flickr's write and delete methods need it. */
    /** The catalogue's verb for the method (flickr_method_find(): POST for Flickr's write and
     *  delete methods), GET for a method the catalogue does not hold. Added in 0.4. */
    FLICKR_METHOD_VERB = 2
} flickr_http_method;

/**
 * @brief Called once when an asynchronous request ends, on the context's worker thread.
 *
 * Keep it short: while it runs, the context's other transfers wait. It may
 * start new asynchronous calls, cancel or free requests of any context (including
 * req), but not make synchronous calls on the same context (they fail with
 * FLICKR_ESTATE), nor wait for a request that has not ended (flickr_request_wait()
 * fails with FLICKR_ESTATE).
 *
 * @param req      the request.
 * @param status   FLICKR_OK or a FLICKR_E* code (FLICKR_EABORTED after flickr_request_cancel()).
 * @param resp     the response on success, else NULL; borrowed: the response functions accept it
 *                 during the callback, and the values and strings read from it stay valid until
 *                 req is freed (take a reference with flickr_request_response() to keep the
 *                 response longer).
 * @param userdata the pointer given to flickr_call_async(), untouched.
 */
typedef void (*flickr_done_fn)(flickr_request *req, int status, const flickr_response *resp, void *userdata);

/**
 * @brief Call a Flickr method and wait for the answer.
 *
 * @param[out] out receives the response; release it with flickr_response_free(). NULL on failure.
 * @param ctx      the context.
 * @param method   the method name, e.g. "flickr.photos.search".
 * @param params   NULL-terminated array of UTF-8 key, value, key, value, ..., NULL; NULL means none.
 *                 Copied. `method`, `api_key`, `api_sig`, `auth_token`, `format`, `nojsoncallback`
 *                 and `oauth_*` are set by the library and refused here.
 * @param verb     FLICKR_GET, FLICKR_POST, or FLICKR_METHOD_VERB for the catalogue's.
 * @return FLICKR_OK; FLICKR_EAPI for stat="fail" (flickr_error_last() gives Flickr's code and
 *         message); FLICKR_EHTTP for a non-2xx answer without an envelope; FLICKR_EOAUTH for an
 *         OAuth refusal (401/400 `oauth_problem=...`); FLICKR_EPARSE for an empty or non-XML body;
 *         FLICKR_ENETWORK, FLICKR_ETIMEOUT, FLICKR_ETLS, FLICKR_ETOOBIG for transport failures;
 *         FLICKR_EINVAL for bad arguments (among them a known method's missing required
 *         argument: FLICKR_OPT_CHECK_ARGUMENTS); FLICKR_ESTATE when called from a done callback of
 *         the same context.
 * @note Added in 0.1. Thread-safe: any number of threads may call at once on one context.
 *       Runs on the calling thread, which it blocks until the answer is in.
 */
FLICKR_API int flickr_call(flickr_response **out, flickr_context *ctx, const char *method,
                           const char *const *params, flickr_http_method verb);

/**
 * @brief Call a Flickr method for its effect only, and wait: flickr_call() without a response.
 *
 * For answers nobody reads (writes such as flickr.photos.addTags, flickr.favorites.add): a success
 * is recognised from the start of the answer, `<rsp stat="ok"`, and nothing is mapped into values,
 * which saves most of the library's own work on a small answer. Any other answer (stat="fail", an
 * HTTP error page, an envelope written some other way) is mapped in full and reported exactly as
 * flickr_call() reports it. The rest of a successful answer is not looked at, so a body that goes
 * wrong after its `<rsp stat="ok">` still counts as success: use flickr_call() to validate it.
 *
 * @param ctx    the context.
 * @param method as for flickr_call().
 * @param params as for flickr_call(); copied.
 * @param verb   as for flickr_call().
 * @return as flickr_call() (flickr_error_last() gives the details of a failure).
 * @note Added in 0.2. Thread-safe: any number of threads may call at once on one context.
 */
FLICKR_API int flickr_call_discard(flickr_context *ctx, const char *method, const char *const *params,
                                   flickr_http_method verb);

/**
 * @brief Start a call and return at once.
 *
 * @param[out] out  receives the request; release it with flickr_request_free() (also after
 *                  it completed). NULL on failure, in which case done is never called.
 * @param ctx       the context (the request keeps what it needs of it alive).
 * @param method    as for flickr_call().
 * @param params    as for flickr_call(); copied before this returns.
 * @param verb      as for flickr_call().
 * @param done      called once when the request ends, on the context's worker thread; may be NULL.
 * @param userdata  passed to done untouched.
 * @return FLICKR_OK or, for arguments refused before starting, FLICKR_EINVAL (and the like).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_call_async(flickr_request **out, flickr_context *ctx, const char *method,
                                 const char *const *params, flickr_http_method verb, flickr_done_fn done,
                                 void *userdata);

/**
 * @brief Wait until a request has ended and its done callback has returned.
 * @param req the request.
 * @return its status (FLICKR_OK or a FLICKR_E* code; also recorded for flickr_error_last()),
 *         FLICKR_EINVAL for a request that is not live, or FLICKR_ESTATE when called from a
 *         done callback (of any context) for a request that has not ended yet. In the child of
 *         a fork(), a request that was in flight at the fork has ended there with FLICKR_ESTATE
 *         (it is the parent's; its done callback is not called in the child).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_request_wait(flickr_request *req);

/**
 * @brief Abort a request; it ends with FLICKR_EABORTED unless it had already ended.
 * @param req the request; if NULL or not live, nothing happens.
 * @note Added in 0.1. Thread-safe; returns at once (the done callback still runs, once).
 */
FLICKR_API void flickr_request_cancel(flickr_request *req);

/**
 * @brief Release a request, cancelling it if it is still running.
 *
 * Unless called from a done callback, it first waits for the done callback to
 * have returned, so that no callback runs after this returns. From a done callback
 * (of any context) it does not wait, so that two callbacks freeing each other's
 * requests cannot deadlock: a callback not yet started is then never called, one
 * already running finishes (the request it is given is no longer live).
 *
 * @param req the request; if NULL, nothing happens.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API void flickr_request_free(flickr_request *req);

/**
 * @brief Take a reference to a completed request's response.
 * @param[out] out receives the response, released with flickr_response_free() independently of req.
 * @param req      the request.
 * @return FLICKR_OK; FLICKR_ESTATE when it has not ended; the request's own error code when it failed.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_request_response(flickr_response **out, flickr_request *req);

/**
 * @brief A request's own error record (not the thread-local one: requests end on the worker thread).
 * @param req the request.
 * @return a record borrowed from req, valid until it is freed; code FLICKR_OK while running or on
 *         success. NULL when req is not a live request.
 * @note Added in 0.1. Thread-safe once the request has ended.
 */
FLICKR_API const flickr_error *flickr_request_error(flickr_request *req);

/** @brief An opaque walk over every item of every page of a paged method; release with flickr_pages_free(). */
typedef struct flickr_pages flickr_pages;

/**
 * @brief Start walking a paged method (flickr.photos.search, flickr.people.getPhotos, ...).
 *
 * Nothing is fetched yet: pages are called (GET, retried like any call) as
 * flickr_pages_next() reaches them. The walk reads Flickr's page, pages and
 * total, and ends after an empty page, after the last page, at page 10,000,
 * and after 4,000 results of flickr.photos.search (Flickr's own cap).
 * `per_page` defaults to 500 (Flickr's maximum) to make the fewest calls;
 * a `page` parameter sets the first page.
 *
 * @param[out] out  receives the walk; release it with flickr_pages_free(). NULL on failure.
 * @param ctx       the context (kept alive by the walk).
 * @param method    the method name.
 * @param params    as for flickr_call(); copied.
 * @param item_path the item list as a key path from the root, e.g. "photos.photo"; NULL finds it
 *                  automatically (the list inside the first child of rsp with page attributes).
 * @return FLICKR_OK or FLICKR_EINVAL.
 * @note Added in 0.1. Thread-safe; the walk itself is used by one thread at a time.
 */
FLICKR_API int flickr_pages_new(flickr_pages **out, flickr_context *ctx, const char *method,
                                const char *const *params, const char *item_path);

/**
 * @brief The next item of the walk, fetching the next page when needed.
 * @param[out] item_out receives the item, or NULL when the walk is over; borrowed: valid until the
 *                      next flickr_pages_next() or flickr_pages_free() on this walk.
 * @param pages         the walk.
 * @return FLICKR_OK (also at the end), or a call's error (the walk may be continued after a
 *         passing failure: the same page is fetched again). FLICKR_EPARSE for a listing that
 *         cannot be walked: a page that repeats the last one or brings no new id, or more pages
 *         announced than items; every later call gives the same error (docs/harvest.md, "Lying
 *         listings"). FLICKR_ESTATE while another thread is in a call on this walk.
 * @note Added in 0.1. One thread at a time per walk: since 0.5.0 a second call meanwhile (another
 *       thread's, or one from a log or interrupt callback inside the first) fails with
 *       FLICKR_ESTATE instead of racing (docs/threading.md).
 */
FLICKR_API int flickr_pages_next(const flickr_value **item_out, flickr_pages *pages);

/**
 * @brief The total number of items Flickr announced on the last page fetched.
 * @param pages the walk.
 * @return the total, or -1 before the first page (or for a walk that is not live, or in use by
 *         another thread: then flickr_error_last() says FLICKR_EINVAL or FLICKR_ESTATE).
 * @note Added in 0.1. One thread at a time per walk (FLICKR_ESTATE since 0.5.0, as
 *       flickr_pages_next()).
 */
FLICKR_API int64_t flickr_pages_total(flickr_pages *pages);

/**
 * @brief The number of the last page the server answered: how many listing calls the walk made
 *        (less its first page's number, plus one), for progress and a caller's count of calls.
 * @param pages the walk.
 * @return the page number, 0 before the first answer, or -1 for a walk that is not live or is in
 *         use by another thread (then flickr_error_last() says FLICKR_EINVAL or FLICKR_ESTATE).
 * @note Added in 0.5. One thread at a time per walk (as flickr_pages_next()).
 */
FLICKR_API int64_t flickr_pages_page(flickr_pages *pages);

/**
 * @brief Release a walk and the page it holds.
 * @param pages the walk; if NULL, nothing happens.
 * @note Added in 0.1.
 */
FLICKR_API void flickr_pages_free(flickr_pages *pages);

/** @brief An opaque harvest: every result of a search past Flickr's cap; release with flickr_harvest_free(). */
typedef struct flickr_harvest flickr_harvest;

/**
 * @brief Start a harvest: every item a search-like method matches, each once, past the 4,000
 *        results Flickr serves for one query of flickr.photos.search.
 *
 * Nothing is fetched yet. flickr_harvest_next() asks page 1 of a date slice and reads its total:
 * over 4,000, the slice is cut by time (into as many parts as would each hold 3,000 were its
 * items spread evenly), down to a minimum slice, below which it is asked once per licence
 * (flickr.photos.licenses.getInfo, or the caller's own `license` list); a slice within the cap is
 * paged through at 500 a page. Slices never overlap and ids are remembered besides, so each item
 * is given once. A licence slice still over the cap is paged to the cap and listed in the report.
 * Every value from the server is checked (total, pages, ids: FLICKR_EPARSE, never trusted).
 * docs/harvest.md has the details and the checkpoint's form, which the Python binding shares.
 *
 * @param[out] out receives the harvest; release it with flickr_harvest_free(). NULL on failure.
 * @param ctx      the context (kept alive by the harvest); its budget (FLICKR_OPT_BUDGET_PER_HOUR)
 *                 is what shards in separate processes share.
 * @param method   a search-like method (flickr.photos.search).
 * @param params   as for flickr_call(); copied. min_upload_date / max_upload_date (or the taken
 *                 ones with dates=taken) bound the range, in unix seconds (default 2004-01-01,
 *                 taken 1800-01-01, to a day past now); page and per_page are the harvest's own.
 * @param options  NULL, or a NULL-terminated array of name, value pairs: "dates" ("upload", the
 *                 default, or "taken"); "min_slice" (seconds, default "60"); "shard" ("K/N": the
 *                 K-th of N shards, for N processes; the range is cut in 8N parts dealt in turn);
 *                 "checkpoint" (a file path: the state is saved there after each page the caller
 *                 has taken in full, written to a new temporary name and renamed; an existing
 *                 checkpoint of the same harvest is continued from).
 * @return FLICKR_OK; FLICKR_EINVAL for a bad argument or option, a checkpoint that is not one or
 *         is another harvest's; FLICKR_EIO when the checkpoint cannot be read.
 * @note Added in 0.5. Thread-safe; the harvest itself is used by one thread at a time.
 */
FLICKR_API int flickr_harvest_new(flickr_harvest **out, flickr_context *ctx, const char *method,
                                  const char *const *params, const char *const *options);

/**
 * @brief The next item of the harvest, making the calls it needs.
 * @param[out] item_out receives the item, or NULL when the harvest is over; borrowed: valid until
 *                      the next flickr_harvest_next() or flickr_harvest_free() on this harvest.
 * @param harvest       the harvest.
 * @return FLICKR_OK (also at the end), a call's error (the harvest may be continued: the same
 *         page is asked again), FLICKR_EPARSE for an answer whose total, pages or ids are not
 *         numbers, FLICKR_EIO when the checkpoint cannot be written, or FLICKR_ESTATE while
 *         another thread is in a call on this harvest.
 * @note Added in 0.5. One thread at a time per harvest: a call of any flickr_harvest_ function
 *       but free while another call runs on the same harvest (another thread's, or one from a log
 *       or interrupt callback inside it) fails with FLICKR_ESTATE, never waits and never races
 *       (docs/threading.md).
 */
FLICKR_API int flickr_harvest_next(const flickr_value **item_out, flickr_harvest *harvest);

/**
 * @brief The harvest's completeness report so far, as JSON.
 *
 * `{"items", "matched", "missing", "duplicates", "calls", "slices_done", "slices_pending",
 * "finished", "complete", "over_cap": [{"min", "max", "from", "to", "license", "total"}]}`:
 * items given out; the sum of the totals of the slices paged through; what they did not give
 * (matched - items); slices still over the cap at the minimum size, split by licence. A resumed
 * harvest's counts include the runs before it.
 *
 * @param[out] out receives a new string; free it with flickr_free(). NULL on failure.
 * @param harvest  the harvest.
 * @return FLICKR_OK, FLICKR_EINVAL, or FLICKR_ESTATE (another thread's call on it is running).
 * @note Added in 0.5. One thread at a time per harvest.
 */
FLICKR_API int flickr_harvest_report(char **out, flickr_harvest *harvest);

/**
 * @brief Write the harvest's checkpoint now (it is also written after each page taken in full
 *        and at the end); nothing when the harvest has no "checkpoint" option.
 * @param harvest the harvest.
 * @return FLICKR_OK, FLICKR_EINVAL, FLICKR_EIO, or FLICKR_ESTATE (another thread's call on it is
 *         running).
 * @note Added in 0.5. One thread at a time per harvest.
 */
FLICKR_API int flickr_harvest_save(flickr_harvest *harvest);

/**
 * @brief Keep the caller's own JSON object in the checkpoint, written with the next save.
 *
 * For a program's progress that must match the harvest's: a program writing each item to a file
 * sets {"output_bytes": N} after each item it has written and flushed, so the checkpoint saved
 * when flickr_harvest_next() begins a page records the file's size at the end of the last page,
 * and a resumed run cuts the file back to it (the Python CLI does so: every item once).
 *
 * @param harvest the harvest.
 * @param json    a JSON object (whole numbers, strings, true, false, null, arrays, objects; up to
 *                1 MiB); copied.
 * @return FLICKR_OK, FLICKR_EINVAL when json is NULL, not UTF-8 or not such an object, or
 *         FLICKR_ESTATE (another thread's call on it is running).
 * @note Added in 0.5. One thread at a time per harvest.
 */
FLICKR_API int flickr_harvest_set_extra(flickr_harvest *harvest, const char *json);

/**
 * @brief The caller's JSON object kept in the checkpoint: the last flickr_harvest_set_extra(),
 *        else the one of the checkpoint the harvest continued from, else "{}".
 * @param[out] out receives a new string; free it with flickr_free(). NULL on failure.
 * @param harvest  the harvest.
 * @return FLICKR_OK, FLICKR_EINVAL, or FLICKR_ESTATE (another thread's call on it is running).
 * @note Added in 0.5. One thread at a time per harvest.
 */
FLICKR_API int flickr_harvest_extra(char **out, flickr_harvest *harvest);

/**
 * @brief Release a harvest and the page it holds (the checkpoint is not written: see
 *        flickr_harvest_save()).
 * @param harvest the harvest; if NULL, nothing happens.
 * @note Added in 0.5.
 */
FLICKR_API void flickr_harvest_free(flickr_harvest *harvest);

FLICKR_END_DECLS

#endif /* FLICKR_CLIENT_H */
