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
        storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: body.count + 1)
        _ = storage.initialize(from: body)
        storage[body.count] = 0
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
        return Response(tree: tree, body: Array(bytes), httpStatus: 0)
    }
}
