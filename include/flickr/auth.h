/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/auth.h
 * @brief Authentication: every OAuth 1.0a step, token checks, legacy-token migration,
 *        and the deprecated pre-OAuth (frob) flow.
 *
 * The OAuth 1.0a flow (https://www.flickr.com/services/api/auth.oauth.html):
 * 1. flickr_oauth_request_token() gets a request token and secret for a callback URL (or "oob");
 * 2. flickr_oauth_authorize_url() gives the page where the user approves (open it in a browser);
 *    Flickr then redirects to the callback with oauth_token and oauth_verifier, which
 *    flickr_oauth_parse_callback() extracts (for "oob" the user types the verifier instead);
 * 3. flickr_oauth_access_token() exchanges the approved request token for an access token;
 * 4. the application stores it and sets FLICKR_OPT_OAUTH_TOKEN and FLICKR_OPT_OAUTH_TOKEN_SECRET.
 *
 * None of these functions reads or changes the context's tokens unless documented: the
 * application decides when a context starts using a token. A refusal from the OAuth
 * endpoints (bad signature, unknown, used or expired token, wrong verifier, denied
 * authorization) is FLICKR_EOAUTH; the error message carries the server's own text
 * (e.g. "oauth_problem=token_rejected") and http_status its status. Messages never hold
 * a token secret.
 */
#ifndef FLICKR_AUTH_H
#define FLICKR_AUTH_H

#include "context.h"
#include "response.h"

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

/**
 * @brief OAuth step 1: obtain a request token.
 *
 * Sends a signed GET to FLICKR_OPT_OAUTH_ENDPOINT + "request_token" with oauth_callback.
 * It is signed with the consumer secret alone: any token the context holds is ignored
 * (and left in place).
 *
 * @param[out] out      receives the response; release it with flickr_response_free(). NULL on failure.
 *                      Its root is an object of the (URL-decoded) answer: "oauth_token",
 *                      "oauth_token_secret", "oauth_callback_confirmed".
 * @param ctx           the context (needs its shared secret).
 * @param callback_url  where Flickr sends the user after approval: any URL (custom schemes too,
 *                      e.g. "myapp://auth") or "oob" for an out-of-band verifier; copied.
 * @return FLICKR_OK; FLICKR_EOAUTH when the endpoint refuses (the message holds its text);
 *         FLICKR_EINVAL for bad arguments or a context without shared secret;
 *         FLICKR_ENETWORK, FLICKR_ETIMEOUT, FLICKR_ETLS, FLICKR_ETOOBIG for transport failures.
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_oauth_request_token(flickr_response **out, flickr_context *ctx, const char *callback_url);

/**
 * @brief OAuth step 2: the URL where the user approves a request token.
 *
 * FLICKR_OPT_OAUTH_ENDPOINT + "authorize?oauth_token=<token>&perms=<perms>". Makes no network access.
 *
 * @param ctx            the context (for its OAuth endpoint).
 * @param request_token  the oauth_token of flickr_oauth_request_token().
 * @param perms          "read", "write" or "delete"; NULL leaves perms out (Flickr then asks for read).
 *                       Anything else is refused.
 * @return the URL; free it with flickr_free(). NULL with FLICKR_EINVAL (bad arguments, unknown perms)
 *         or FLICKR_ENOMEM, see flickr_error_last().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API char *flickr_oauth_authorize_url(flickr_context *ctx, const char *request_token, const char *perms);

/**
 * @brief Read the request token and verifier from the callback URL Flickr redirected to.
 *
 * Any scheme is accepted ("http://127.0.0.1:8080/cb?...", "myapp://auth?..."); the query is read
 * up to any "#fragment" and its values are URL-decoded.
 *
 * @param url               the full callback URL, UTF-8, without surrounding spaces.
 * @param[out] token_out    receives the oauth_token; free it with flickr_free(). NULL on failure.
 * @param[out] verifier_out receives the oauth_verifier; free it with flickr_free(). NULL on failure.
 * @return FLICKR_OK; FLICKR_EINVAL for NULL arguments or a malformed URL (empty, no scheme, no query,
 *         spaces or control characters); FLICKR_EOAUTH for a well-formed URL that lacks oauth_token
 *         or oauth_verifier (e.g. the user declined); FLICKR_ENOMEM.
 * @note Added in 0.1. Thread-safe. Makes no network access.
 */
FLICKR_API int flickr_oauth_parse_callback(const char *url, char **token_out, char **verifier_out);

/**
 * @brief OAuth step 3: exchange an approved request token for an access token.
 *
 * Sends a signed GET to FLICKR_OPT_OAUTH_ENDPOINT + "access_token" with oauth_token and
 * oauth_verifier, signed with the request token's secret. The context's tokens are not used
 * and not changed: set FLICKR_OPT_OAUTH_TOKEN and FLICKR_OPT_OAUTH_TOKEN_SECRET yourself.
 *
 * @param[out] out              receives the response; release it with flickr_response_free().
 *                              NULL on failure. Its root is an object of the URL-decoded answer:
 *                              "oauth_token", "oauth_token_secret", "user_nsid", "username", "fullname".
 * @param ctx                   the context (needs its shared secret).
 * @param request_token         the approved request token.
 * @param request_token_secret  its secret, from flickr_oauth_request_token().
 * @param verifier              the oauth_verifier from the callback (or typed by the user for "oob").
 * @return FLICKR_OK; FLICKR_EOAUTH when the endpoint refuses (wrong verifier, unknown, used, expired
 *         or declined token, bad signature; the message holds the server's text); FLICKR_EINVAL;
 *         transport errors as for flickr_oauth_request_token().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_oauth_access_token(flickr_response **out, flickr_context *ctx, const char *request_token,
                                         const char *request_token_secret, const char *verifier);

/**
 * @brief Check an OAuth access token with flickr.auth.oauth.checkToken.
 *
 * The call is signed with the token being checked; the context's tokens are not changed.
 *
 * @param[out] out         receives the response (release it with flickr_response_free()); NULL on
 *                         failure. Paths: "oauth.token", "oauth.perms" ("read", "write" or "delete"),
 *                         "oauth.user.nsid", "oauth.user.username", "oauth.user.fullname".
 * @param ctx              the context.
 * @param token            the access token to check, or NULL for the context's own.
 * @param token_secret     its secret (required with token; ignored when token is NULL).
 * @return FLICKR_OK; FLICKR_EAPI for a token Flickr does not know (code 98); FLICKR_EOAUTH when
 *         the signature is refused; FLICKR_ESTATE when token is NULL and the context holds no
 *         OAuth token; FLICKR_EINVAL; transport errors as for flickr_call().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_oauth_check_token(flickr_response **out, flickr_context *ctx, const char *token,
                                        const char *token_secret);

/**
 * @brief Exchange a legacy (pre-OAuth) auth token for an OAuth access token
 *        (flickr.auth.oauth.getAccessToken), as ObjectiveFlickr's OAuthTransition sample did.
 *
 * The call is signed with api_sig and the legacy token. Flickr then invalidates the legacy token.
 * The context's tokens are not changed.
 *
 * @param[out] out       receives the response (release it with flickr_response_free()); NULL on
 *                       failure. Paths: "auth.access_token.oauth_token",
 *                       "auth.access_token.oauth_token_secret".
 * @param ctx            the context (needs its shared secret).
 * @param auth_token     the legacy auth token, or NULL for the context's FLICKR_OPT_AUTH_TOKEN.
 * @return FLICKR_OK; FLICKR_EAPI for a token Flickr refuses (e.g. 98 "Invalid auth token");
 *         FLICKR_ESTATE when auth_token is NULL and the context holds none; FLICKR_EINVAL;
 *         transport errors as for flickr_call().
 * @note Added in 0.1. Thread-safe.
 */
FLICKR_API int flickr_oauth_exchange_legacy_token(flickr_response **out, flickr_context *ctx,
                                                  const char *auth_token);

/* Legacy (pre-OAuth) authentication, deprecated by Flickr in 2012: only for old integrations
 * that still hold auth tokens. Calls are legacy-signed (api_sig) whenever the context holds
 * FLICKR_OPT_AUTH_TOKEN (and no OAuth token). New code uses the OAuth functions above. */

/**
 * @brief Legacy login, step 1: get a frob (flickr.auth.getFrob, api_sig-signed).
 * @param[out] frob_out receives the frob; free it with flickr_free(). NULL on failure.
 * @param ctx           the context (needs its shared secret).
 * @return FLICKR_OK; FLICKR_EAPI; FLICKR_EINVAL; transport errors as for flickr_call().
 * @note Added in 0.1. Deprecated: use the OAuth flow. Thread-safe.
 */
FLICKR_API int flickr_auth_get_frob(char **frob_out, flickr_context *ctx)
    FLICKR_DEPRECATED("Flickr's legacy authentication; use the OAuth flow (flickr_oauth_request_token)");

/**
 * @brief Legacy login, step 2: the page where the user approves a frob.
 *
 * FLICKR_OPT_AUTH_ENDPOINT + "?api_key=..&perms=..&frob=..&api_sig=..". Makes no network access.
 *
 * @param ctx    the context (needs its shared secret).
 * @param frob   the frob of flickr_auth_get_frob().
 * @param perms  "read", "write" or "delete".
 * @return the URL; free it with flickr_free(). NULL with FLICKR_EINVAL or FLICKR_ENOMEM.
 * @note Added in 0.1. Deprecated: use flickr_oauth_authorize_url(). Thread-safe.
 */
FLICKR_API char *flickr_auth_login_url(flickr_context *ctx, const char *frob, const char *perms)
    FLICKR_DEPRECATED("Flickr's legacy authentication; use flickr_oauth_authorize_url");

/**
 * @brief Legacy login, step 3: exchange an approved frob for an auth token (flickr.auth.getToken).
 * @param[out] out  receives the response (release with flickr_response_free()); paths "auth.token",
 *                  "auth.perms", "auth.user.nsid", "auth.user.username", "auth.user.fullname".
 * @param ctx       the context (needs its shared secret).
 * @param frob      the approved frob.
 * @return FLICKR_OK; FLICKR_EAPI (108 "Invalid frob": not approved yet, declined or expired);
 *         FLICKR_EINVAL; transport errors as for flickr_call().
 * @note Added in 0.1. Deprecated: use flickr_oauth_access_token(). Thread-safe.
 */
FLICKR_API int flickr_auth_get_token(flickr_response **out, flickr_context *ctx, const char *frob)
    FLICKR_DEPRECATED("Flickr's legacy authentication; use flickr_oauth_access_token");

/**
 * @brief A legacy api_sig: lowercase hex MD5 of the secret followed by every name and value,
 *        sorted by name (api_sig and photo left out).
 * @param shared_secret  the API secret.
 * @param params         NULL-terminated array of key, value, ..., NULL; NULL means none.
 * @return the signature; free it with flickr_free(). NULL with FLICKR_EINVAL or FLICKR_ENOMEM.
 * @note Added in 0.1. Deprecated: OAuth requests are signed with flickr_oauth_signature(). Thread-safe.
 */
FLICKR_API char *flickr_auth_api_sig(const char *shared_secret, const char *const *params)
    FLICKR_DEPRECATED("Flickr's legacy signing; use flickr_oauth_signature");

FLICKR_END_DECLS

#endif /* FLICKR_AUTH_H */
