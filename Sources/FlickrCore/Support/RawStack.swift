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
