// SPDX-License-Identifier: MIT

import CCurl

/// An http(s) URL split into the parts that OAuth signing and validation need.
///
/// Deliberately small: endpoints are configured by developers, so anything
/// that is not a plain `scheme://host[:port]/path[?query]` is refused rather
/// than guessed at.
package struct EndpointURL: Equatable, Sendable {
    package var scheme: String
    package var host: String
    package var port: Int?
    package var path: String
    package var query: String?

    /// Parses `text`; throws FLICKR_EINVAL with a message naming `what`.
    package init(parsing text: String, what: String) throws(FlickrError) {
        func refuse(_ reason: String) -> FlickrError {
            .invalid("\(what) must be an http:// or https:// URL (\(reason))")
        }
        if text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            throw refuse("spaces and control characters are not allowed")
        }
        // Parsed scalar by scalar, never by Character: a "/" followed by a combining mark is one
        // Character, which would hide the end of the host (and String subscripts round a byte
        // index down to a Character boundary).
        let scalars = text.unicodeScalars
        guard let schemeEnd = text.firstRange(ofText: "://") else { throw refuse("no scheme") }
        let scheme = Substring(scalars[..<schemeEnd.lowerBound]).asciiLowercased()
        guard scheme == "http" || scheme == "https" else { throw refuse("scheme \"\(scheme)\"") }
        var rest = scalars[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        if authority.contains("@") { throw refuse("credentials in the URL are not allowed") }
        var host = authority
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), authority.last != "]" {
            let digits = authority[authority.index(after: colon)...]
            guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0 >= "0" && $0 <= "9" }),
                let number = Int(String(Substring(digits))), (1...65535).contains(number)
            else {
                throw refuse("bad port")
            }
            port = number
            host = authority[..<colon]
        }
        guard !host.isEmpty else { throw refuse("no host") }
        guard host.allSatisfy({ $0.isASCII }) else {
            throw refuse("the host is not ASCII: write an international name in its xn-- form")
        }
        var pathAndQuery = rest[authorityEnd...]
        var query: String?
        if let mark = pathAndQuery.firstIndex(of: "?") {
            query = String(Substring(pathAndQuery[pathAndQuery.index(after: mark)...]))
            pathAndQuery = pathAndQuery[..<mark]
        }
        self.scheme = scheme
        self.host = Substring(host).asciiLowercased()  // ASCII, checked above
        self.port = port
        self.path = pathAndQuery.isEmpty ? "/" : String(Substring(pathAndQuery))
        self.query = query
        if let reason = disagreementWithLibcurl(text) { throw refuse(reason) }
    }

    /// Why libcurl, which sends the request, would read `text` otherwise than this parser, or nil.
    ///
    /// The signature base string and the same-origin redirect check are only right if they see the
    /// URL libcurl sends: libcurl rewrites some forms (numeric IPv4 such as `127.1`, non-canonical
    /// IPv6, percent-escapes in the host, `.`/`..` path segments, non-ASCII in the path or query).
    /// Those are refused here rather than signed as written. curl_url with the flags libcurl's own
    /// URL setter uses (CURLU_GUESS_SCHEME | CURLU_NON_SUPPORT_SCHEME), and the path and
    /// query read back percent-encoded as libcurl writes them on the request line.
    private func disagreementWithLibcurl(_ text: String) -> String? {
        guard let handle = curl_url() else { return "out of memory" }
        defer { curl_url_cleanup(handle) }
        let flags = UInt32(CURLU_GUESS_SCHEME) | UInt32(CURLU_NON_SUPPORT_SCHEME)
        guard curl_url_set(handle, CURLUPART_URL, text, flags) == CURLUE_OK else {
            return "libcurl cannot parse it"
        }
        func part(_ which: CURLUPart, _ flags: Int32) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, UInt32(flags)) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        // libcurl keeps the host's case; hosts compare case-insensitively (RFC 3986 §3.2.2).
        guard part(CURLUPART_SCHEME, 0) == scheme, part(CURLUPART_HOST, 0)?.asciiLowercased() == host,
            part(CURLUPART_PORT, CURLU_DEFAULT_PORT) == "\(effectivePort)"
        else {
            return "libcurl would connect to another host or port: write the host as libcurl sends it"
        }
        guard part(CURLUPART_PATH, CURLU_URLENCODE) == path,
            (part(CURLUPART_QUERY, CURLU_URLENCODE) ?? "") == (query ?? "")
        else {
            return "libcurl would send another path or query: write it percent-encoded, without . or .. segments"
        }
        return nil
    }

    /// The port a client connects to.
    package var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

    /// RFC 5849 §3.4.1.2 base URL: lowercase scheme and host, the port only when
    /// not the scheme's default, the path as given, no query or fragment.
    package var signatureBase: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let portPart = port.map { $0 == defaultPort ? "" : ":\($0)" } ?? ""
        return "\(scheme)://\(host)\(portPart)\(path)"
    }
}
