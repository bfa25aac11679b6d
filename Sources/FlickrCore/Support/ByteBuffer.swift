// SPDX-License-Identifier: MIT

/// Where byte writers (percent-encoding, the signer, the JSON writer) append: a `[UInt8]`, or a
/// `ByteBuffer`.
protocol ByteSink {
    mutating func append(bytes start: UnsafePointer<UInt8>, count: Int)
    mutating func append(byte: UInt8)
}

extension ByteSink {
    mutating func append(_ text: StaticString) {
        append(bytes: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func append(bytes start: UnsafePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        append(contentsOf: UnsafeBufferPointer(start: start, count: count))
    }

    mutating func append(byte: UInt8) {
        append(byte)
    }
}

/// A growable byte buffer in malloc'd memory. Each append is a capacity check and one memmove,
/// where an Array's is a uniqueness check and an element-by-element copy: signing a call makes
/// about 60 appends of a few bytes (6 k instructions as Arrays; bench/NOTES.md, Change 19).
/// Running out of memory is remembered in `failed` and later appends do nothing: the owner checks
/// it before using the bytes. The owner also calls `release`.
struct ByteBuffer: ByteSink {
    private var storage: RawStack<UInt8>
    private(set) var failed = false

    init(capacity: Int) {
        storage = RawStack(firstCapacity: capacity)
    }

    var count: Int { storage.count }

    mutating func append(bytes start: UnsafePointer<UInt8>, count: Int) {
        guard count > 0, !failed else { return }
        guard storage.reserve(count) else {
            failed = true
            return
        }
        (storage.pointer + storage.count).copyElements(from: start, count: count)
        storage.count &+= count
    }

    mutating func append(byte: UInt8) {
        guard !failed else { return }
        guard storage.reserve(1) else {
            failed = true
            return
        }
        storage.pointer[storage.count] = byte
        storage.count &+= 1
    }

    /// Overwrites the 4 bytes at `offset` (written already) with `value`, little-endian: a length
    /// known only once what it counts is written.
    mutating func set(uint32LE value: UInt32, at offset: Int) {
        guard !failed, offset >= 0, offset <= storage.count &- 4 else { return }
        let at = storage.pointer + offset
        at[0] = UInt8(truncatingIfNeeded: value)
        at[1] = UInt8(truncatingIfNeeded: value >> 8)
        at[2] = UInt8(truncatingIfNeeded: value >> 16)
        at[3] = UInt8(truncatingIfNeeded: value >> 24)
    }

    /// Overwrites the byte at `offset` (written already).
    mutating func set(byte: UInt8, at offset: Int) {
        guard !failed, offset >= 0, offset < storage.count else { return }
        storage.pointer[offset] = byte
    }

    /// Marks the buffer failed: an allocation its writer needed besides the buffer failed.
    mutating func fail() {
        failed = true
    }

    /// Lets `body` write up to `room` bytes at the end through a raw pointer (no check per byte);
    /// `body` returns how many it wrote (at most `room`).
    mutating func write(room: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        guard !failed else { return }
        guard room >= 0, storage.reserve(room) else {
            failed = true
            return
        }
        let written = body(storage.pointer + storage.count)
        storage.count &+= Swift.min(Swift.max(written, 0), room)
    }

    /// The bytes and a NUL, handed over as a malloc'd C string (the caller frees it); nil, with the
    /// buffer released, when an allocation failed. The buffer is empty afterwards.
    mutating func takeCString() -> UnsafeMutablePointer<CChar>? {
        append(byte: 0)
        // Never mapped (RawStack's default): the caller frees it with free.
        guard !failed, let text = storage.take() else {
            storage.release()
            return nil
        }
        return UnsafeMutableRawPointer(text.pointer).assumingMemoryBound(to: CChar.self)
    }

    /// The bytes written so far, valid during `body` (which must not append).
    func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: storage.base, count: storage.base == nil ? 0 : storage.count))
    }

    mutating func release() {
        storage.release()
    }
}
