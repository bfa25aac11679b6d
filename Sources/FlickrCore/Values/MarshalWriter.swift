// SPDX-License-Identifier: MIT

import Glibc

/// Renders a value tree in Python's marshal format, for the Python binding: `marshal.loads` builds
/// the dicts, lists and strings from lengths, where `json` scans text for quotes and escapes
/// (bench/NOTES.md, Change 20). Five types only, all read by every Python from 3.4 (marshal
/// versions 3 and 4):
///
/// - an object: `{`, then each key and its value, then `0` (TYPE_NULL);
/// - an array: `[`, its count (32-bit little-endian), then the elements;
/// - a string: `u`, its byte length (32-bit little-endian), then the bytes: the text `JSONWriter`
///   writes, unescaped. Ill-formed UTF-8 becomes U+FFFD for each maximal ill-formed subpart, as
///   there, so encoded surrogates (which `marshal.loads` would decode, "surrogatepass") never pass.
///   When every byte is ASCII the type is `a` instead (TYPE_ASCII): Python copies it undecoded;
/// - a key already written in this rendering: `r` and its index among the objects flagged so far.
///   A key's first occurrence is its `u` or `a` with FLAG_REF (0x80) set, so that Python makes one `str`
///   per distinct key, as `json`'s decoder does with its memo. The tree interns keys, so a key is
///   found by its address.
///
/// Every string from a server goes out as a length-prefixed payload: none of its bytes is ever read
/// as a type code. The binding checks once per process that this decodes to what JSON does.
enum MarshalWriter {
    /// `node` and everything below it: a malloc'd buffer (free it with `free`) and its length;
    /// nil when memory runs out.
    static func render(_ node: UnsafePointer<ValueNode>) -> (bytes: UnsafeMutablePointer<UInt8>, count: Int)? {
        var out = ByteBuffer(capacity: 1024)
        var format = Format()
        TreeWalk.write(node, as: &format, into: &out)
        format.release()
        let count = out.count
        guard let text = out.takeCString() else { return nil }
        return (UnsafeMutableRawPointer(text).assumingMemoryBound(to: UInt8.self), count)
    }

    /// `bytes` as one marshal string (for tests).
    static func string(_ bytes: [UInt8]) -> [UInt8] {
        var out = ByteBuffer(capacity: 64)
        bytes.withUnsafeBufferPointer { appendString($0.baseAddress, $0.count, type: typeString, to: &out) }
        defer { out.release() }
        return out.withBytes { out.failed ? [] : Array($0) }
    }

    static let typeString = UInt8(ascii: "u")
    static let typeASCII = UInt8(ascii: "a")
    static let flagRef: UInt8 = 0x80

    /// Input bytes written per reservation (room for each to become a U+FFFD).
    private static let sliceBytes = 4096

    /// Appends `count` bytes at `start` as a string of marshal type `type`, UTF-8 repaired. A short
    /// string (most are) is one reservation: type, length and bytes.
    static func appendString(_ start: UnsafePointer<UInt8>?, _ count: Int, type: UInt8, to out: inout ByteBuffer) {
        let count = start == nil ? 0 : count
        let lengthAt = out.count &+ 1
        var header = 5  // the type, and the length, known at the end
        var ascii = true
        var i = 0
        repeat {
            // A sequence begun in the slice may end up to 3 bytes after it.
            let sliceEnd = Swift.min(count, i &+ sliceBytes)
            out.write(room: header &+ 3 &* (sliceEnd &- i) &+ 4) { first in
                var at = first
                if header > 0 {
                    at[0] = type
                    at += header
                }
                guard let start else { return at - first }
                var j = i  // a local: the closure may not be inlined, and `i` is captured
                while j < sliceEnd {
                    let b = start[j]
                    if b < 0x80 {
                        at.pointee = b
                        at += 1
                        j &+= 1
                        continue
                    }
                    ascii = false
                    let (valid, length) = JSONWriter.utf8Sequence(start + j, count &- j)
                    at = JSONWriter.copySequence(start + j, valid: valid, length: length, to: at)
                    j &+= length
                }
                i = j
                return at - first
            }
            header = 0
        } while i < count && !out.failed
        let length = out.count &- lengthAt &- 4
        guard length <= Int(Int32.max) else { return out.fail() }  // marshal's limit (a 2 GiB text)
        out.set(uint32LE: UInt32(truncatingIfNeeded: length), at: lengthAt)
        // All ASCII: the same string as TYPE_ASCII, which Python copies without decoding UTF-8.
        if ascii && type & ~flagRef == typeString { out.set(byte: typeASCII | (type & flagRef), at: lengthAt &- 1) }
    }

