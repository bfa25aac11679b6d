// SPDX-License-Identifier: MIT

import Glibc

/// A successful answer: the mapped tree plus the raw body. Immutable, so it
/// can be read from any thread; the pointers it hands out live as long as it.
package final class Response: @unchecked Sendable {
    package let tree: ValueTree
    package let httpStatus: Int
    /// The body as received, followed by a NUL: the transfer's buffer, moved here (not copied).
    /// Held in place, not as a `ResponseBody`: one heap object more per response changed glibc's
    /// trimming of its heap top enough to fault 2.8x the pages in a loop parsing a 0.6 MB photo
    /// list (25% slower; bench/NOTES.md, Change 21).
    private var storage: RawStack<UInt8>

    /// Takes `body` over; a body kept only in part (FLICKR_OPT_KEEP_BODY 0) is dropped, whatever its
    /// size, so that flickr_response_body is "" for every answer of such a context.
    package init(tree: ValueTree, body: ResponseBody, httpStatus: Int) {
        self.tree = tree
        self.httpStatus = httpStatus
        storage = body.isWhole ? body.take() : RawStack(firstCapacity: 0)  // the part kept goes with `body`
    }

    package init(tree: ValueTree, body: [UInt8], httpStatus: Int) {
        self.tree = tree
        self.httpStatus = httpStatus
        storage = body.withUnsafeBytes { ResponseBody.copy($0) }
    }

    deinit {
        storage.release()
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

    package var root: UnsafePointer<ValueNode> { tree.root }

    /// The raw body; `count` excludes the trailing NUL.
    package var body: UnsafeBufferPointer<UInt8> { ResponseBody.bytes(of: storage) }

    /// Parses a buffer with the same mapping as network responses (flickr_response_parse).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(FlickrError) -> Response {
        let tree = try XMLMapper.parse(bytes)
        return Response(tree: tree, storage: ResponseBody.copy(bytes), httpStatus: 0)
    }

    private init(tree: ValueTree, storage: RawStack<UInt8>, httpStatus: Int) {
        self.tree = tree
        self.httpStatus = httpStatus
        self.storage = storage
    }
}
