/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/auth.h
 * @brief OAuth 1.0a helpers.
 */
#ifndef FLICKR_AUTH_H
#define FLICKR_AUTH_H

#include "common.h"

FLICKR_BEGIN_DECLS

/**
 * @brief An OAuth 1.0a HMAC-SHA1 signature (RFC 5849 §3.4), for checking or for custom requests.
 *
 * The parameters are signed as given (add oauth_consumer_key, oauth_nonce,
 * oauth_timestamp, oauth_signature_method, oauth_version and oauth_token
 * yourself); query parameters in url take part too; oauth_signature and
 * realm are ignored.
 *
 * @param http_method      "GET", "POST"... (case-insensitive).
 * @param url              an http(s) URL, possibly with a query.
 * @param params           NULL-terminated array of key, value, ..., NULL (decoded values); NULL means none.
 * @param consumer_secret  the consumer (API) secret.
 * @param token_secret     the token secret, or NULL/"" when there is none yet.
 * @param[out] base_string_out if not NULL, receives the signature base string; free it with flickr_free().
 * @return the base64 signature (not URL-encoded); free it with flickr_free(). NULL with
 *         FLICKR_EINVAL on bad arguments.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_oauth_signature(const char *http_method, const char *url, const char *const *params,
                                        const char *consumer_secret, const char *token_secret,
                                        char **base_string_out);

FLICKR_END_DECLS

#endif /* FLICKR_AUTH_H */
