// SPDX-License-Identifier: MIT

/// Flickr's REST methods as `flickr.reflection` describes them: verb, permission, required and
/// optional arguments (`api_key` left out). The table is generated (MethodTable.swift, by
/// scripts/catalogue.py from data/flickr-methods.json) and read once, on first use.
///
/// The catalogue informs, it never forbids: a method it does not hold is sent as given (Flickr
/// adds methods), so only a known method's missing required argument is refused.
package enum MethodCatalogue {
    package enum Permission: Int32, Sendable {
        case none = 0, read = 1, write = 2, delete = 3

        package var name: String {
            switch self {
            case .none: "none"
            case .read: "read"
            case .write: "write"
            case .delete: "delete"
            }
        }
    }

    package struct Method: Sendable {
        package let name: String
        /// The name's UTF-8, kept for the binary search (no conversion per comparison).
        let nameBytes: [UInt8]
        package let verb: HTTPRequest.Verb
        package let permission: Permission
        package let required: [String]
        package let optional: [String]

        package var documentationURL: String { "https://www.flickr.com/services/api/\(name).html" }
    }

    /// Every method, sorted by name (byte order, as the table is written).
    package static let methods: [Method] = parse(table)

    /// The method of that name, or nil when the catalogue does not hold it.
    package static func method(named name: String) -> Method? {
        index(named: name).map { methods[$0] }
    }

    /// The method's position in `methods` (binary search), or nil.
    package static func index(named name: String) -> Int? {
        var low = 0, high = methods.count
        let key = Array(name.utf8)
        while low < high {
            let middle = low + (high - low) / 2
            let order = compare(methods[middle].nameBytes, key)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle }
        }
        return nil
    }

    /// The first required argument of a known method that `parameters` lacks; arguments the
    /// library sets itself (auth_token, oauth_token: RESTCall.isSetByLibrary) count as given.
    package static func missingArgument(of method: Method, in parameters: [(String, String)]) -> String? {
        method.required.first { name in
            !RESTCall.isSetByLibrary(name) && !parameters.contains { $0.0 == name }
        }
    }

    private static func compare(_ a: [UInt8], _ b: [UInt8]) -> Int {
        let common = min(a.count, b.count)
        var index = 0
        while index < common {
            if a[index] != b[index] { return a[index] < b[index] ? -1 : 1 }
            index += 1
        }
        return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
    }

    /// Reads the generated table: per method, NUL-terminated fields: name, verb letter and
    /// permission digit, the required arguments, "", the optional arguments, "".
    static func parse(_ table: StaticString) -> [Method] {
        var fields: [String] = []
        table.withUTF8Buffer { bytes in
            var start = 0
            for index in bytes.indices where bytes[index] == 0 {
                fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                start = index + 1
            }
        }
        var methods: [Method] = []
        var index = 0
        func next() -> String? {
            guard index < fields.count else { return nil }
            defer { index += 1 }
            return fields[index]
        }
        func list() -> [String] {
            var names: [String] = []
            while let name = next(), !name.isEmpty { names.append(name) }
            return names
        }
        while let name = next(), let kind = next() {
            let letters = Array(kind.utf8)
            // The generator writes "G0"..."P3"; anything else would be a generator bug, skipped.
            guard letters.count == 2, let permission = Permission(rawValue: Int32(letters[1]) - 0x30) else {
                _ = list(); _ = list()
                continue
            }
            methods.append(Method(name: name, nameBytes: Array(name.utf8), verb: letters[0] == UInt8(ascii: "P") ? .post : .get,
                                  permission: permission, required: list(), optional: list()))
        }
        return methods
    }
}
