// SPDX-License-Identifier: MIT

/// Image, page and short URLs of a photo (docs/protocol.md §8), built from the attributes of a
/// photo as Flickr returns it (search results, getInfo, ...).
package enum PhotoURL {
    package static let staticHost = ContextOption.photoEndpoint.defaultURL ?? ""  // the header's: never ""
    package static let pageBase = "https://www.flickr.com/photos/"
    package static let shortBase = "https://flic.kr/p/"

    // The sizes, and where each URL takes its secret from: SizeTable.swift, generated from
    // data/flickr-sizes.json by scripts/gen-sizes.py.

    /// `field` reads a photo's attribute by key path ("id", "secret", "server", "originalsecret", "originalformat",
    /// "url_h", "owner", "owner.nsid", "owner.path_alias", "pathalias", "path_alias", ...), returning nil when absent.
    /// Shared-secret sizes (s q t m n w "" z c b): https://live.staticflickr.com/{server}/{id}_{secret}[_{suffix}].jpg
    /// ("" = no suffix); id, secret and server are required (non-empty; id decimal digits; secret and server
    /// RFC 3986 unreserved characters only).
    /// Sizes with their own secret (h k 3k 4k 5k 6k): only from the photo's url_{size} attribute, else an error.
    /// "o": url_o when present, else https://live.staticflickr.com/{server}/{id}_{originalsecret}_o.{originalformat}.
    /// `host` replaces https://live.staticflickr.com in built URLs (a sandbox's is "http://127.0.0.1:8080/photos").
    @_optimize(size)
    package static func source(
        size: String, field: (String) -> String?, host: String = staticHost
    ) throws(FlickrError) -> String {
        switch secret(ofSize: size) {
        case .shared:
            let parts = try idSecretServer(size: size, secretName: "secret", field: field)
            let suffix = size.isEmpty ? "" : "_" + size
            return "\(host)/\(parts.server)/\(parts.id)_\(parts.secret)\(suffix).jpg"
        case .own(let name):
            if let url = try extraURL(name, field: field) { return url }
            throw .invalid(
                "\"\(name)\" is missing from the photo: size \"\(size)\" has its own secret, so its URL cannot be "
                    + "built from id/secret/server; request extras=\(name) or call flickr.photos.getSizes")
        case .original(let name):
            if let url = try extraURL(name, field: field) { return url }
            let parts = try idSecretServer(size: size, secretName: "originalsecret", field: field)
            guard let format = nonEmpty(field("originalformat")) else {
                throw .invalid(
                    "\"originalformat\" is missing from the photo: size \"\(size)\" needs originalsecret and "
                        + "originalformat (request extras=original_format or \(name), or call flickr.photos.getInfo)")
            }
            guard format.utf8.allSatisfy(isAlphanumeric) else {
                throw .invalid("the photo's originalformat \"\(format)\" is not a file extension")
            }
            return "\(host)/\(parts.server)/\(parts.id)_\(parts.secret)_\(size).\(format)"
        case nil:
            throw .invalid("unknown photo size \"\(size)\"; valid sizes are \(sizeNames)")
        }
    }

    /// The image URL a context downloads from: `source` on FLICKR_OPT_PHOTO_ENDPOINT (a sandbox's
    /// "/photos", or Flickr's static host).
    @_optimize(size)
    package static func source(size: String, field: (String) -> String?, settings: Settings) throws(FlickrError)
        -> String
    {
        var host = Substring(settings.string(.photoEndpoint) ?? staticHost)
        while host.hasSuffix("/") { host = host.dropLast() }  // image paths come with their own "/"
        return try source(size: size, field: field, host: String(host))
    }

    /// https://www.flickr.com/photos/{user}/{id}/ where user = path alias (pathalias / path_alias /
    /// owner.path_alias, non-empty) else the owner's NSID (owner.nsid, or owner as a string); id required.
    /// Components percent-encoded where needed (`@` of an NSID stays literal, as on flickr.com).
    @_optimize(size)
    package static func page(field: (String) -> String?) throws(FlickrError) -> String {
        guard let id = nonEmpty(field("id")) else {
            throw .invalid("\"id\" is missing from the photo: a photo page URL needs the photo id")
        }
        let user =
            nonEmpty(field("pathalias")) ?? nonEmpty(field("path_alias")) ?? nonEmpty(field("owner.path_alias"))
            ?? nonEmpty(field("owner.nsid")) ?? nonEmpty(field("owner"))
        guard let user else {
            throw .invalid(
                "\"owner\" is missing from the photo: a photo page URL needs the owner's NSID (owner or owner.nsid) "
                    + "or path alias (extras=path_alias)")
        }
        let userPart = PercentEncoding.encode(user) { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "@") }
        return pageBase + userPart + "/" + PercentEncoding.encode(id) + "/"
    }

    /// https://flic.kr/p/{base58(id)}; .invalidArgument for a non-numeric id.
    @_optimize(size)
    package static func short(photoID: String) throws(FlickrError) -> String {
        guard let code = Base58.encode(photoID: photoID) else {
            throw .invalid("photo id \"\(photoID)\" is not a decimal number that fits in 64 bits")
        }
        return shortBase + code
    }

    // MARK: Helpers

    @_optimize(size)
    private static func nonEmpty(_ value: String?) -> String? {
        guard let value, !value.isEmpty else { return nil }
        return value
    }

    @_optimize(size)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    @_optimize(size)
    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }

    /// A single path-safe segment: unreserved characters only, not `.` or `..`.
    @_optimize(size)
    private static func isPathSafe(_ value: String) -> Bool {
        value != "." && value != ".." && value.utf8.allSatisfy(PercentEncoding.isUnreserved)
    }

    @_optimize(size)
    private static func idSecretServer(
        size: String, secretName: String, field: (String) -> String?
    ) throws(FlickrError) -> (id: String, secret: String, server: String) {
        let label = size.isEmpty ? "\"\" (500 px)" : "\"\(size)\""
        let needs = "size \(label) needs id, \(secretName) and server"
        guard let id = nonEmpty(field("id")) else { throw .invalid("\"id\" is missing from the photo: \(needs)") }
        guard let secret = nonEmpty(field(secretName)) else {
            let hint =
                secretName == "originalsecret"
                ? " (request extras=original_format or url_o, or call flickr.photos.getInfo; originals are only "
                    + "visible to callers allowed to download them)"
                : ""
            throw .invalid("\"\(secretName)\" is missing from the photo: \(needs)\(hint)")
        }
        guard let server = nonEmpty(field("server")) else {
            throw .invalid("\"server\" is missing from the photo: \(needs)")
        }
        guard id.utf8.allSatisfy(isDigit) else { throw .invalid("the photo id \"\(id)\" is not a decimal number") }
        guard isPathSafe(secret) else {
            throw .invalid("the photo's \(secretName) \"\(secret)\" contains characters not allowed in a URL")
        }
        guard isPathSafe(server) else {
            throw .invalid("the photo's server \"\(server)\" contains characters not allowed in a URL")
        }
        return (id, secret, server)
    }

    /// The photo's `url_*` extra when present and non-empty, its scheme in lower case ("Https://"
    /// is the same URL, but callers compare prefixes); an error when it is not an http(s) URL.
    @_optimize(size)
    private static func extraURL(_ name: String, field: (String) -> String?) throws(FlickrError) -> String? {
        guard let url = nonEmpty(field(name)) else { return nil }
        let parsed = try EndpointURL(parsing: url, what: "the photo's \(name)")
        guard let schemeEnd = url.firstRange(ofText: "://") else { return url }
        return parsed.scheme + url[schemeEnd.lowerBound...]
    }
}
