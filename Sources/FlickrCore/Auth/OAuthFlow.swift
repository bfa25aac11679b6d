// SPDX-License-Identifier: MIT

/// The parts of the OAuth 1.0a flow that need no network (docs/protocol.md §4):
/// the authorize URL (step 2), the callback parser, the legacy frob login URL,
/// and the argument checks the token requests share.
package enum OAuthFlow {
    /// The permissions Flickr knows, weakest first.
    package static let permissions = ["read", "write", "delete"]

    /// `perms` must be read, write or delete (exactly, lower case).
    @_optimize(size)
    package static func requirePerms(_ perms: String) throws(FlickrError) {
        guard permissions.contains(perms) else {
            throw .invalid("perms must be \"read\", \"write\" or \"delete\", not \"\(bounded(perms))\"")
        }
    }

    /// A token, secret, verifier or callback: non-empty, no spaces or control characters.
    @_optimize(size)
    package static func requireToken(_ value: String, what: String) throws(FlickrError) {
        guard !value.isEmpty else { throw .invalid("\(what) must not be empty") }
        guard !value.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalid("\(what) must not contain spaces or control characters")
        }
    }

    /// The OAuth endpoint base (always ending in "/") followed by `name`.
    @_optimize(size)
    static func endpoint(_ settings: Settings, _ name: String) -> String {
        var base = settings.string(.oauthEndpoint) ?? Settings.defaultOAuthEndpoint
        if !base.hasSuffix("/") { base += "/" }
        return base + name
    }

    /// Step 2: `<oauth endpoint>authorize?oauth_token=<token>&perms=<perms>` (perms left out when nil).
    @_optimize(size)
    package static func authorizeURL(settings: Settings, requestToken: String, perms: String?) throws(FlickrError)
        -> String
    {
        try requireToken(requestToken, what: "request_token")
        var url = endpoint(settings, "authorize") + "?oauth_token=" + PercentEncoding.encode(requestToken)
        if let perms {
            try requirePerms(perms)
            url += "&perms=" + perms
        }
        return url
    }

    /// What a callback URL carries once the user approved.
    package struct Callback: Sendable, Equatable {
        package var token: String
        package var verifier: String
    }

    /// Reads `oauth_token` and `oauth_verifier` from the callback URL Flickr redirected to: any scheme
    /// (`http://127.0.0.1:8080/cb?...`, `snapnrun://auth?...`), the query up to any `#fragment`, values
    /// URL-decoded. Malformed URLs are FLICKR_EINVAL; a well-formed URL lacking either value (the user
    /// declined, or this is not the callback) is FLICKR_EOAUTH.
    @_optimize(size)
    package static func parseCallback(_ url: String) throws(FlickrError) -> Callback {
        guard !url.isEmpty else { throw .invalid("the callback URL is empty") }
        guard !url.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else {
            throw .invalid("the callback URL must not contain spaces or control characters")
        }
        guard let colon = url.firstIndex(of: ":"), isScheme(url[..<colon]) else {
            throw .invalid("the callback URL has no scheme (expected e.g. http://host/path?oauth_token=...)")
        }
        var rest = url[url.index(after: colon)...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: "?") else {
            throw .invalid("the callback URL has no query (expected ?oauth_token=...&oauth_verifier=...)")
        }
        let pairs = PercentEncoding.parseForm(rest[rest.index(after: question)...])
        @_optimize(size)
        func value(_ name: String) -> String? {
            pairs.first { $0.0 == name && !$0.1.isEmpty }?.1
        }
        if let problem = value("oauth_problem") {
            throw FlickrError(.oauth, "the callback reports an OAuth problem: \(bounded(problem))")
        }
        if value("oauth_verifier") == nil, pairs.contains(where: { $0.0 == "denied" }) {
            throw FlickrError(.oauth, "the user declined to authorize the application (the callback says denied)")
        }
        guard let token = value("oauth_token") else {
            throw FlickrError(.oauth, "the callback URL has no oauth_token")
        }
        guard let verifier = value("oauth_verifier") else {
            throw FlickrError(.oauth, "the callback URL has no oauth_verifier (was the authorization declined?)")
        }
        // Decoded, %00 would cut the value short in C, and %0D%0A could split a header or a log line.
        for (name, decoded) in [("oauth_token", token), ("oauth_verifier", verifier)]
        where decoded.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .invalid("the callback's \(name) holds a control character (%00, CR, LF...): refused")
        }
        return Callback(token: token, verifier: verifier)
    }

    /// RFC 3986 scheme: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    @_optimize(size)
    private static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, isAlpha(first) else { return false }
        return text.utf8.allSatisfy { isAlpha($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    @_optimize(size)
    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Legacy (deprecated) step 2: `<auth endpoint>?api_key=..&perms=..&frob=..&api_sig=..`, api_sig over
    /// api_key, frob and perms (docs/protocol.md §6).
    @_optimize(size)
    package static func legacyLoginURL(settings: Settings, frob: String, perms: String) throws(FlickrError) -> String {
        try requireToken(frob, what: "frob")
        try requirePerms(perms)
        guard !settings.sharedSecret.isEmpty else {
            throw .invalid("the legacy login URL needs the shared secret to compute api_sig")
        }
        let pairs = [("api_key", settings.apiKey), ("perms", perms), ("frob", frob)]
        let sig = LegacySignature.apiSig(secret: settings.sharedSecret, parameters: pairs)
        let base = settings.string(.authEndpoint) ?? Settings.defaultAuthEndpoint
        return base + (base.contains("?") ? "&" : "?") + PercentEncoding.formEncode(pairs + [("api_sig", sig)])
    }

    /// Caller text in messages: at most 64 characters.
    @_optimize(size)
    static func bounded(_ text: String) -> String {
        text.count > 64 ? String(text.prefix(64)) + "..." : text
    }
}
