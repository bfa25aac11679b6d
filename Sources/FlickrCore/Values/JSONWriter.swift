// SPDX-License-Identifier: MIT

import Glibc

/// Renders a value tree as compact JSON: objects with their keys in document
/// order, arrays, strings. Strings are escaped per RFC 8259 (`"`, `\`, and
/// control characters as `\n \r \t \b \f` or `\u00XX`), other non-ASCII is
/// written as raw UTF-8, and U+2028/U+2029 are escaped so the output is safe
/// to embed in JavaScript. Bytes that are not UTF-8 (a form answer's `%FF`)
/// become U+FFFD, one for each maximal ill-formed subpart, as Swift's and
/// Python's decoders replace them: the output is always valid UTF-8.
/// The walk itself is `TreeWalk`'s, shared with `MarshalWriter`.
///
/// The text is written once, into one malloc'd buffer that becomes the C API's
/// result: Python's `call` renders every answer, and building it as a `[UInt8]`,
/// then a `String`, then a `strdup` copy cost 25 k instructions for a 500-byte
/// echo answer (bench/NOTES.md, Change 17).
enum JSONWriter {
    /// `node` and everything below it as a malloc'd, NUL-terminated string (free it with `free`);
    /// nil when memory runs out.
    static func render(_ node: UnsafePointer<ValueNode>) -> UnsafeMutablePointer<CChar>? {
        var out = ByteBuffer(capacity: 1024)
        write(node, into: &out)
        return out.takeCString()
    }

