// SPDX-License-Identifier: MIT

/// Recognises a Flickr success from an answer's first bytes, for calls whose answer nobody reads
/// (flickr_call_discard): an optional byte order mark and XML declaration, then a `<rsp` start tag whose
/// `stat` attribute is `ok`. Anything else, a failure or an answer written in an unexpected way, is not
/// recognised and goes through the full mapping, so it is judged and reported as flickr_call does.
/// The rest of the document is not looked at: that is the point of not reading it.
enum SuccessEnvelope {
    static func matches(_ body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { matches($0) }
    }

    static func matches(_ body: UnsafeBufferPointer<UInt8>) -> Bool {
        var scan = Scanner(body)
        scan.skip("\u{FEFF}")  // the byte order mark, in UTF-8
        scan.skipSpaces()
        if scan.skip("<?xml") {
            guard scan.skipPast(UInt8(ascii: "?"), then: UInt8(ascii: ">")) else { return false }
            scan.skipSpaces()
        }
        guard scan.skip("<rsp"), scan.skipSpaces() else { return false }
        while let name = scan.name() {
            scan.skipSpaces()
            guard scan.skip("=") else { return false }
            scan.skipSpaces()
            guard let value = scan.quoted() else { return false }
            if name.elementsEqual("stat".utf8) { return value.elementsEqual("ok".utf8) }
            guard scan.skipSpaces() else { return false }  // attributes are separated by white space
        }
        return false  // `>` or `/>` (or the end) before any stat attribute
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// Skips `text` if the bytes continue with it.
        @discardableResult
        mutating func skip(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// Skips XML white space; true if there was some.
        @discardableResult
        mutating func skipSpaces() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D
            {
                index += 1
            }
            return index > start
        }

        /// Moves past the first `first` directly followed by `second`.
        mutating func skipPast(_ first: UInt8, then second: UInt8) -> Bool {
            while index + 1 < bytes.count {
                defer { index += 1 }
                if bytes[index] == first && bytes[index + 1] == second {
                    index += 1
                    return true
                }
            }
            return false
        }

        /// An attribute name (ASCII letters, digits, `_ - . :`), or nil at anything else.
        mutating func name() -> UnsafeBufferPointer<UInt8>? {
            let start = index
            scanning: while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
                    UInt8(ascii: ":"):
                    index += 1
                default:
                    break scanning
                }
            }
            return index > start ? UnsafeBufferPointer(rebasing: bytes[start..<index]) : nil
        }

        /// A value in single or double quotes (without them), or nil.
        mutating func quoted() -> UnsafeBufferPointer<UInt8>? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'")
            else { return nil }
            let quote = bytes[index]
            let start = index + 1
            var end = start
            while end < bytes.count, bytes[end] != quote { end += 1 }
            guard end < bytes.count else { return nil }
            index = end + 1
            return UnsafeBufferPointer(rebasing: bytes[start..<end])
        }
    }
}
