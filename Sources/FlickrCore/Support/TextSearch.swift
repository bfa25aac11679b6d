// SPDX-License-Identifier: MIT

import Glibc

// Text work over UTF-8 bytes: substring search, ASCII case, byte offsets. The standard library's String-in-String `contains`,
// `firstRange(of:)` and `replacing(_:with:)` live in _StringProcessing (the regex engine), which
// the library does not link: it would be about a megabyte of the .so for these three uses.
extension StringProtocol {
    /// The first occurrence of `needle` (byte for byte), or nil; an empty needle is found at the start.
    func firstRange(ofText needle: some StringProtocol) -> Range<Index>? {
        let haystack = utf8
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return startIndex..<startIndex }
        var start = haystack.startIndex
        while let candidate = haystack[start...].firstIndex(of: first) {
            var here = candidate
            var matched = 0
            while matched < pattern.count, here != haystack.endIndex, haystack[here] == pattern[matched] {
                matched += 1
                haystack.formIndex(after: &here)
            }
            if matched == pattern.count { return candidate..<here }
            if here == haystack.endIndex && matched < pattern.count { return nil }
            start = haystack.index(after: candidate)
        }
        return nil
    }

    /// Whether `needle` occurs in the text (byte for byte).
    func containsText(_ needle: some StringProtocol) -> Bool {
        firstRange(ofText: needle) != nil
    }

    /// The text with A-Z made a-z and every other scalar kept: for schemes and host names, which
    /// are compared as ASCII (`lowercased()` runs the Unicode case tables, and would make the
    /// Kelvin sign U+212A a "k").
    package func asciiLowercased() -> String {
        String(decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The text with a-z made A-Z and every other scalar kept (`uppercased()` would bring the
    /// Unicode case tables, about 20 KB of the library, for HTTP methods).
    package func asciiUppercased() -> String {
        String(decoding: utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 & 0xDF : $0 }, as: UTF8.self)
    }
}

extension Character {
    /// `isWhitespace` (whether the first scalar has Unicode's White_Space property) from the
    /// property's 25 code points: `isWhitespace` reads the scalar property tables, 22 KB of the
    /// library, for the plain-text excerpts of error pages only.
    var isWhiteSpace: Bool {
        guard let scalar = unicodeScalars.first else { return false }
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }
}

extension String {
    /// The byte offset of the first `byte` in the UTF-8 text, by memchr (a `utf8.firstIndex(of:)`
    /// steps through an index per byte: 1 k instructions on a signed call's URL).
    func utf8Offset(of byte: UInt8) -> Int? {
        var text = self
        return text.withUTF8 { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
            return UnsafeRawPointer(found) - UnsafeRawPointer(base)
        }
    }

    /// Every occurrence of `target` replaced by `replacement`, left to right, without overlaps.
    func replacingText(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var out = ""
        var rest = self[...]
        while let found = rest.firstRange(ofText: target) {
            out += rest[..<found.lowerBound]
            out += replacement
            rest = rest[found.upperBound...]
        }
        out += rest
        return out
    }
}
