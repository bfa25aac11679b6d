// SPDX-License-Identifier: MIT

/// Reads the ids out of a Flickr URL a person pasted (flickr_url_parse): short links, photo pages
/// (with `/in/...` contexts and `/sizes/...`), static image URLs of every size and host
/// generation, albums (sets), galleries, favourites, groups and their discussions, people.
///
/// The result is a list of string fields, `kind` first: "photo", "image", "album", "gallery",
/// "favorites", "group", "user" or "tag". Input is untrusted text: every step is bounded and
/// checked; anything else is FLICKR_EINVAL with a message saying what was expected.
package enum FlickrLink {
    private static let pageHosts: Set<String> = ["flickr.com", "www.flickr.com", "m.flickr.com", "secure.flickr.com"]

    @_optimize(size)
    package static func parse(_ text: String) throws(FlickrError) -> [(String, String)] {
        guard text.utf8.count <= 8192 else { throw .invalid("the URL is longer than 8192 bytes") }
        // Split scalar by scalar, never by Character: "\r\n" is one Character (so a pasted line's
        // end would not trim), and a "/" followed by a combining mark is one too.
        var rest = Substring(text).unicodeScalars
        let blank: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        while let first = rest.first, blank(first) { rest = rest.dropFirst() }
        while let last = rest.last, blank(last) { rest = rest.dropLast() }
        if let schemeEnd = Substring(rest).firstRange(ofText: "://") {
            let scheme = Substring(rest[..<schemeEnd.lowerBound]).asciiLowercased()
            guard scheme == "http" || scheme == "https" else {
                throw .invalid("\"\(scheme)\" is not a web URL scheme: a Flickr URL starts with https://")
            }
            rest = rest[schemeEnd.upperBound...]
        }
        // Query and fragment say nothing about ids.
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        let hostEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var host = rest[..<hostEnd]
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }  // user:pass@
        if let colon = host.lastIndex(of: ":") { host = host[..<colon] }  // :443
        if host.last == "." { host = host.dropLast() }
        // ASCII case only: Unicode lowercasing made "flic\u{212A}r.com" (a Kelvin sign) read as flickr.com.
        let hostName = Substring(host).asciiLowercased()
        var segments: [String] = []
        for piece in rest[hostEnd...].split(separator: "/") where !piece.isEmpty {
            guard segments.count < 16 else { break }
            segments.append(try decode(Substring(piece)))
        }
        guard !hostName.isEmpty else { throw .invalid("\"\(text)\" has no host: a Flickr URL names flickr.com") }
        if hostName == "flic.kr" || hostName == "www.flic.kr" { return try short(segments, text) }
        if ["staticflickr.com", "static.flickr.com"].contains(where: { hostName == $0 || hostName.hasSuffix("." + $0) }) {
            return try image(host: hostName, segments, text)
        }
        if pageHosts.contains(hostName) { return try page(segments, text) }
        throw .invalid("\"\(hostName)\" is not a Flickr host (flickr.com, flic.kr, *.staticflickr.com)")
    }

    // MARK: The URL forms

    @_optimize(size)
    private static func short(_ segments: [String], _ text: String) throws(FlickrError) -> [(String, String)] {
        guard segments.count >= 2, let number = Base58.decode(segments[1]) else {
            throw .invalid("\"\(text)\" is not a flic.kr short link (https://flic.kr/p/{code} or /s/{code})")
        }
        switch segments[0] {
        case "p": return [("kind", "photo"), ("photo_id", String(number))]
        case "s": return [("kind", "album"), ("album_id", String(number))]
        default: throw .invalid("\"\(text)\" is not a flic.kr short link (https://flic.kr/p/{code} or /s/{code})")
        }
    }

    /// {server}/{id}_{secret}[_{size}].{ext}, with a farm in the host (farm3.staticflickr.com) or,
    /// on c1.staticflickr.com, as the first segment.
    @_optimize(size)
    private static func image(host: String, _ segments: [String], _ text: String) throws(FlickrError)
        -> [(String, String)]
    {
        let expected = "an image URL ends in /{server}/{id}_{secret}[_{size}].{extension}"
        guard segments.count >= 2, let file = segments.last else { throw .invalid("\"\(text)\": \(expected)") }
        let server = segments[segments.count - 2]
        guard let dot = file.lastIndex(of: ".") else { throw .invalid("\"\(text)\": \(expected)") }
        let format = String(file[file.index(after: dot)...])
        let parts = file[..<dot].split(separator: "_", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3, isDigits(parts[0]), isAlphanumeric(parts[1]), isDigits(server),
              isAlphanumeric(format)
        else { throw .invalid("\"\(text)\": \(expected)") }
        var fields: [(String, String)] = [("kind", "image"), ("photo_id", parts[0]), ("server", server)]
        if let farm = farm(host: host, segments) { fields.append(("farm", farm)) }
        let size = parts.count == 3 ? parts[2] : ""
        guard size.isEmpty || PhotoURL.sizes.contains(size) else {
            throw .invalid("\"\(text)\": \"\(size)\" is not a Flickr image size")
        }
        if size == "o" {
            fields += [("originalsecret", parts[1]), ("originalformat", format), ("size", "o")]
        } else {
            fields += [("secret", parts[1]), ("size", size), ("format", format)]
        }
        return fields
    }

    @_optimize(size)
    private static func farm(host: String, _ segments: [String]) -> String? {
        if host.hasPrefix("farm") {
            let digits = host.dropFirst(4).prefix { $0 >= "0" && $0 <= "9" }
            if !digits.isEmpty { return String(digits) }
        }
        if segments.count == 3, isDigits(segments[0]) { return segments[0] }  // c1.staticflickr.com/{farm}/...
        return nil
    }

    @_optimize(size)
    private static func page(_ segments: [String], _ text: String) throws(FlickrError) -> [(String, String)] {
        let unknown = FlickrError.invalid(
            "\"\(text)\" is a flickr.com page without a photo, album, gallery, group or person in it")
        guard let first = segments.first else { throw unknown }
        switch first {
        case "photos":
            guard segments.count >= 2 else { throw unknown }
            if segments[1] == "tags" {
                guard segments.count >= 3 else { throw unknown }
                return [("kind", "tag"), ("tag", segments[2])]
            }
            let owner = user(segments[1])
            guard segments.count >= 3 else { return [("kind", "user")] + owner }
            let third = segments[2]
            if isDigits(third) {
                var fields: [(String, String)] = [("kind", "photo"), ("photo_id", third)] + owner
                var index = 3
                while index + 1 < segments.count {
                    switch segments[index] {
                    case "in": fields.append(("context", segments[index + 1]))
                    case "sizes": fields.append(("size", segments[index + 1] == "l" ? "b" : segments[index + 1]))
                    default: break
                    }
                    index += 2
                }
                return fields
            }
            switch third {
            case "albums", "sets":
                if segments.count >= 4, isDigits(segments[3]) {
                    return [("kind", "album"), ("album_id", segments[3])] + owner
                }
                return [("kind", "user")] + owner
            case "galleries":
                if segments.count >= 4, isDigits(segments[3]) {
                    return [("kind", "gallery"), ("gallery_id", segments[3])] + owner
                }
                return [("kind", "user")] + owner
            case "favorites": return [("kind", "favorites")] + owner
            default: return [("kind", "user")] + owner
            }
        case "people":
            guard segments.count >= 2 else { throw unknown }
            return [("kind", "user")] + user(segments[1])
        case "groups", "groups_pool":
            guard segments.count >= 2 else { throw unknown }
            var fields: [(String, String)] = [("kind", "group"), ("group", segments[1])]
            if segments[1].containsText("@") { fields.append(("group_id", segments[1])) }
            if segments.count >= 4, segments[2] == "discuss", isDigits(segments[3]) {
                fields.append(("topic_id", segments[3]))
            }
            return fields
        default:
            throw unknown
        }
    }

    /// The user part of a page URL: an NSID ("12037949754@N01") or a path alias.
    @_optimize(size)
    private static func user(_ text: String) -> [(String, String)] {
        text.containsText("@N") ? [("user", text), ("nsid", text)] : [("user", text), ("path_alias", text)]
    }

    // MARK: Helpers

    @_optimize(size)
    private static func isDigits(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 20 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    @_optimize(size)
    private static func isAlphanumeric(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy {
            ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= UInt8(ascii: "a") && $0 | 0x20 <= UInt8(ascii: "z"))
        }
    }

    /// Percent-decodes one path segment; invalid escapes or bytes that are not UTF-8 are refused.
    @_optimize(size)
    private static func decode(_ piece: Substring) throws(FlickrError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(piece.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard iterator.count >= 2, let high = hexValue(iterator[iterator.startIndex]),
                  let low = hexValue(iterator[iterator.startIndex + 1])
            else { throw .invalid("the URL has a malformed percent escape") }
            bytes.append(high << 4 | low)
            iterator = iterator.dropFirst(2)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalid("the URL's path is not UTF-8 once decoded")
        }
        guard !decoded.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalid("the URL's path holds control characters")
        }
        return decoded
    }

    @_optimize(size)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
