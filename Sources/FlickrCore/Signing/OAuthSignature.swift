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
        guard let schemeEnd = text.firstRange(ofText: "://") else { return base }
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
        // The system CSPRNG (getrandom) directly: OpenSSL 3's RAND_bytes dispatches through its providers
        // on every call, several times the cost of the bytes themselves.
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        return String(unsafeUninitializedCapacity: 32) { out in
            let digits: StaticString = "0123456789abcdef"
            let table = digits.utf8Start
            for i in 0..<16 {
                let word = i < 8 ? high : low
                let byte = UInt8(truncatingIfNeeded: word >> (UInt64(7 - i % 8) * 8))
                out[2 * i] = table[Int(byte >> 4)]
                out[2 * i + 1] = table[Int(byte & 0x0F)]
            }
            return 32
        }
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
        var all = parameters.filter { pair in pair.0 != "oauth_signature" && !oauth.contains { $0.0 == pair.0 } }
        all += oauth

        // Every pair is percent-encoded once and sorted once (by encoded name, then encoded value, then
        // position); the base string, the output order and the header all come from that one list.
        var encoded = all.enumerated().map { offset, pair in
            EncodedPair(pair: pair, name: PercentEncoding.encode(pair.0), value: PercentEncoding.encode(pair.1),
                        offset: offset)
        }
        encoded.sort(by: EncodedPair.precedes)

        let (endpoint, baseURL) = try OAuthRequestSigner.endpoint(url)
        let upperMethod = try OAuthSignature.normalizedMethod(method)
        var signed = encoded.filter { $0.pair.0 != "realm" }
        if let query = endpoint.query {
            // Query parameters of the URL are signed too (RFC 5849 §3.4.1.3.1) but not repeated in the output.
            let extra = PercentEncoding.parseForm(Substring(query))
            for (index, pair) in extra.enumerated() where pair.0 != "oauth_signature" && pair.0 != "realm" {
                signed.append(EncodedPair(pair: pair, name: PercentEncoding.encode(pair.0),
                                          value: PercentEncoding.encode(pair.1), offset: encoded.count + index))
            }
            signed.sort(by: EncodedPair.precedes)
        }
        var normalized: [UInt8] = []
        normalized.reserveCapacity(signed.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        for (index, item) in signed.enumerated() {
            if index > 0 { normalized.append(UInt8(ascii: "&")) }
            normalized.append(contentsOf: item.name.utf8)
            normalized.append(UInt8(ascii: "="))
            normalized.append(contentsOf: item.value.utf8)
        }
        let base = upperMethod + "&" + baseURL + "&"
            + PercentEncoding.encode(String(decoding: normalized, as: UTF8.self))
        let signature = OAuthSignature.hmacSHA1(
            base: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret ?? "")

        // oauth_signature goes where the stable sort would put it: after every pair not greater than it.
        let signatureItem = EncodedPair(pair: ("oauth_signature", signature), name: "oauth_signature",
                                        value: PercentEncoding.encode(signature), offset: encoded.count)
        let slot = encoded.firstIndex { EncodedPair.precedes(signatureItem, $0) } ?? encoded.count
        encoded.insert(signatureItem, at: slot)

        var header = "OAuth "
        var oauthParameters: [(String, String)] = []
        var first = true
        for item in encoded where item.pair.0.hasPrefix("oauth_") {
            oauthParameters.append(item.pair)
            if !first { header += ", " }
            first = false
            header += item.name + "=\"" + item.value + "\""
        }
        return Signed(parameters: encoded.map(\.pair), oauthParameters: oauthParameters, authorizationHeader: header,
                      baseString: base)
    }

    /// The parsed URL and its encoded signature base URL; the last URL is remembered, since a context
    /// signs for the same few endpoints over and over and parsing costs more than the rest of signing.
    private static func endpoint(_ url: String) throws(FlickrError) -> (EndpointURL, String) {
        if let hit = lastEndpoint.withLock({ $0?.url == url ? $0 : nil }) { return (hit.endpoint, hit.base) }
        let endpoint = try EndpointURL(parsing: url, what: "the request URL")
        let base = PercentEncoding.encode(OAuthSignature.baseURL(url, endpoint))
        lastEndpoint.withLock { $0 = (url, endpoint, base) }
        return (endpoint, base)
    }

    private static let lastEndpoint = Locked<(url: String, endpoint: EndpointURL, base: String)?>(nil)

    /// A parameter with its RFC 3986 encodings and its position among the parameters (for a stable order).
    private struct EncodedPair {
        var pair: (String, String)
        var name: String
        var value: String
        var offset: Int

        static func precedes(_ a: EncodedPair, _ b: EncodedPair) -> Bool {
            if OAuthSignature.encodedPairPrecedes((a.name, a.value), (b.name, b.value)) { return true }
            if OAuthSignature.encodedPairPrecedes((b.name, b.value), (a.name, a.value)) { return false }
            return a.offset < b.offset
        }
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
