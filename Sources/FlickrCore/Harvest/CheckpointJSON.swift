// SPDX-License-Identifier: MIT

/// The JSON of a harvest checkpoint, read back: objects, arrays, strings, whole numbers, true,
/// false and null (a checkpoint has no fractions). The file is the caller's, so everything is
/// checked: nesting is bounded, numbers must fit an Int64 or a UInt64, strings must be valid escapes.
indirect enum CheckpointJSON: Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    /// A whole number above Int64.max (an item id of 2^63 or more): never one `int` holds.
    case uint(UInt64)
    case string(String)
    case array([CheckpointJSON])
    case object([(String, CheckpointJSON)])

    @_optimize(size)
    static func == (a: CheckpointJSON, b: CheckpointJSON) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.int(x), .int(y)): return x == y
        case let (.uint(x), .uint(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)):
            // Element by element: `x == y` specialised Array's == with this function inlined, 6 KB.
            guard x.count == y.count else { return false }
            for index in x.indices where x[index] != y[index] { return false }
            return true
        case let (.object(x), .object(y)):  // key order does not matter (Python writes its own)
            return x.count == y.count && x.allSatisfy { entry in y.contains { $0.0 == entry.0 && $0.1 == entry.1 } }
        default: return false
        }
    }

    subscript(key: String) -> CheckpointJSON? {
        if case let .object(entries) = self { return entries.first { $0.0 == key }?.1 }
        return nil
    }

    var int: Int64? { if case let .int(value) = self { return value } else { return nil } }

    /// A number from 0 to UInt64.max (an item id), whichever case holds it.
    var uint: UInt64? {
        switch self {
        case let .int(value): return value >= 0 ? UInt64(value) : nil
        case let .uint(value): return value
        default: return nil
        }
    }

    /// `value` as JSON: `int` when it fits, so that small numbers compare equal to those read back.
    static func number(_ value: UInt64) -> CheckpointJSON {
        value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }
    var array: [CheckpointJSON]? { if case let .array(value) = self { return value } else { return nil } }
    var isNull: Bool { if case .null = self { return true } else { return false } }

    /// Compact JSON text of the value (strings escaped as JSONWriter escapes them).
    var text: String {
        switch self {
        case .null: return "null"
        case let .bool(value): return value ? "true" : "false"
        case let .int(value): return String(value)
        case let .uint(value): return String(value)
        case let .string(value): return JSONWriter.quoted(Array(value.utf8))
        case let .array(items):
            return "[" + items.map { $0.text }.joined(separator: ",") + "]"
        case let .object(entries):
            return "{" + entries.map { JSONWriter.quoted(Array($0.0.utf8)) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    /// The value `bytes` holds, or nil when they are not such JSON.
    @_optimize(size)
    static func parse(_ bytes: [UInt8]) -> CheckpointJSON? {
        var reader = Reader(bytes: bytes)
        guard let value = reader.value(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? value : nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        static let maxDepth = 16

        @_optimize(size)
        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        @_optimize(size)
        mutating func literal(_ word: String) -> Bool {
            let text = Array(word.utf8)
            guard index + text.count <= bytes.count, Array(bytes[index..<index + text.count]) == text else { return false }
            index += text.count
            return true
        }

        @_optimize(size)
        mutating func value(depth: Int) -> CheckpointJSON? {
            skipSpace()
            guard index < bytes.count, depth < Reader.maxDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var entries: [(String, CheckpointJSON)] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(entries) }
                while true {
                    skipSpace()
                    guard let key = string(), expect(":"), let item = value(depth: depth + 1) else { return nil }
                    entries.append((key, item))
                    skipSpace()
                    if expect("}") { return .object(entries) }
                    guard expect(",") else { return nil }
                }
            case UInt8(ascii: "["):
                index += 1
                var items: [CheckpointJSON] = []
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
                while true {
                    guard let item = value(depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpace()
                    if expect("]") { return .array(items) }
                    guard expect(",") else { return nil }
                }
            case UInt8(ascii: "\""):
                return string().map(CheckpointJSON.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number()
            }
        }

        @_optimize(size)
        mutating func expect(_ character: Unicode.Scalar) -> Bool {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        @_optimize(size)
        mutating func number() -> CheckpointJSON? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            var magnitude: UInt64 = 0
            let start = index
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                let (times, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(UInt64(bytes[index] - 0x30))
                guard !o1, !o2 else { return nil }
                magnitude = sum
                index += 1
            }
            guard index > start else { return nil }
            if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
                return nil  // no fractions in a checkpoint
            }
            if !negative { return .number(magnitude) }
            guard magnitude <= UInt64(Int64.max) else { return nil }
            return .int(-Int64(magnitude))
        }

        @_optimize(size)
        mutating func string() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            index += 1
            var out: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\"") { return String(validating: out, as: UTF8.self) }
                if byte < 0x20 { return nil }
                if byte != UInt8(ascii: "\\") { out.append(byte); continue }
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var code = hex4() else { return nil }
                    if (0xD800..<0xDC00).contains(code) {  // a surrogate pair
                        guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { return nil }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: return nil
                }
            }
            return nil
        }

        @_optimize(size)
        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                index += 1
                let digit: UInt8
                switch byte {
                case 0x30...0x39: digit = byte - 0x30
                case 0x41...0x46: digit = byte - 0x41 + 10
                case 0x61...0x66: digit = byte - 0x61 + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
            }
            return value
        }
    }
}
