// SPDX-License-Identifier: MIT

import Glibc

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
        package let verb: HTTPRequest.Verb
        package let permission: Permission
        package let required: [String]
        package let optional: [String]

        package var documentationURL: String { "https://www.flickr.com/services/api/\(name).html" }
    }

    /// Every method, sorted by name (byte order, as the table is written), as strings: built on first
    /// use, by the C API's list (flickr_method_count/_at/_find). Calls look methods up in the
    /// table's bytes instead (`entry(named:)`): reading all 223 into strings cost 845 k
    /// instructions, most of a fresh process's first call.
    package static let methods: [Method] = parse(table)

    /// A method's record in the table: where its name and its fields start.
    package struct Entry: Sendable {
        /// Position in `methods` and in the table.
        package let index: Int
        let nameStart: Int
        let nameLength: Int
        let verb: HTTPRequest.Verb
        /// The first required argument's offset (a list ended by an empty field).
        let requiredStart: Int
    }

    /// Each method's entry, in table order: one pass over the bytes, no strings.
    private static let entries: [Entry] = table.withUTF8Buffer { bytes in
        var entries: [Entry] = []
        entries.reserveCapacity(256)
        var position = 0
        /// The offset after the NUL that ends the field at `start`.
        func skipField(_ start: Int) -> Int {
            var i = start
            while i < bytes.count, bytes[i] != 0 { i += 1 }
            return Swift.min(i + 1, bytes.count)
        }
        func skipList(_ start: Int) -> Int {
            var i = start
            while i < bytes.count {
                let end = skipField(i)
                if end == i + 1 { return end }  // the empty field ends the list
                i = end
            }
            return i
        }
        while position < bytes.count {
            let nameStart = position
            let kindStart = skipField(nameStart)
            let requiredStart = skipField(kindStart)
            let next = skipList(skipList(requiredStart))
            defer { position = next }
            // The generator writes "G0"..."P3"; anything else would be a generator bug, skipped (as `parse` does).
            guard requiredStart - kindStart == 3, (0x30...0x33).contains(bytes[kindStart + 1]) else { continue }
            entries.append(Entry(index: entries.count, nameStart: nameStart, nameLength: kindStart - 1 - nameStart,
                                 verb: bytes[kindStart] == UInt8(ascii: "P") ? .post : .get,
                                 requiredStart: requiredStart))
        }
        return entries
    }

    /// The method of that name, or nil when the catalogue does not hold it.
    package static func method(named name: String) -> Method? {
        index(named: name).map { methods[$0] }
    }

    /// The method's position in `methods`, or nil.
    package static func index(named name: String) -> Int? {
        entry(named: name)?.index
    }

    /// The method's entry (binary search over the table's bytes), or nil.
    package static func entry(named name: String) -> Entry? {
        var name = name
        return name.withUTF8 { key in
            table.withUTF8Buffer { bytes -> Entry? in
                var low = 0, high = entries.count
                while low < high {
                    let middle = low + (high - low) / 2
                    let entry = entries[middle]
                    let order = compare(UnsafeBufferPointer(rebasing: bytes[entry.nameStart..<(entry.nameStart + entry.nameLength)]), key)
                    if order == 0 { return entry }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// The catalogue's verb for the method.
    package static func verb(of entry: Entry) -> HTTPRequest.Verb { entry.verb }

    /// The first required argument of a known method that `parameters` lacks; arguments the
    /// library sets itself (auth_token, oauth_token: RESTCall.isSetByLibrary) count as given.
    package static func missingArgument(of method: Method, in parameters: [(String, String)]) -> String? {
        method.required.first { name in
            !RESTCall.isSetByLibrary(name) && !parameters.contains { $0.0 == name }
        }
    }

    /// The same, read from the table's bytes: a string is made only for the missing one.
    package static func missingArgument(of entry: Entry, in parameters: [(String, String)]) -> String? {
        table.withUTF8Buffer { bytes -> String? in
            var start = entry.requiredStart
            while start < bytes.count, bytes[start] != 0 {
                var end = start
                while end < bytes.count, bytes[end] != 0 { end += 1 }
                let field = UnsafeBufferPointer(rebasing: bytes[start..<end])
                let given = parameters.contains { parameter in
                    var name = parameter.0
                    return name.withUTF8 { compare(field, $0) == 0 }
                }
                if !given {
                    let name = String(decoding: field, as: UTF8.self)
                    if !RESTCall.isSetByLibrary(name) { return name }
                }
                start = end + 1
            }
            return nil
        }
    }

    private static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = Swift.min(a.count, b.count)
        if common > 0, let x = a.baseAddress, let y = b.baseAddress {
            let order = memcmp(x, y, common)
            if order != 0 { return order < 0 ? -1 : 1 }
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
            methods.append(Method(name: name, verb: letters[0] == UInt8(ascii: "P") ? .post : .get,
                                  permission: permission, required: list(), optional: list()))
        }
        return methods
    }
}
