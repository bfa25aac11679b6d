// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#endif

/// OAuth 1.0a HMAC-SHA1 signatures (RFC 5849 §3.4; flickr-protocol.md §5).
package enum OAuthSignature {
    /// RFC 5849 §3.4.1: METHOD&enc(base URL)&enc(normalized params). `url` may carry a query: its (decoded)
    /// parameters join `parameters`. Excludes oauth_signature and realm. Sorted by encoded name then encoded
    /// value (byte order), duplicates kept. Base URL per §3.4.1.2 (EndpointURL.signatureBase).
    /// Throws .invalidArgument for a URL that is not http(s) or an empty/ill-formed method.
    package static func baseString(
        method: String, url: String, parameters: [(String, String)]
    ) throws(FlickrError) -> String {
        let endpoint = try EndpointURL(parsing: url, what: "the request URL")
        let upperMethod = try normalizedMethod(method)
        var all = parameters
        if let query = endpoint.query { all += PercentEncoding.parseForm(Substring(query)) }
        return upperMethod + "&" + PercentEncoding.encode(baseURL(url, endpoint)) + "&"
            + PercentEncoding.encode(normalizedParameters(all))
    }

    /// RFC 5849 §3.4.1.2 base URL (EndpointURL.signatureBase), except that a URL written without any path
    /// (`http://www.example.com`) is signed without one, the path "as sent" (flickr-protocol.md §5.5, and
    /// flickr-sdk's vector in §11.5).
    static func baseURL(_ text: String, _ endpoint: EndpointURL) -> String {
        let base = endpoint.signatureBase
        guard let schemeEnd = text.firstRange(of: "://") else { return base }
        let afterScheme = text[schemeEnd.upperBound...]
        let pathStart = afterScheme.first { $0 == "/" || $0 == "?" || $0 == "#" }
        guard pathStart != "/", endpoint.path == "/", base.hasSuffix("/") else { return base }
        return String(base.dropLast())
    }

    /// RFC 5849 §3.4.1.3.2: encoded `name=value` pairs sorted by name, then value (byte order), joined by `&`;
    /// oauth_signature and realm left out.
    package static func normalizedParameters(_ parameters: [(String, String)]) -> String {
        let encoded =
            parameters
            .filter { $0.0 != "oauth_signature" && $0.0 != "realm" }
            .map { (PercentEncoding.encode($0.0), PercentEncoding.encode($0.1)) }
            .sorted(by: encodedPairPrecedes)
        var out = ""
        for (index, pair) in encoded.enumerated() {
            if index > 0 { out += "&" }
            out += pair.0 + "=" + pair.1
        }
        return out
    }

    /// base64(HMAC-SHA1(enc(consumerSecret)&enc(tokenSecret), base)). Empty only if libcrypto fails.
    package static func hmacSHA1(base: String, consumerSecret: String, tokenSecret: String) -> String {
        let key = PercentEncoding.encode(consumerSecret) + "&" + PercentEncoding.encode(tokenSecret)
        guard let digest = Crypto.hmacSHA1(key: Array(key.utf8), data: Array(base.utf8)) else { return "" }
        return Base64.encode(digest)
    }

    /// 32 lowercase hex characters from 16 random bytes (RAND_bytes).
    package static func nonce() -> String {
        Crypto.hex(Crypto.randomBytes(16))
    }

    /// Byte-order comparison of already-encoded (ASCII) pairs: name first, then value.
    static func encodedPairPrecedes(_ a: (String, String), _ b: (String, String)) -> Bool {
        if a.0 != b.0 { return a.0.utf8.lexicographicallyPrecedes(b.0.utf8) }
        return a.1.utf8.lexicographicallyPrecedes(b.1.utf8)
    }

    /// RFC 5849 §3.4.1.1: the HTTP method in uppercase; it must be an HTTP token.
    static func normalizedMethod(_ method: String) throws(FlickrError) -> String {
        guard !method.isEmpty,
            method.utf8.allSatisfy(PercentEncoding.isUnreserved)
        else {
            throw .invalid("the HTTP method \"\(method)\" is not valid (expected e.g. GET or POST)")
        }
        return String(decoding: method.utf8.map { (0x61...0x7A).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
}

/// Signs one request the way Flickr wants (flickr-protocol.md §5): adds oauth_consumer_key, oauth_nonce,
/// oauth_timestamp, oauth_signature_method=HMAC-SHA1, oauth_version=1.0, oauth_token (when given) and any
/// `extraOAuth` (e.g. oauth_callback, oauth_verifier), then oauth_signature. Caller values for those oauth_*
/// names are replaced, not duplicated.
package struct OAuthRequestSigner: Sendable {
    package var consumerKey: String
    package var consumerSecret: String
    package var token: String?
    package var tokenSecret: String?

    package init(consumerKey: String, consumerSecret: String, token: String?, tokenSecret: String?) {
        self.consumerKey = consumerKey
        self.consumerSecret = consumerSecret
        self.token = token
        self.tokenSecret = tokenSecret
    }

    package struct Signed: Sendable {
        /// The caller's parameters plus every oauth_* one incl. oauth_signature (for query/body), sorted by
        /// encoded name then value.
        package var parameters: [(String, String)]
        /// Every oauth_* parameter of `parameters`, incl. oauth_signature (for the header form), sorted.
        package var oauthParameters: [(String, String)]
        /// `OAuth oauth_consumer_key="...", oauth_nonce="...", ...` (values RFC 3986 encoded, quoted).
        package var authorizationHeader: String
        package var baseString: String

        /// What goes into the query or body when the oauth_* parameters travel in the Authorization header.
        package var nonOAuthParameters: [(String, String)] {
            parameters.filter { !$0.0.hasPrefix("oauth_") }
        }
    }

    /// `parameters` are the caller's parameters that take part in the signature (for uploads: every field
    /// except photo). Query parameters already in `url` are signed too but not repeated in the result.
    package func sign(
        method: String, url: String, parameters: [(String, String)], extraOAuth: [(String, String)] = [],
        nonce: String? = nil, timestamp: Int? = nil
    ) throws(FlickrError) -> Signed {
        var oauth: [(String, String)] = [
            ("oauth_consumer_key", consumerKey),
            ("oauth_nonce", nonce ?? OAuthSignature.nonce()),
            ("oauth_timestamp", String(timestamp ?? OAuthRequestSigner.now())),
            ("oauth_signature_method", "HMAC-SHA1"),
            ("oauth_version", "1.0"),
        ]
        if let token { oauth.append(("oauth_token", token)) }
        for (name, value) in extraOAuth where name != "oauth_signature" {
            if let index = oauth.firstIndex(where: { $0.0 == name }) {
                oauth[index].1 = value
            } else {
                oauth.append((name, value))
            }
        }
        let replaced = Set(oauth.map(\.0) + ["oauth_signature"])
        var all = parameters.filter { !replaced.contains($0.0) }
        all += oauth

        let base = try OAuthSignature.baseString(method: method, url: url, parameters: all)
        let signature = OAuthSignature.hmacSHA1(
            base: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret ?? "")
        all.append(("oauth_signature", signature))
        all = OAuthRequestSigner.sortedForOutput(all)

        let oauthParameters = all.filter { $0.0.hasPrefix("oauth_") }
        var header = "OAuth "
        for (index, pair) in oauthParameters.enumerated() {
            if index > 0 { header += ", " }
            header += PercentEncoding.encode(pair.0) + "=\"" + PercentEncoding.encode(pair.1) + "\""
        }
        return Signed(parameters: all, oauthParameters: oauthParameters, authorizationHeader: header, baseString: base)
    }

    /// Stable sort by encoded name then encoded value, so query strings are deterministic.
    static func sortedForOutput(_ pairs: [(String, String)]) -> [(String, String)] {
        pairs.enumerated()
            .map { item in
                let key = (PercentEncoding.encode(item.element.0), PercentEncoding.encode(item.element.1))
                return (offset: item.offset, pair: item.element, key: key)
            }
            .sorted {
                if OAuthSignature.encodedPairPrecedes($0.key, $1.key) { return true }
                if OAuthSignature.encodedPairPrecedes($1.key, $0.key) { return false }
                return $0.offset < $1.offset
            }
            .map(\.pair)
    }

    /// Unix time in whole seconds.
    static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }
}
