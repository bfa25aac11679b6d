// SPDX-License-Identifier: MIT

import Glibc

/// A successful answer: the mapped tree plus the raw body. Immutable, so it
/// can be read from any thread; the pointers it hands out live as long as it.
package final class Response: @unchecked Sendable {
    package let tree: ValueTree
    package let httpStatus: Int
    /// The body bytes followed by a NUL, so C callers may also treat it as a string.
    private let storage: UnsafeMutableBufferPointer<UInt8>

    package init(tree: ValueTree, body: [UInt8], httpStatus: Int) {
        self.tree = tree
        self.httpStatus = httpStatus
        storage = Response.copy(body)
    }

    package init(tree: ValueTree, bodyBytes: UnsafeRawBufferPointer, httpStatus: Int) {
        self.tree = tree
        self.httpStatus = httpStatus
        storage = Response.copy(bodyBytes)
    }

    /// A separate function, not a closure in the initializer: withUnsafeBytes rethrows, and an
    /// initializer that may throw after allocating is what Embedded Swift must not have
    /// (ctest embedded_no_partial_class_dealloc).
    private static func copy(_ body: [UInt8]) -> UnsafeMutableBufferPointer<UInt8> {
        body.withUnsafeBytes { copy($0) }
    }

    /// The bytes and a NUL, copied with one memcpy (initialize(from:) went byte by byte: 1.6 M
    /// instructions for a 600 KB answer, a tenth of its whole mapping).
    private static func copy(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableBufferPointer<UInt8> {
        let storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + 1)
        if let source = bytes.baseAddress, let target = storage.baseAddress, bytes.count > 0 {
            memcpy(target, source, bytes.count)
        }
        storage[bytes.count] = 0
        return storage
    }

    /// The answer of a call whose body nobody reads (flickr_call_discard): `<rsp stat="ok"/>` and no
    /// body. Nil only if that envelope could not be mapped once (out of memory).
    package static func discarded(status: Int) -> Response? {
        acknowledged.map { Response(tree: $0, body: [], httpStatus: status) }
    }

    /// Mapped once per process; a tree is immutable, so every discarded answer shares it.
    private static let acknowledged: ValueTree? = {
        let envelope: StaticString = "<rsp stat=\"ok\"/>"
        return try? XMLMapper.parse(UnsafeRawBufferPointer(start: envelope.utf8Start, count: envelope.utf8CodeUnitCount))
    }()

    deinit {
        storage.deallocate()
    }

    package var root: UnsafePointer<ValueNode> { tree.root }

    /// The raw body; `count` excludes the trailing NUL.
    package var body: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: UnsafeBufferPointer(storage)[0..<(storage.count - 1)])
    }

    /// Parses a buffer with the same mapping as network responses (flickr_response_parse).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(FlickrError) -> Response {
        let tree = try XMLMapper.parse(bytes)
        return Response(tree: tree, bodyBytes: bytes, httpStatus: 0)
    }
}
