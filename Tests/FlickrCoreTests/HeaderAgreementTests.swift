// SPDX-License-Identifier: MIT

import CFlickr
import Testing

@testable import FlickrCore

/// The Swift core and the hand-written header must agree on every number they share.
@Suite struct HeaderAgreementTests {
    /// The version is written once, in version.h: the library reads it through the C shims, and
    /// the string and the numbers there must say the same thing.
    @Test func versionIsTheHeaders() {
        #expect(FLICKR_VERSION == "\(FLICKR_VERSION_MAJOR).\(FLICKR_VERSION_MINOR).\(FLICKR_VERSION_PATCH)")
        #expect(LibraryVersion.string == FLICKR_VERSION)
        #expect(LibraryVersion.number == (FLICKR_VERSION_MAJOR << 16) | (FLICKR_VERSION_MINOR << 8) | FLICKR_VERSION_PATCH)
        #expect(LibraryVersion.userAgent == "libflickr/" + FLICKR_VERSION)
    }

    @Test func statusCodesMatchHeader() {
        let header: [(FlickrError.Code, flickr_status)] = [
            (.ok, FLICKR_OK), (.error, FLICKR_ERROR), (.invalidArgument, FLICKR_EINVAL),
            (.noMemory, FLICKR_ENOMEM), (.network, FLICKR_ENETWORK), (.timeout, FLICKR_ETIMEOUT),
            (.http, FLICKR_EHTTP), (.api, FLICKR_EAPI), (.oauth, FLICKR_EOAUTH), (.parse, FLICKR_EPARSE),
            (.aborted, FLICKR_EABORTED), (.tls, FLICKR_ETLS), (.io, FLICKR_EIO), (.tooBig, FLICKR_ETOOBIG),
            (.state, FLICKR_ESTATE), (.notFound, FLICKR_ENOTFOUND), (.budget, FLICKR_EBUDGET),
        ]
        #expect(header.count == FlickrError.Code.allCases.count)
        for (code, cValue) in header {
            #expect(code.rawValue == cValue.rawValue, "\(code.symbol)")
        }
    }

    @Test func optionsMatchHeader() {
        let header: [(ContextOption, flickr_option)] = [
            (.restEndpoint, FLICKR_OPT_REST_ENDPOINT), (.uploadEndpoint, FLICKR_OPT_UPLOAD_ENDPOINT),
            (.replaceEndpoint, FLICKR_OPT_REPLACE_ENDPOINT), (.oauthEndpoint, FLICKR_OPT_OAUTH_ENDPOINT),
            (.oauthToken, FLICKR_OPT_OAUTH_TOKEN), (.oauthTokenSecret, FLICKR_OPT_OAUTH_TOKEN_SECRET),
            (.authToken, FLICKR_OPT_AUTH_TOKEN), (.userAgent, FLICKR_OPT_USER_AGENT), (.proxy, FLICKR_OPT_PROXY),
            (.caFile, FLICKR_OPT_CA_FILE), (.authEndpoint, FLICKR_OPT_AUTH_ENDPOINT),
            (.timeoutMs, FLICKR_OPT_TIMEOUT_MS), (.connectTimeoutMs, FLICKR_OPT_CONNECT_TIMEOUT_MS),
            (.maxResponseBytes, FLICKR_OPT_MAX_RESPONSE_BYTES), (.oauthInHeader, FLICKR_OPT_OAUTH_IN_HEADER),
            (.uploadIdleTimeoutMs, FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS),
            (.uploadResponseTimeoutMs, FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS),
            (.maxRetries, FLICKR_OPT_MAX_RETRIES), (.retryBaseMs, FLICKR_OPT_RETRY_BASE_MS),
            (.retryPost, FLICKR_OPT_RETRY_POST), (.rateLimitPerHour, FLICKR_OPT_RATE_LIMIT_PER_HOUR),
            (.rateLimitPerSecond, FLICKR_OPT_RATE_LIMIT_PER_SECOND), (.photoCacheDir, FLICKR_OPT_PHOTO_CACHE_DIR),
            (.photoEndpoint, FLICKR_OPT_PHOTO_ENDPOINT),
            (.photoCacheMaxBytes, FLICKR_OPT_PHOTO_CACHE_MAX_BYTES), (.maxConnections, FLICKR_OPT_MAX_CONNECTIONS),
            (.baseURL, FLICKR_OPT_BASE_URL), (.checkArguments, FLICKR_OPT_CHECK_ARGUMENTS),
            (.budgetPerHour, FLICKR_OPT_BUDGET_PER_HOUR),
        ]
        #expect(header.count == ContextOption.allCases.count)
        for (option, cValue) in header {
            #expect(option.rawValue == Int32(bitPattern: cValue.rawValue), "\(option.name)")
        }
    }

    @Test func methodVerbsAndPermissionsMatchHeader() {
        #expect(HTTPRequest.Verb(cValue: FLICKR_GET.rawValue, method: "flickr.photos.delete") == .get)
        #expect(HTTPRequest.Verb(cValue: FLICKR_POST.rawValue, method: "flickr.photos.search") == .post)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.photos.delete") == .post)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.photos.search") == .get)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.not.known") == .get)
        #expect(HTTPRequest.Verb(cValue: 3, method: "flickr.photos.search") == nil)
        let permissions: [(MethodCatalogue.Permission, flickr_permission)] = [
            (.none, FLICKR_PERM_NONE), (.read, FLICKR_PERM_READ), (.write, FLICKR_PERM_WRITE),
            (.delete, FLICKR_PERM_DELETE),
        ]
        for (permission, cValue) in permissions {
            #expect(UInt32(permission.rawValue) == cValue.rawValue, "\(permission.name)")
        }
    }
}
