// SPDX-License-Identifier: MIT

import Glibc

/// A growable array of plain values in malloc'd memory: no copy-on-write or
/// reference counting in the mapper's hot path, and the buffer can be handed
/// to a `ValueTree` without copying. `reserve` reports allocation failure
/// instead of trapping; callers check it before writing.
struct RawStack<Element: BitwiseCopyable> {
    private(set) var base: UnsafeMutablePointer<Element>?
    var count = 0
    private(set) var capacity = 0
    /// The first allocation's size: a mapper's stacks start near a small answer's needs, so that
    /// one allocation usually serves a whole call (each doubling from 16 is a realloc and a copy).
    /// Negative: the same size, and a buffer of `PageMemory.threshold` bytes or more moves to pages
    /// of its own (the mapper's stacks, a body: a large answer grows without copies and leaves
    /// nothing behind). One field for both, so that the stack stays four words: a fifth slowed
    /// the signer's byte buffers by 1 k instructions a call (bench/NOTES.md, Change 21).
    private let firstCapacityAndMapping: Int

    init(firstCapacity: Int = 16, mapsLarge: Bool = false) {
        let first = Swift.max(1, firstCapacity)
        firstCapacityAndMapping = mapsLarge ? -first : first
    }

    /// A malloc'd buffer of `capacity` elements holding `count`, owned by the stack from now on.
    init(adopting buffer: UnsafeMutablePointer<Element>, count: Int, capacity: Int) {
        firstCapacityAndMapping = Swift.max(1, capacity)
        base = buffer
        self.count = count
        self.capacity = capacity
    }

    private var firstCapacity: Int { firstCapacityAndMapping < 0 ? -firstCapacityAndMapping : firstCapacityAndMapping }
    private var mapsLarge: Bool { firstCapacityAndMapping < 0 }

    /// `base` is mapped pages (`capacity` elements' bytes), not malloc'd: `grow` maps every buffer
    /// of the threshold or more of a stack that maps.
    var mapped: Bool { mapsLarge && capacity &* MemoryLayout<Element>.stride >= PageMemory.threshold }

    /// Makes room for `extra` more elements.
    @inline(__always)
    mutating func reserve(_ extra: Int) -> Bool {
        if extra <= capacity &- count { return true }
        return grow(extra)
    }

    private mutating func grow(_ extra: Int) -> Bool {
        let (needed, o1) = count.addingReportingOverflow(extra)
        guard !o1 else { return false }
        var newCapacity = Swift.max(capacity, firstCapacity)
        while newCapacity < needed {
            let (doubled, o2) = newCapacity.multipliedReportingOverflow(by: 2)
            guard !o2 else { return false }
            newCapacity = doubled
        }
        let stride = MemoryLayout<Element>.stride
        let (bytes, o3) = newCapacity.multipliedReportingOverflow(by: stride)
        guard !o3 else { return false }
        let raw: UnsafeMutableRawPointer?
        if mapped, let base {
            raw = PageMemory.resize(base, from: capacity &* stride, to: bytes)
        } else if mapsLarge && bytes >= PageMemory.threshold {
            // Once, from malloc to pages: at most a threshold's bytes copied.
            raw = PageMemory.allocate(bytes)
            if let raw, let base {
                raw.copyMemory(from: base, byteCount: count &* stride)
                free(base)
            }
        } else {
            raw = realloc(base, bytes)
        }
        guard let raw else { return false }
        base = raw.bindMemory(to: Element.self, capacity: newCapacity)
        capacity = newCapacity
        return true
    }

    /// The element storage; only valid after a successful `reserve`.
    @inline(__always)
    var pointer: UnsafeMutablePointer<Element> { base.unsafelyUnwrapped }

    @inline(__always)
    mutating func append(_ element: Element) -> Bool {
        guard reserve(1) else { return false }
        (pointer + count).initialize(to: element)
        count &+= 1
        return true
    }

    /// Shrinks the buffer to its contents and hands it over with the bytes it maps (0: malloc'd,
    /// free it with `free`; else give it to `PageMemory.free`); the stack is empty afterwards.
    mutating func take() -> (pointer: UnsafeMutablePointer<Element>, mappedBytes: Int)? {
        guard reserve(1), let old = base else { return nil }
        let bytes = Swift.max(count, 1) * MemoryLayout<Element>.stride
        var mappedBytes = 0
        if mapped {
            // Shrinking in place: the pages past the contents go back now.
            if let raw = PageMemory.resize(old, from: capacity * MemoryLayout<Element>.stride, to: bytes) {
                base = raw.bindMemory(to: Element.self, capacity: Swift.max(count, 1))
                mappedBytes = bytes
            } else {
                mappedBytes = capacity * MemoryLayout<Element>.stride
            }
        } else if let raw = realloc(old, bytes) {
            base = raw.bindMemory(to: Element.self, capacity: Swift.max(count, 1))
        }
        let result = base.unsafelyUnwrapped
        base = nil
        count = 0
        capacity = 0
        return (result, mappedBytes)
    }