    /// Appends `code` and `value` (32-bit little-endian).
    static func append(_ code: UInt8, int32 value: Int, to out: inout ByteBuffer) {
        out.write(room: 5) { at in
            at[0] = code
            at[1] = UInt8(truncatingIfNeeded: value)
            at[2] = UInt8(truncatingIfNeeded: value >> 8)
            at[3] = UInt8(truncatingIfNeeded: value >> 16)
            at[4] = UInt8(truncatingIfNeeded: value >> 24)
            return 5
        }
    }

    /// marshal's part of the walk.
    private struct Format: TreeFormat {
        var keys = KeyRefs()

        func string(_ text: UnsafePointer<UInt8>?, _ count: Int, into out: inout ByteBuffer) {
            appendString(text, count, type: typeString, to: &out)
        }

        func open(_ node: UnsafePointer<ValueNode>, into out: inout ByteBuffer) {
            if node.kind == .object {
                out.append(byte: UInt8(ascii: "{"))
            } else {
                guard node.count <= Int(Int32.max) else { return out.fail() }  // marshal's limit
                append(UInt8(ascii: "["), int32: node.count, to: &out)
            }
        }

        func close(isObject: Bool, into out: inout ByteBuffer) {
            if isObject { out.append(byte: UInt8(ascii: "0")) }
        }

        mutating func member(_ index: Int, key: UnsafePointer<UInt8>?, into out: inout ByteBuffer) {
            guard let key else { return appendString(nil, 0, type: typeString, to: &out) }
            switch keys.find(UInt(bitPattern: key)) {
            case .seen(let ref):
                append(UInt8(ascii: "r"), int32: ref, to: &out)
            case .added:
                appendString(key, strlen(UnsafeRawPointer(key).assumingMemoryBound(to: CChar.self)),
                             type: typeString | flagRef, to: &out)
            case .full:
                appendString(key, strlen(UnsafeRawPointer(key).assumingMemoryBound(to: CChar.self)),
                             type: typeString, to: &out)
            case .noMemory:
                out.fail()
            }
        }

        func element(_ index: Int, into out: inout ByteBuffer) {}

        mutating func release() {
            keys.release()
        }
    }

    /// The keys written so far with FLAG_REF, by address: an open-addressed table, at most half
    /// full, of 32 slots at first (one small calloc: an echo answer has about 20 distinct keys, and
    /// an 8 KiB table cost 10 k instructions a call to clear), doubled up to 512. A Flickr answer
    /// has a few dozen distinct keys; past 256 (a hostile document's), new keys are written in full.
    private struct KeyRefs {
        enum Found { case seen(Int), added, full, noMemory }

        private static let firstSize = 32
        private static let limit = 256
        /// Slot i: an address at `slots[i]` (0: free), its ref index at `slots[size + i]`.
        private var slots: UnsafeMutablePointer<UInt>?
        private var size = 0
        private var count = 0

        mutating func find(_ address: UInt) -> Found {
            if slots == nil {
                guard let table = KeyRefs.table(KeyRefs.firstSize) else { return .noMemory }
                slots = table
                size = KeyRefs.firstSize
            }
            guard let slots else { return .noMemory }
            let i = KeyRefs.slot(of: address, in: slots, size: size)
            if slots[i] == address { return .seen(Int(slots[size &+ i])) }
            guard count < KeyRefs.limit else { return .full }
            guard count &* 2 < size || grow() else { return .noMemory }
            insert(address, index: count)
            count &+= 1
            return .added
        }

        private static func table(_ size: Int) -> UnsafeMutablePointer<UInt>? {
            calloc(2 &* size, MemoryLayout<UInt>.stride)?.bindMemory(to: UInt.self, capacity: 2 &* size)
        }

        /// The slot holding `address`, or the free one where it would go.
        private static func slot(of address: UInt, in slots: UnsafeMutablePointer<UInt>, size: Int) -> Int {
            var i = Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 32) & (size &- 1)
            while slots[i] != 0 && slots[i] != address { i = (i &+ 1) & (size &- 1) }
            return i
        }

        private func insert(_ address: UInt, index: Int) {
            guard let slots else { return }
            let i = KeyRefs.slot(of: address, in: slots, size: size)
            slots[i] = address
            slots[size &+ i] = UInt(index)
        }

        private mutating func grow() -> Bool {
            guard let old = slots, let table = KeyRefs.table(size &* 2) else { return false }
            let oldSize = size
            slots = table
            size = oldSize &* 2
            for i in 0..<oldSize where old[i] != 0 { insert(old[i], index: Int(old[oldSize &+ i])) }
            free(old)
            return true
        }

        mutating func release() {
            free(slots)
            slots = nil
        }
    }
}

extension UnsafePointer where Pointee == ValueNode {
    /// This subtree in marshal's format (see `MarshalWriter`): a malloc'd buffer (free it with
    /// `free`) and its length; nil if memory runs out.
    package func renderedMarshal() -> (bytes: UnsafeMutablePointer<UInt8>, count: Int)? {
        MarshalWriter.render(self)
    }
}
