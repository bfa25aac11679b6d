// SPDX-License-Identifier: MIT

import Glibc

/// Flickr's REST methods as `flickr.reflection` describes them: verb, permission, required and
/// optional arguments (`api_key` left out). The table is generated (MethodTable.swift, by
/// scripts/catalogue.py from data/flickr-methods.json): calls look a method up in its bytes
/// (`entry(named:)`); the strings of every method are built once, for the C API's list.
///
/// The catalogue informs, it never forbids: a method it does not hold is sent as given (Flickr
/// adds methods), so only a known method's missing required argument is refused.
package enum MethodCatalogue {
    // Permission (flickr_permission's cases and Flickr's names) is generated into HeaderTables.swift.

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

    /// A method's record in the table: where its name and its argument lists start.
    package struct Entry: Sendable {
        /// Position in `methods` and in the table.
        package let index: Int
        let nameStart: Int
        let nameLength: Int
        let verb: HTTPRequest.Verb
        let permission: Permission
        /// The first required argument's offset (a list ended by an empty field, then the optional list).
        let requiredStart: Int
    }

    /// Reads a generated table, one pass over its bytes and no strings: per method, NUL-terminated
    /// fields: name, verb letter and permission digit, the required arguments, "", the optional
    /// arguments, "". A record whose kind is not "G0"..."P3" (a generator bug) is skipped, as is an
    /// unfinished last one.
    static func entries(in table: StaticString) -> [Entry] {
        table.withUTF8Buffer { bytes in
            var entries: [Entry] = []
            entries.reserveCapacity(256)
            var position = 0
            while position < bytes.count {
                let (entry, next) = record(at: position, index: entries.count, in: bytes)
                if let entry { entries.append(entry) }
                position = next
            }
            return entries
        }
    }

    /// The record at `position`: its entry (nil when its kind field is malformed) and where the
    /// next record begins.
    private static func record(at position: Int, index: Int, in bytes: UnsafeBufferPointer<UInt8>)
        -> (entry: Entry?, next: Int)
    {
        let nameEnd = fieldEnd(bytes, position)
        let kindStart = Swift.min(nameEnd + 1, bytes.count)
        let requiredStart = Swift.min(fieldEnd(bytes, kindStart) + 1, bytes.count)
        var next = requiredStart
        forEachField(bytes, &next) { _ in true }  // the required arguments
        forEachField(bytes, &next) { _ in true }  // the optional ones
        guard requiredStart - kindStart == 3, bytes[requiredStart - 1] == 0,
              let permission = Permission(rawValue: Int32(bytes[kindStart + 1]) - 0x30)
        else { return (nil, next) }
        let entry = Entry(index: index, nameStart: position, nameLength: nameEnd - position,
                          verb: bytes[kindStart] == UInt8(ascii: "P") ? .post : .get,
                          permission: permission, requiredStart: requiredStart)
        return (entry, next)
    }

    /// Every method of a generated table, as strings.
    static func parse(_ table: StaticString) -> [Method] {
        table.withUTF8Buffer { bytes in
            entries(in: table).map { entry in
                var start = entry.requiredStart
                var required: [String] = [], optional: [String] = []
                forEachField(bytes, &start) { required.append(String(decoding: $0, as: UTF8.self)); return true }
                forEachField(bytes, &start) { optional.append(String(decoding: $0, as: UTF8.self)); return true }
                let name = UnsafeBufferPointer(rebasing: bytes[entry.nameStart..<(entry.nameStart + entry.nameLength)])
                return Method(name: String(decoding: name, as: UTF8.self), verb: entry.verb, permission: entry.permission,
                              required: required, optional: optional)
            }
        }
    }

    /// The offset of the NUL that ends the field at `start` (the end of the bytes if none does).
    private static func fieldEnd(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Int {
        var end = start
        while end < bytes.count, bytes[end] != 0 { end += 1 }
        return end
    }

    /// Calls `body` with each field of the list at `start`, up to the empty field that ends it, until
    /// `body` returns false; `start` then moves past the list (without allocating: the first call
    /// of a process scans every list of the table).
    private static func forEachField(_ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int,
                                     _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        while start < bytes.count, bytes[start] != 0 {
            let end = fieldEnd(bytes, start)
            guard body(UnsafeBufferPointer(rebasing: bytes[start..<end])) else { return }
            start = Swift.min(end + 1, bytes.count)
        }
        start = Swift.min(start + 1, bytes.count)
    }

    /// The method of that name, or nil when the catalogue does not hold it.
    package static func method(named name: String) -> Method? {
        index(named: name).map { methods[$0] }
    }

    /// The method's position in `methods`, or nil.
    package static func index(named name: String) -> Int? {
        entry(named: name)?.index
    }

    /// The method's entry (binary search over the names in the table's bytes, at `recordStarts`), or nil.
    package static func entry(named name: String) -> Entry? {
        var name = name
        return name.withUTF8 { key in
            table.withUTF8Buffer { bytes -> Entry? in
                var low = 0, high = recordStarts.count
                while low < high {
                    let middle = low + (high - low) / 2
                    let start = Int(recordStarts[middle])
                    guard start < bytes.count else { return nil }
                    let order = compare(UnsafeBufferPointer(rebasing: bytes[start..<fieldEnd(bytes, start)]), key)
                    if order == 0 { return record(at: start, index: middle, in: bytes).entry }
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return nil
            }
        }
    }

    /// The first required argument of a known method that `parameters` lacks, read from the table's
    /// bytes (a string is made only for the missing one); arguments the library sets itself
    /// (auth_token, oauth_token: RESTCall.isSetByLibrary) count as given.
    package static func missingArgument(of entry: Entry, in parameters: [(String, String)]) -> String? {
        table.withUTF8Buffer { bytes -> String? in
            var start = entry.requiredStart
            var missing: String?
            forEachField(bytes, &start) { field in
                let given = parameters.contains { parameter in
                    var name = parameter.0
                    return name.withUTF8 { compare(field, $0) == 0 }
                }
                if given { return true }
                let name = String(decoding: field, as: UTF8.self)
                if RESTCall.isSetByLibrary(name) { return true }
                missing = name
                return false
            }
            return missing
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
}
