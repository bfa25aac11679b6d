// SPDX-License-Identifier: MIT

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