    mutating func release() {
        if mapped {
            PageMemory.free(base.map { UnsafeMutableRawPointer($0) }, capacity * MemoryLayout<Element>.stride)
        } else {
            free(base)
        }
        base = nil
        count = 0
        capacity = 0
    }
}

extension UnsafeMutablePointer where Pointee: BitwiseCopyable {
    /// Copies `count` elements from `source` with one memmove. Embedded Swift compiles
    /// `update(from:count:)` and `initialize(from:count:)` into a call per element (an outlined
    /// assign of one byte, for bytes): 168 calls in the mapping of one echo answer.
    @inline(__always)
    func copyElements(from source: UnsafePointer<Pointee>, count: Int) {
        guard count > 0 else { return }
        UnsafeMutableRawPointer(self).copyMemory(from: source, byteCount: count &* MemoryLayout<Pointee>.stride)
    }
}

/// Stores each distinct name (element or attribute) once in the string arena
/// and maps it to its byte offset there.
struct NameTable {
    private struct Slot {
        var offsetPlusOne: UInt   // 0: empty
        var hash: UInt32
        var length: UInt32
    }

    private var slots: UnsafeMutablePointer<Slot>?
    private var mask = 0
    private var shift: UInt64 = 64
    private var used = 0
    /// Per-table random hash basis, and slot selection from the hash's mixed
    /// high bits, so crafted names cannot pile up in one probe sequence. From the
    /// batched CSPRNG bytes: `UInt32.random` costs a getrandom system call per table.
    private let seed = UInt32(truncatingIfNeeded: NonceBytes.shared.next().0)

    @inline(__always)
    private func home(_ hash: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(hash) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    mutating func release() {
        free(slots)
        slots = nil
        mask = 0
        used = 0
    }

    /// The arena offset and length of the NUL-terminated `name`, adding it to `arena` if new.
    @inline(__always)
    mutating func intern(_ name: UnsafePointer<UInt8>, arena: inout RawStack<UInt8>) -> (offset: UInt, length: Int)? {
        var hash: UInt32 = seed
        var length = 0
        while true {
            let byte = name[length]
            if byte == 0 { break }
            hash = (hash ^ UInt32(byte)) &* 16_777_619
            length &+= 1
        }
        return intern(name, length: length, hash: hash, arena: &arena)
    }

    mutating func intern(bytes: UnsafeBufferPointer<UInt8>, arena: inout RawStack<UInt8>) -> (offset: UInt, length: Int)? {
        guard let start = bytes.baseAddress else {
            var empty: UInt8 = 0
            return intern(&empty, length: 0, hash: seed, arena: &arena)
        }
        var hash: UInt32 = seed
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return intern(start, length: bytes.count, hash: hash, arena: &arena)
    }

    private mutating func intern(_ name: UnsafePointer<UInt8>, length: Int, hash: UInt32,
                                 arena: inout RawStack<UInt8>) -> (offset: UInt, length: Int)? {
        guard length < Int(UInt32.max) else { return nil }
        if slots == nil || (used + 1) * 2 > mask + 1 {
            guard rehash() else { return nil }
        }
        guard let slots else { return nil }
        var i = home(hash)
        while true {
            let slot = slots[i]
            if slot.offsetPlusOne == 0 { break }
            if slot.hash == hash, Int(slot.length) == length,
               memcmp(arena.pointer + Int(slot.offsetPlusOne - 1), name, length) == 0 {
                return (slot.offsetPlusOne - 1, length)
            }
            i = (i &+ 1) & mask
        }
        guard arena.reserve(length + 1) else { return nil }
        let offset = arena.count
        let target = arena.pointer + offset
        target.copyElements(from: name, count: length)
        target[length] = 0
        arena.count = offset + length + 1
        slots[i] = Slot(offsetPlusOne: UInt(offset) + 1, hash: hash, length: UInt32(length))
        used += 1
        return (UInt(offset), length)
    }

    private mutating func rehash() -> Bool {
        let newSize = slots == nil ? 64 : (mask + 1) * 2
        guard let raw = calloc(newSize, MemoryLayout<Slot>.stride) else { return false }
        let fresh = raw.bindMemory(to: Slot.self, capacity: newSize)
        let newMask = newSize - 1
        shift = UInt64(64 - newSize.trailingZeroBitCount)
        if let old = slots {
            for j in 0...mask where old[j].offsetPlusOne != 0 {
                var i = home(old[j].hash)
                while fresh[i].offsetPlusOne != 0 { i = (i &+ 1) & newMask }
                fresh[i] = old[j]
            }
            free(old)
        }
        slots = fresh
        mask = newMask
        return true
    }
}
