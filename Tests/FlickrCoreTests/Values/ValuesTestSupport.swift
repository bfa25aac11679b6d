// SPDX-License-Identifier: MIT

import Foundation

@testable import FlickrCore

/// Shared helpers for the value-tree tests.
enum ValuesTestSupport {
    /// Maps `xml` in one piece.
    static func tree(_ xml: String, maxDepth: Int = 256) throws(FlickrError) -> ValueTree {
        let mapper = XMLMapper(maxDepth: maxDepth)
        try feed(mapper, Array(xml.utf8))
        return try mapper.finish()
    }

    /// The JSON of the mapping of `xml`.
    static func json(_ xml: String) throws(FlickrError) -> String {
        let tree = try tree(xml)
        return withExtendedLifetime(tree) { tree.root.json() }
    }

    /// Runs `body` on the root of `xml`'s tree, keeping the tree alive meanwhile.
    static func withRoot<R>(_ xml: String, _ body: (UnsafePointer<ValueNode>) throws -> R) throws -> R {
        let tree = try tree(xml)
        return try withExtendedLifetime(tree) { try body(tree.root) }
    }

    /// Feeds `bytes[range]` (all of them by default) in one call.
    static func feed(_ mapper: XMLMapper, _ bytes: [UInt8], _ range: Range<Int>? = nil) throws(FlickrError) {
        var failure: FlickrError?
        bytes.withUnsafeBytes { buffer in
            do throws(FlickrError) {
                try mapper.feed(UnsafeRawBufferPointer(rebasing: buffer[range ?? 0..<buffer.count]))
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// `XMLMapper.parse` of a byte collection.
    static func parse<Bytes: ContiguousBytes>(_ bytes: Bytes) throws(FlickrError) -> ValueTree {
        var result: Result<ValueTree, FlickrError> = .failure(FlickrError(.error, "not run"))
        bytes.withUnsafeBytes { buffer in
            do throws(FlickrError) {
                result = .success(try XMLMapper.parse(buffer))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Maps `bytes` fed in chunks of `size` bytes.
    static func json(bytes: [UInt8], chunkSize size: Int) throws(FlickrError) -> String {
        let tree = try tree(bytes: bytes, chunkSize: size)
        return withExtendedLifetime(tree) { tree.root.json() }
    }

    /// The tree of `bytes` fed in chunks of `size` bytes.
    static func tree(bytes: [UInt8], chunkSize size: Int) throws(FlickrError) -> ValueTree {
        let mapper = XMLMapper()
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            try feed(mapper, bytes, offset..<end)
            offset = end
        }
        return try mapper.finish()
    }

    /// The error mapping `xml` gives, or nil if it maps.
    static func failure(_ xml: String, maxDepth: Int = 256) -> FlickrError? {
        failure(bytes: Array(xml.utf8), maxDepth: maxDepth)
    }

    static func failure(bytes: [UInt8], maxDepth: Int = 256) -> FlickrError? {
        let mapper = XMLMapper(maxDepth: maxDepth)
        do {
            try feed(mapper, bytes)
            _ = try mapper.finish()
            return nil
        } catch {
            return error
        }
    }

    static let fixturesDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // Values
        .deletingLastPathComponent()   // FlickrCoreTests
        .deletingLastPathComponent()   // Tests
        .appendingPathComponent("Fixtures/xml")

    /// Every fixture, as a path relative to `fixturesDirectory`, sorted.
    static func fixtureNames() -> [String] {
        let base = fixturesDirectory.path
        guard let walker = FileManager.default.enumerator(atPath: base) else { return [] }
        var names: [String] = []
        while let name = walker.nextObject() as? String {
            if name.hasSuffix(".xml") { names.append(name) }
        }
        return names.sorted()
    }

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixturesDirectory.appendingPathComponent(name))
    }
}
