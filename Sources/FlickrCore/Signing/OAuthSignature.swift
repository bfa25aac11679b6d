// SPDX-License-Identifier: MIT

import Glibc

/// OAuth 1.0a HMAC-SHA1 signatures (RFC 5849 §3.4; docs/protocol.md §5).
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
    /// (`http://www.example.com`) is signed without one, the path "as sent" (docs/protocol.md §5, rule 5, and
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
            .sortedStably(by: encodedPairPrecedes)
        var out = ""
        for (index, pair) in encoded.enumerated() {
            if index > 0 { out += "&" }
            out += pair.0 + "=" + pair.1
        }
        return out
    }

    /// base64(HMAC-SHA1(enc(consumerSecret)&enc(tokenSecret), base)). Empty only if libcrypto fails.
    package static func hmacSHA1(base: String, consumerSecret: String, tokenSecret: String) -> String {
        hmacSHA1(base: Array(base.utf8), consumerSecret: consumerSecret, tokenSecret: tokenSecret)
    }

    static func hmacSHA1(base: [UInt8], consumerSecret: String, tokenSecret: String) -> String {
        var key: [UInt8] = []
        PercentEncoding.appendEncoded(consumerSecret, to: &key)
        key.append(UInt8(ascii: "&"))
        PercentEncoding.appendEncoded(tokenSecret, to: &key)
        guard let digest = Crypto.hmacSHA1(key: key, data: base) else { return "" }
        return Base64.encode(digest)
    }

    /// 32 lowercase hex characters from 16 random bytes of the system CSPRNG.
    package static func nonce() -> String {
        let (high, low) = NonceBytes.shared.next()
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
        let names = compareBytes(a.0, b.0)
        return names != 0 ? names < 0 : compareBytes(a.1, b.1) < 0
    }

    /// memcmp order of two strings' UTF-8 (a shorter prefix first): negative, zero or positive.
    static func compareBytes(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard let p = x.baseAddress, let q = y.baseAddress else { return x.count - y.count }
                return compareBytes(p, x.count, q, y.count)
            }
        }
    }

    /// The same order over raw bytes.
    static func compareBytes(_ a: UnsafePointer<UInt8>, _ aCount: Int, _ b: UnsafePointer<UInt8>, _ bCount: Int)
        -> Int
    {
        let common = min(aCount, bCount)
        if common > 0 {
            let order = memcmp(a, b, common)
            if order != 0 { return Int(order) }
        }
        return aCount - bCount
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

/// Signs one request the way Flickr wants (docs/protocol.md §5): adds oauth_consumer_key, oauth_nonce,
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
        /// `parameters` as a query string or form body: `name=value` pairs, RFC 3986 encoded, joined by `&`
        /// (what PercentEncoding.formEncode(parameters) gives, from the encodings signing already made).
        package var formEncoded: String

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
        // position); the base string, the output order, the query or body, and the header all come from
        // that one list, and the byte strings are built in byte buffers, not by string concatenation.
        var encoded = all.enumerated().map { offset, pair in
            EncodedPair(pair: pair, name: PercentEncoding.encode(pair.0), value: PercentEncoding.encode(pair.1),
                        offset: offset)
        }
        encoded.sortStably(by: EncodedPair.precedes)

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
            signed.sortStably(by: EncodedPair.precedes)
        }
        // METHOD&enc(base URL)&enc(name=value&...): the normalized parameters are encoded a second time
        // as they are written, so they never exist as a string of their own.
        var base: [UInt8] = []
        base.reserveCapacity(upperMethod.utf8.count + baseURL.utf8.count + 2
                             + signed.reduce(0) { $0 + 3 * ($1.name.utf8.count + $1.value.utf8.count + 2) })
        PercentEncoding.appendUTF8(upperMethod, to: &base)
        base.append(UInt8(ascii: "&"))
        PercentEncoding.appendUTF8(baseURL, to: &base)
        base.append(UInt8(ascii: "&"))
        for (index, item) in signed.enumerated() {
            if index > 0 { base.append(contentsOf: "%26".utf8) }  // "&", encoded
            PercentEncoding.appendEncoded(item.name, to: &base)
            base.append(contentsOf: "%3D".utf8)  // "=", encoded
            PercentEncoding.appendEncoded(item.value, to: &base)
        }
        let signature = OAuthSignature.hmacSHA1(
            base: base, consumerSecret: consumerSecret, tokenSecret: tokenSecret ?? "")

        // oauth_signature goes where the stable sort would put it: after every pair not greater than it.
        let signatureItem = EncodedPair(pair: ("oauth_signature", signature), name: "oauth_signature",
                                        value: PercentEncoding.encode(signature), offset: encoded.count)
        let slot = encoded.firstIndex { EncodedPair.precedes(signatureItem, $0) } ?? encoded.count
        encoded.insert(signatureItem, at: slot)

        var header: [UInt8] = Array("OAuth ".utf8)
        var form: [UInt8] = []
        form.reserveCapacity(encoded.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 2 })
        var oauthParameters: [(String, String)] = []
        for (index, item) in encoded.enumerated() {
            if index > 0 { form.append(UInt8(ascii: "&")) }
            PercentEncoding.appendUTF8(item.name, to: &form)
            form.append(UInt8(ascii: "="))
            PercentEncoding.appendUTF8(item.value, to: &form)
            guard item.pair.0.utf8.starts(with: "oauth_".utf8) else { continue }
            oauthParameters.append(item.pair)
            if header.count > 6 { header.append(contentsOf: ", ".utf8) }
            PercentEncoding.appendUTF8(item.name, to: &header)
            header.append(contentsOf: "=\"".utf8)
            PercentEncoding.appendUTF8(item.value, to: &header)
            header.append(UInt8(ascii: "\""))
        }
        return Signed(parameters: encoded.map { $0.pair }, oauthParameters: oauthParameters,
                      authorizationHeader: String(decoding: header, as: UTF8.self),
                      baseString: String(decoding: base, as: UTF8.self),
                      formEncoded: String(decoding: form, as: UTF8.self))
    }

    /// The parsed URL and its encoded signature base URL; the last URL is remembered, since a context
    /// signs for the same few endpoints over and over and parsing costs more than the rest of signing.
    static func endpoint(_ url: String) throws(FlickrError) -> (EndpointURL, String) {
        if let hit = lastEndpoint.withLock({ $0?.url == url ? $0 : nil }) { return (hit.endpoint, hit.base) }
        let endpoint = try EndpointURL(parsing: url, what: "the request URL")
        let base = PercentEncoding.encode(OAuthSignature.baseURL(url, endpoint))
        lastEndpoint.withLock { $0 = (url, endpoint, base) }
        return (endpoint, base)
    }

    private static let lastEndpoint = Locked<(url: String, endpoint: EndpointURL, base: String)?>(nil)

    static func lockForFork() { lastEndpoint.lockForFork() }
    static func unlockAfterFork() { lastEndpoint.unlockAfterFork() }

    /// A parameter with its RFC 3986 encodings and its position among the parameters (for a stable order).
    private struct EncodedPair {
        var pair: (String, String)
        var name: String
        var value: String
        var offset: Int

        static func precedes(_ a: EncodedPair, _ b: EncodedPair) -> Bool {
            var order = OAuthSignature.compareBytes(a.name, b.name)
            if order == 0 { order = OAuthSignature.compareBytes(a.value, b.value) }
            return order != 0 ? order < 0 : a.offset < b.offset
        }
    }

    /// Unix time in whole seconds.
    static func now() -> Int {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int(spec.tv_sec)
    }
}