    /// `bytes` as a JSON string literal (for tests and diagnostics); empty if memory runs out.
    static func quoted(_ bytes: [UInt8]) -> String {
        var out = ByteBuffer(capacity: 64)
        bytes.withUnsafeBufferPointer { buffer in
            if let base = buffer.baseAddress { appendString(base, buffer.count, to: &out) } else { out.append("\"\"") }
        }
        guard let text = out.takeCString() else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Input bytes escaped per reservation.
    private static let sliceBytes = 4096

    /// Appends `count` bytes at `start` as a quoted, escaped JSON string. Written through a raw
    /// pointer, a slice of the input at a time, with room for the slice's worst case (every byte
    /// a `\u00XX`): no check per byte but the byte's own class.
    static func appendString(_ start: UnsafePointer<UInt8>, _ count: Int, to buffer: inout ByteBuffer) {
        buffer.append(byte: UInt8(ascii: "\""))
        var i = 0
        while i < count && !buffer.failed {
            // A sequence begun in the slice may end up to 3 bytes after it.
            let sliceEnd = Swift.min(count, i &+ sliceBytes)
            buffer.write(room: 6 &* (sliceEnd &- i) &+ 24) { first in
                var out = first
                var j = i  // a local: the closure may not be inlined, and `i` is captured
                while j < sliceEnd {
                    let b = start[j]
                    if b &- 0x20 < 0x60 && b != 0x22 && b != 0x5C {  // printable ASCII but " and \
                        out.pointee = b
                        out += 1
                        j &+= 1
                        continue
                    }
                    if b >= 0x80 {
                        let (valid, length) = utf8Sequence(start + j, count &- j)
                        if valid && b == 0xE2 && length == 3 && start[j &+ 1] == 0x80
                            && (start[j &+ 2] == 0xA8 || start[j &+ 2] == 0xA9) {
                            out = put(start[j &+ 2] == 0xA8 ? "\\u2028" : "\\u2029", at: out)
                        } else {
                            out = copySequence(start + j, valid: valid, length: length, to: out)
                        }
                        j &+= length
                        continue
                    }
                    switch b {
                    case 0x22: out = put("\\\"", at: out)
                    case 0x5C: out = put("\\\\", at: out)
                    case 0x0A: out = put("\\n", at: out)
                    case 0x0D: out = put("\\r", at: out)
                    case 0x09: out = put("\\t", at: out)
                    case 0x08: out = put("\\b", at: out)
                    case 0x0C: out = put("\\f", at: out)
                    default:
                        out = put("\\u00", at: out)
                        let digits: StaticString = "0123456789abcdef"
                        out[0] = digits.utf8Start[Int(b >> 4)]
                        out[1] = digits.utf8Start[Int(b & 0x0F)]
                        out += 2
                    }
                    j &+= 1
                }
                i = j
                return out - first
            }
        }
        buffer.append(byte: UInt8(ascii: "\""))
    }

    /// Writes `text` at `out` (room reserved) and returns the position after it.
    @inline(__always)
    private static func put(_ text: StaticString, at out: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        out.copyElements(from: text.utf8Start, count: text.utf8CodeUnitCount)
        return out + text.utf8CodeUnitCount
    }

    static func write(_ root: UnsafePointer<ValueNode>, into out: inout ByteBuffer) {
        var format = Format()
        TreeWalk.write(root, as: &format, into: &out)
    }

    /// JSON's part of the walk: brackets, commas, quoted keys and strings.
    private struct Format: TreeFormat {
        func string(_ text: UnsafePointer<UInt8>?, _ count: Int, into out: inout ByteBuffer) {
            if let text { appendString(text, count, to: &out) } else { out.append("\"\"") }
        }

        func open(_ node: UnsafePointer<ValueNode>, into out: inout ByteBuffer) {
            out.append(byte: node.kind == .object ? UInt8(ascii: "{") : UInt8(ascii: "["))
        }

        func close(isObject: Bool, into out: inout ByteBuffer) {
            out.append(byte: isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }

        func member(_ index: Int, key: UnsafePointer<UInt8>?, into out: inout ByteBuffer) {
            if index > 0 { out.append(byte: UInt8(ascii: ",")) }
            if let key {
                appendString(key, strlen(UnsafeRawPointer(key).assumingMemoryBound(to: CChar.self)), to: &out)
            } else {
                out.append("\"\"")
            }
            out.append(byte: UInt8(ascii: ":"))
        }

        func element(_ index: Int, into out: inout ByteBuffer) {
            if index > 0 { out.append(byte: UInt8(ascii: ",")) }
        }
    }

    /// Writes the `length` bytes at `start` at `at` when `valid` (a well-formed sequence), else one
    /// U+FFFD for them (a maximal ill-formed subpart; see `utf8Sequence`). Returns the end of what
    /// was written (at most 4 bytes, and 3 for each byte read).
    @inline(__always)
    static func copySequence(_ start: UnsafePointer<UInt8>, valid: Bool, length: Int,
                             to at: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if valid {
            at.copyElements(from: start, count: length)
            return at + length
        }
        at[0] = 0xEF  // U+FFFD
        at[1] = 0xBF
        at[2] = 0xBD
        return at + 3
    }

    /// The UTF-8 sequence starting at `start` (a byte >= 0x80; `available` > 0 bytes readable):
    /// (true, its length) when well-formed, else (false, the length of its maximal ill-formed
    /// subpart, at least 1), which is replaced by one U+FFFD (Unicode 15, section 3.9).
    static func utf8Sequence(_ start: UnsafePointer<UInt8>, _ available: Int) -> (valid: Bool, length: Int) {
        let lead = start[0]
        let trailing: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: trailing = 1
        case 0xE0: trailing = 2; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: trailing = 2
        case 0xED: trailing = 2; high = 0x9F  // no surrogates
        case 0xF0: trailing = 3; low = 0x90
        case 0xF1...0xF3: trailing = 3
        case 0xF4: trailing = 3; high = 0x8F  // nothing above U+10FFFF
        default: return (false, 1)
        }
        var k = 1
        while k <= trailing {
            guard k < available else { return (false, k) }
            let byte = start[k]
            guard byte >= low && byte <= high else { return (false, k) }
            low = 0x80
            high = 0xBF
            k &+= 1
        }
        return (true, k)
    }
}
