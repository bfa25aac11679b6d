/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/methods.h
 * @brief Flickr's method catalogue: every REST method's verb, permission and arguments.
 *
 * The catalogue is compiled into the library from `flickr.reflection` (data/flickr-methods.json
 * in the source tree; scripts/catalogue.py regenerates it). It informs calls without standing in
 * their way: flickr_call() and its siblings take FLICKR_METHOD_VERB for a method's own verb and,
 * with FLICKR_OPT_CHECK_ARGUMENTS (on by default), refuse a known method's missing required
 * argument before sending; a method the catalogue does not hold is always sent as given.
 *
 * Lifetime: everything these functions return is static, owned by the library, valid until the
 * process ends, and never to be freed. Threads: all functions are thread-safe.
 */
#ifndef FLICKR_METHODS_H
#define FLICKR_METHODS_H

#include <stddef.h>

#include "client.h"

FLICKR_BEGIN_DECLS

/** @brief The permission a method needs; each includes the ones before it. */
typedef enum flickr_permission {
    FLICKR_PERM_NONE = 0,   /**< No login: an API key is enough. */
    FLICKR_PERM_READ = 1,   /**< Read access to the calling user's private data. */
    FLICKR_PERM_WRITE = 2,  /**< Changes: POST required. */
    FLICKR_PERM_DELETE = 3  /**< Deletions: POST required. */
} flickr_permission;

/**
 * @brief One method of the catalogue. Library-owned and static (see the file's lifetime rule);
 * fields may be added at the end in later versions, so never allocate or copy one by value.
 */
typedef struct flickr_method_info {
    const char *name;              /**< e.g. "flickr.photos.search". */
    flickr_http_method verb;       /**< FLICKR_GET or FLICKR_POST (never FLICKR_METHOD_VERB). */
    flickr_permission permission;  /**< What the calling user must have granted. */
    const char *const *required;   /**< Required argument names, NULL-terminated; no api_key. */
    const char *const *optional;   /**< Optional argument names, NULL-terminated. */
    const char *doc_url;           /**< Flickr's documentation page of the method. */
} flickr_method_info;

/**
 * @brief Look a method up by name.
 *
 * @param[out] out receives the method's description (static: never freed); NULL on failure.
 * @param name     the full method name, e.g. "flickr.photos.getInfo".
 * @return FLICKR_OK; FLICKR_ENOTFOUND when the catalogue does not hold the method (it may still
 *         exist: flickr_call() sends it as given); FLICKR_EINVAL when out or name is NULL.
 * @note Added in 0.4. Thread-safe. Makes no network access.
 */
FLICKR_API int flickr_method_find(const flickr_method_info **out, const char *name);

/**
 * @brief The number of methods in the catalogue.
 * @note Added in 0.4. Thread-safe.
 */
FLICKR_API size_t flickr_method_count(void);

/**
 * @brief The method at an index, in name order: iterate from 0 to flickr_method_count() - 1.
 * @param index the position.
 * @return the method's description (static: never freed), or NULL when index is out of range.
 * @note Added in 0.4. Thread-safe.
 */
FLICKR_API const flickr_method_info *flickr_method_at(size_t index);

FLICKR_END_DECLS

#endif /* FLICKR_METHODS_H */
