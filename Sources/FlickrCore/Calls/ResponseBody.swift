// SPDX-License-Identifier: MIT

import Glibc

/// An answer's body as it is received, then kept by its `Response` (flickr_response_body):
/// filled by the transfer and handed over, never copied. Past `PageMemory.threshold` it lives in
/// pages of its own that grow without copying (mremap), so a 32 MiB body costs 32 MiB at every
/// moment of its arrival, and goes back to the system with its response (bench/NOTES.md, Change 21).
/// Written by one thread (the transfer's), then only read.
package final class ResponseBody: @unchecked Sendable {
    /// The bytes, and room for the NUL written after them when the transfer ends.
    private var storage: RawStack<UInt8>

    /// The most bytes kept; past it chunks are counted by the transfer but not stored.
    private let limit: Int

    /// A body that keeps at most `limit` bytes: a photo's first bytes, or a call's first 512 when its
    /// context keeps no body (FLICKR_OPT_KEEP_BODY 0). Such a body is never an answer's body.
    package init(keepingAtMost limit: Int = Int.max) {
        self.limit = limit
        // Under 1,008 bytes with malloc's header: glibc serves a request of 1,024 or more as a
        // large one, consolidating its fast bins first (0.5 k instructions a call).
        storage = RawStack(firstCapacity: 960, mapsLarge: true)
    }

    deinit {
        storage.release()
    }

    package var count: Int { storage.count }

    /// What a body not kept (FLICKR_OPT_KEEP_BODY 0) still gathers: what ResponseInterpreter reads.
    static let failurePrefixBytes = 512

    /// Whether the body is kept whole (no `limit`): only such a body is shown as an answer's.
    var isWhole: Bool { limit == Int.max }

    /// Appends what of `chunk` fits under the limit; false when memory runs out (the body is then
    /// incomplete).
    func append(_ chunk: UnsafeRawBufferPointer) -> Bool {
        let room = limit > storage.count ? limit - storage.count : 0
        guard chunk.count > 0, room > 0 else { return true }
        guard chunk.count <= room else { return append(UnsafeRawBufferPointer(rebasing: chunk.prefix(room))) }
        // One more for the NUL, so that `bytes` never grows the buffer.
        guard let source = chunk.baseAddress, storage.reserve(chunk.count + 1) else { return false }
        UnsafeMutableRawPointer(storage.pointer + storage.count).copyMemory(from: source, byteCount: chunk.count)
        storage.count += chunk.count
        storage.pointer[storage.count] = 0
        return true
    }

    /// The bytes, followed by a NUL (so that C callers may treat them as a string).
    package var bytes: UnsafeBufferPointer<UInt8> { ResponseBody.bytes(of: storage) }

    static func bytes(of storage: RawStack<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let base = storage.base else {
            let empty: StaticString = ""  // its NUL
            return UnsafeBufferPointer(start: empty.utf8Start, count: 0)
        }
        return UnsafeBufferPointer(start: base, count: storage.count)
    }

    /// Hands the bytes over (to the response); the body is empty afterwards.
    func take() -> RawStack<UInt8> {
        let taken = storage
        storage = RawStack(firstCapacity: 960, mapsLarge: true)
        return taken
    }

    /// `bytes` and a NUL in a buffer of their size (flickr_response_parse, an OAuth step's form), from
    /// Swift's allocator as the copy before ResponseBody was.
    static func copy(_ bytes: UnsafeRawBufferPointer) -> RawStack<UInt8> {
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: bytes.count + 1)
        if let source = bytes.baseAddress, bytes.count > 0 {
            UnsafeMutableRawPointer(block).copyMemory(from: source, byteCount: bytes.count)
        }
        block[bytes.count] = 0
        return RawStack(adopting: block, count: bytes.count, capacity: bytes.count + 1)
    }

    /// A copy, for the small bodies read as text (OAuth forms, an image's first bytes).
    package var array: [UInt8] { Array(bytes) }
}
