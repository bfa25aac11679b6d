// SPDX-License-Identifier: MIT

import Glibc

/// Renders a value tree as compact JSON: objects with their keys in document
/// order, arrays, strings. Strings are escaped per RFC 8259 (`"`, `\`, and
/// control characters as `\n \r \t \b \f` or `\u00XX`), other non-ASCII is
/// written as raw UTF-8, and U+2028/U+2029 are escaped so the output is safe
/// to embed in JavaScript. Iterative, so deep trees cannot exhaust the stack.
enum JSONWriter {
    private static let hex: StaticString = "0123456789abcdef"

    static func write(_ root: UnsafePointer<ValueNode>, into out: inout [UInt8]) {
        var stack: [(node: UnsafePointer<ValueNode>, next: Int)] = []
        var pending: UnsafePointer<ValueNode>? = root
        while true {
            if let node = pending {
                pending = nil
                switch node.kind {
                case .string:
                    appendString(node.pointee.ref, Int(node.pointee.length), into: &out)
                case .object:
                    out.append(UInt8(ascii: "{"))
                    if node.count == 0 { out.append(UInt8(ascii: "}")) } else { stack.append((node, 0)) }
                case .array:
                    out.append(UInt8(ascii: "["))
                    if node.count == 0 { out.append(UInt8(ascii: "]")) } else { stack.append((node, 0)) }
                }
            }
            guard let top = stack.last else { return }
            let isObject = top.node.kind == .object
            if top.next >= top.node.count {
                out.append(isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
                stack.removeLast()
                continue
            }
            guard let child = top.node.element(at: top.next) else { return }
            if top.next > 0 { out.append(UInt8(ascii: ",")) }
            if isObject {
                let key = child.pointee.key
                if let p = UnsafePointer<CChar>(bitPattern: key) {
                    appendString(key, strlen(p), into: &out)
                } else {
                    appendString(0, 0, into: &out)
                }
                out.append(UInt8(ascii: ":"))
            }
            stack[stack.count - 1].next += 1
            pending = child
        }
    }

    private static func appendString(_ address: UInt, _ length: Int, into out: inout [UInt8]) {
        guard let p = UnsafePointer<UInt8>(bitPattern: address), length > 0 else {
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: "\""))
            return
        }
        appendEscaped(UnsafeBufferPointer(start: p, count: length), into: &out)
    }

    /// Appends `bytes` (UTF-8) as a quoted, escaped JSON string.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let n = bytes.count
        var runStart = 0
        var i = 0
        while i < n {
            let b = bytes[i]
            if b >= 0x20, b != 0x22, b != 0x5C, b != 0xE2 {
                i += 1
                continue
            }
            if b == 0xE2 {
                // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
                if i + 2 < n, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                    out.append(contentsOf: bytes[i + 2] == 0xA8 ? Array("\\u2028".utf8) : Array("\\u2029".utf8))
                    i += 3
                    runStart = i
                } else {
                    i += 1
                }
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
            out.append(UInt8(ascii: "\\"))
            switch b {
            case 0x22: out.append(UInt8(ascii: "\""))
            case 0x5C: out.append(UInt8(ascii: "\\"))
            case 0x0A: out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(UInt8(ascii: "r"))
            case 0x09: out.append(UInt8(ascii: "t"))
            case 0x08: out.append(UInt8(ascii: "b"))
            case 0x0C: out.append(UInt8(ascii: "f"))
            default:
                out.append(UInt8(ascii: "u"))
                out.append(UInt8(ascii: "0"))
                out.append(UInt8(ascii: "0"))
                hex.withUTF8Buffer { digits in
                    out.append(digits[Int(b >> 4)])
                    out.append(digits[Int(b & 0x0F)])
                }
            }
            i += 1
            runStart = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<n]))
        out.append(UInt8(ascii: "\""))
    }

    /// `bytes` as a JSON string literal (for tests and diagnostics).
    static func quoted(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        bytes.withUnsafeBufferPointer { appendEscaped($0, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }
}
