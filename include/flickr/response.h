/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/response.h
 * @brief Responses and the value tree Flickr's XML is mapped into.
 *
 * Mapping (ObjectiveFlickr's, fixed): the root value is the `<rsp>` element's
 * object (`stat` is one of its keys); every attribute is a string entry; text
 * is the entry `_text` (whitespace-only text beside child elements is
 * dropped; CDATA is text); a child element is an object under its name; a
 * repeated child becomes an array in document order; a child of a plural
 * parent (`photos`/`photo`, `tags`/`tag`...) is always an array; a child
 * named like an attribute takes the key and the attribute moves to `@name`.
 *
 * Values are borrowed from their response: every `const flickr_value *` and
 * `const char *` obtained from a response stays valid, unchanged, until
 * flickr_response_free() on it. A response is immutable, so it may be read
 * from several threads at once.
 */
#ifndef FLICKR_RESPONSE_H
#define FLICKR_RESPONSE_H

#include "common.h"

FLICKR_BEGIN_DECLS

/** @brief An opaque response; release with flickr_response_free(). */
typedef struct flickr_response flickr_response;
/** @brief An opaque node of a response's value tree; borrowed from its response. */
typedef struct flickr_value flickr_value;

/** @brief The kinds of value. */
typedef enum flickr_kind {
    FLICKR_VALUE_NONE = 0,   /**< Returned for a NULL value. */
    FLICKR_VALUE_OBJECT = 1, /**< Ordered keys, each with a value. */
    FLICKR_VALUE_ARRAY = 2,  /**< Ordered values. */
    FLICKR_VALUE_STRING = 3  /**< UTF-8 text. */
} flickr_kind;

/**
 * @brief Parse an XML document from a buffer with the same streaming mapping as network responses.
 *
 * Unlike a call, the document need not be a Flickr envelope and stat="fail" is not an error.
 *
 * @param[out] out receives the response; release it with flickr_response_free(). NULL on failure.
 * @param xml      the document's bytes (need not be NUL-terminated); may be NULL only when len is 0.
 * @param len      its length in bytes.
 * @return FLICKR_OK, FLICKR_EINVAL, FLICKR_EPARSE (malformed, empty, DTDs and entity
 *         declarations refused, nesting deeper than 256) or FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_response_parse(flickr_response **out, const char *xml, size_t len);

/**
 * @brief Release a response and every value and string borrowed from it.
 * @param resp the response; if NULL, nothing happens.
 * @note Added in 0.1. Thread-safe; no other thread may still be reading from it.
 */
FLICKR_API void flickr_response_free(flickr_response *resp);

/**
 * @brief The root of the value tree: the `<rsp>` element's object.
 * @param resp the response.
 * @return a value borrowed from resp, or NULL (and FLICKR_EINVAL on this thread) when resp is not a live response.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const flickr_value *flickr_response_root(const flickr_response *resp);

/**
 * @brief The tree rendered as JSON (objects, arrays and strings exactly as mapped).
 * @param resp the response.
 * @return a new UTF-8 string; free it with flickr_free(). NULL on error (FLICKR_EINVAL, FLICKR_ENOMEM).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_response_json(const flickr_response *resp);

/**
 * @brief The tree in Python's marshal format, for the Python binding (`marshal.loads` makes the
 *        same dicts, lists and strings of it as `json.loads` makes of flickr_response_json()).
 *
 * Only types that every Python from 3.4 reads: an object is `{`, each key and value, then `0`;
 * an array `[`, a 32-bit little-endian count, then the elements; a string `u`, a 32-bit
 * little-endian byte length, then UTF-8 (ill-formed bytes replaced by U+FFFD, as in the JSON);
 * `a` for the same when every byte is ASCII; a repeated key `r` and a 32-bit index, its first
 * occurrence having FLAG_REF (0x80) set.
 * Every string is length-prefixed, so no text from a server is read as a type code.
 *
 * @param[out] out     receives the bytes (not NUL-terminated text; a NUL follows them); free them
 *                     with flickr_free(). NULL on failure.
 * @param[out] out_len receives their length; 0 on failure.
 * @param resp         the response.
 * @return FLICKR_OK, FLICKR_EINVAL (a NULL out or out_len, resp not a live response) or FLICKR_ENOMEM.
 * @note Added in 0.5. Thread-safe.
 */
FLICKR_API int flickr_response_marshal(char **out, size_t *out_len, const flickr_response *resp);

/**
 * @brief The raw body as received.
 * @param resp          the response.
 * @param[out] len_out  receives the body's length in bytes; may be NULL.
 * @return the bytes, borrowed from resp and followed by a NUL; NULL when resp is not a live response.
 *         "" (length 0) for a call's response on a context whose FLICKR_OPT_KEEP_BODY is 0.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const char *flickr_response_body(const flickr_response *resp, size_t *len_out);

/**
 * @brief The HTTP status the response came with (0 for flickr_response_parse()).
 * @param resp the response.
 * @return the status, or 0 when resp is not a live response.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_response_http_status(const flickr_response *resp);

/**
 * @brief The kind of a value.
 * @param v a value, or NULL.
 * @return its kind; FLICKR_VALUE_NONE for NULL.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API flickr_kind flickr_value_kind(const flickr_value *v);

/**
 * @brief Look a value up by key path, e.g. "photos.photo.1.id".
 *
 * Segments are separated by dots. On an object a segment selects the entry
 * with that key; on an array it must be a decimal index from 0. An absent
 * key, an index out of range, a non-numeric index on an array, an empty
 * segment or a segment applied to a string gives NULL. The empty path gives v.
 *
 * @param v        the value to start from; NULL gives NULL.
 * @param key_path UTF-8 path; NULL gives NULL.
 * @return a value borrowed from the same response, or NULL when absent (not an error).
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const flickr_value *flickr_value_get(const flickr_value *v, const char *key_path);

/**
 * @brief The text of a value: a string's own text, or an object's `_text` entry.
 * @param v a value, or NULL.
 * @return UTF-8 text borrowed from the response, or NULL for arrays, objects without `_text` and NULL.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const char *flickr_value_string(const flickr_value *v);

/**
 * @brief The number of entries of an object or elements of an array.
 * @param v a value, or NULL.
 * @return the count; 0 for strings and NULL.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API size_t flickr_value_count(const flickr_value *v);

/**
 * @brief An object's entry value or an array's element, by position in document order.
 * @param v     an object or array.
 * @param index from 0 to flickr_value_count(v) - 1.
 * @return a value borrowed from the same response, or NULL when out of range or v is a string or NULL.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const flickr_value *flickr_value_at(const flickr_value *v, size_t index);

/**
 * @brief An object's key at a position, matching flickr_value_at().
 * @param v     an object.
 * @param index from 0 to flickr_value_count(v) - 1.
 * @return the key, borrowed from the response; NULL when out of range or v is not an object.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API const char *flickr_value_key_at(const flickr_value *v, size_t index);

/**
 * @brief A value and everything below it rendered as JSON.
 * @param v a value.
 * @return a new UTF-8 string; free it with flickr_free(). NULL for a NULL value or on allocation failure.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_value_json(const flickr_value *v);

/**
 * @brief A value and everything below it in Python's marshal format (see flickr_response_marshal()).
 * @param[out] out     receives the bytes; free them with flickr_free(). NULL on failure.
 * @param[out] out_len receives their length; 0 on failure.
 * @param v            a value.
 * @return FLICKR_OK, FLICKR_EINVAL (a NULL out, out_len or v) or FLICKR_ENOMEM.
 * @note Added in 0.5. Thread-safe.
 */
FLICKR_API int flickr_value_marshal(char **out, size_t *out_len, const flickr_value *v);

FLICKR_END_DECLS

#endif /* FLICKR_RESPONSE_H */
