// SPDX-License-Identifier: MIT

import Glibc

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
