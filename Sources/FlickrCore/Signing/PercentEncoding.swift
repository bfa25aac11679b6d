// SPDX-License-Identifier: MIT

/// RFC 3986 percent-encoding and `application/x-www-form-urlencoded` handling,
/// as OAuth 1.0a signing (RFC 5849 §3.6) and Flickr's query strings need them.
package enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// True for RFC 3986 unreserved bytes: `A-Z a-z 0-9 - . _ ~`.
    @inline(__always)
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986: keeps A-Z a-z 0-9 - . _ ~, everything else %XX uppercase over UTF-8 (space -> %20, never +).
    package static func encode(_ s: String) -> String {
        // The hot path of signing: most names and values need no escape and are returned as they are.
        var s = s
        if s.withUTF8({ $0.allSatisfy(isUnreserved) }) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3)
        appendEncoded(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the RFC 3986 encoding of `s` (as `encode`) to a byte buffer.
    static func appendEncoded(_ s: String, to out: inout some ByteSink) {
        var s = s
        s.withUTF8 { appendEncoded(bytes: $0, to: &out) }
    }

    /// Appends the RFC 3986 encoding of UTF-8 bytes to a byte buffer.
    static func appendEncoded(bytes: UnsafeBufferPointer<UInt8>, to out: inout some ByteSink) {
        guard let base = bytes.baseAddress else { return }
        // Runs of unreserved bytes (most of any value) are copied whole.
        var runStart = 0
        for index in 0..<bytes.count where !isUnreserved(base[index]) {
            out.append(bytes: base + runStart, count: index - runStart)
            out.append(byte: UInt8(ascii: "%"))
            out.append(byte: upperHex(base[index] >> 4))
            out.append(byte: upperHex(base[index] & 0x0F))
            runStart = index + 1
        }
        out.append(bytes: base + runStart, count: bytes.count - runStart)
    }

    /// Appends a string's UTF-8 to a byte buffer in one copy.
    static func appendUTF8(_ s: String, to out: inout some ByteSink) {
        var s = s
        s.withUTF8 { bytes in
            if let base = bytes.baseAddress { out.append(bytes: base, count: bytes.count) }
        }
    }

    @inline(__always)
    private static func upperHex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "A") + nibble - 10
    }

    /// Encodes every UTF-8 byte for which `keep` is false as `%XX` (uppercase hex).
    package static func encode(_ s: String, keeping keep: (UInt8) -> Bool) -> String {
        if s.utf8.allSatisfy(keep) { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count * 3)
        for byte in s.utf8 {
            if keep(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes %XX (and "+" as space when plusAsSpace); malformed escapes are kept literally.
    /// Invalid UTF-8 after decoding -> repaired with U+FFFD.
    package static func decode(_ s: Substring, plusAsSpace: Bool) -> String {
        let bytes = Array(s.utf8)
        guard bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(s)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.count,
                let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2])
            {
                out.append(high << 4 | low)
                i += 3
            } else if byte == UInt8(ascii: "+"), plusAsSpace {
                out.append(UInt8(ascii: " "))
                i += 1
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// application/x-www-form-urlencoded -> ordered pairs; "a" alone gives ("a",""); empty pieces skipped;
    /// duplicates kept.
    package static func parseForm(_ s: Substring) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for piece in s.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = piece.firstIndex(of: "=") {
                let name = decode(piece[..<equals], plusAsSpace: true)
                let value = decode(piece[piece.index(after: equals)...], plusAsSpace: true)
                pairs.append((name, value))
            } else {
                pairs.append((decode(piece, plusAsSpace: true), ""))
            }
        }
        return pairs
    }

    /// Ordered pairs -> "k=v&k2=v2" with RFC 3986 encoding of names and values (used for query strings and
    /// POST bodies).
    package static func formEncode(_ pairs: [(String, String)]) -> String {
        var out = ""
        for (index, pair) in pairs.enumerated() {
            if index > 0 { out += "&" }
            out += encode(pair.0)
            out += "="
            out += encode(pair.1)
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
