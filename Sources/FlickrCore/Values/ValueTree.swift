// SPDX-License-Identifier: MIT

import Glibc

/// The three kinds of value a Flickr response maps to. Raw values are the C
/// values (`FLICKR_VALUE_OBJECT` = 1, `FLICKR_VALUE_ARRAY` = 2,
/// `FLICKR_VALUE_STRING` = 3; 0 means "no value" on the C side).
package enum ValueKind: Int32, Sendable, BitwiseCopyable {
    case object = 1
    case array = 2
    case string = 3
}

/// One node of a `ValueTree`. Nodes live in one flat buffer owned by the tree;
/// the entries of an object and the elements of an array are laid out
/// contiguously, so a node refers to its children by one address.
///
/// Only `XMLMapper` creates nodes. While it builds them, `ref` and `key` hold
/// offsets; `ValueTree` turns them into addresses once, when the tree is complete.
package struct ValueNode: BitwiseCopyable {
    var kind: ValueKind
    /// Objects and arrays: number of children. Strings: byte length (without the NUL).
    var length: UInt32
    /// Objects and arrays: address of the first child. Strings: address of the NUL-terminated text.
    var ref: UInt
    /// Address of the NUL-terminated key under which this node sits in its object, or 0.
    var key: UInt

    init(kind: ValueKind, length: UInt32, ref: UInt, key: UInt) {
        self.kind = kind
        self.length = length
        self.ref = ref
        self.key = key
    }
}

/// An immutable parsed tree. Owns all node and string storage; every pointer
/// it hands out (nodes, C strings) stays valid while the tree is alive and
/// never moves.
package final class ValueTree: @unchecked Sendable {
    private let nodes: UnsafeMutablePointer<ValueNode>
    private let strings: UnsafeMutablePointer<UInt8>
    /// How the buffers were allocated: 0 malloc'd, else their mapped bytes (`PageMemory`).
    private let nodesMappedBytes: Int
    private let stringsMappedBytes: Int
    /// Texts too large to copy into `strings` (a megabyte text kept in the buffer it was received
    /// into, TreeBuilder.endElement): a string node's offset `chunkTag | i` names the i-th.
    private let chunks: [StringChunk]
    private let rootIndex: Int
    package let nodeCount: Int
    /// The root element's name, e.g. "rsp".
    package let rootName: String

    /// One text in a buffer of its own, NUL-terminated, `offset` bytes into it.
    struct StringChunk {
        var bytes: UnsafeMutablePointer<UInt8>
        /// 0: malloc'd, else the bytes mapped (`PageMemory`).
        var mappedBytes: Int
        var offset: Int

        func release() {
            if mappedBytes > 0 { PageMemory.free(UnsafeMutableRawPointer(bytes), mappedBytes) } else { free(bytes) }
        }
    }

    static let chunkTag: UInt = 1 << 63

    /// Takes ownership of two buffers (malloc'd, or mapped when the byte count is given) and of
    /// `chunks`. `nodes[i].ref` and `.key` are offsets (node indices for object/array children,
    /// byte offsets into `strings` (or `chunkTag | chunk index`) for texts and keys,
    /// `ValueTree.noKey` for none) and become addresses here.
    init(nodes: UnsafeMutablePointer<ValueNode>, count: Int, strings: UnsafeMutablePointer<UInt8>,
         rootIndex: Int, rootName: String, nodesMappedBytes: Int = 0, stringsMappedBytes: Int = 0,
         chunks: [StringChunk] = []) {
        self.nodes = nodes
        self.strings = strings
        self.nodesMappedBytes = nodesMappedBytes
        self.stringsMappedBytes = stringsMappedBytes
        self.chunks = chunks
        self.nodeCount = count
        self.rootIndex = rootIndex
        self.rootName = rootName
        let nodeBase = UInt(bitPattern: nodes)
        let stringBase = UInt(bitPattern: strings)
        let stride = UInt(MemoryLayout<ValueNode>.stride)
        for i in 0..<count {
            let node = nodes + i
            switch node.pointee.kind {
            case .string:
                let ref = node.pointee.ref
                if ref & ValueTree.chunkTag == 0 {
                    node.pointee.ref = stringBase &+ ref
                } else {
                    let index = Int(truncatingIfNeeded: ref & ~ValueTree.chunkTag)
                    node.pointee.ref = index < chunks.count ? UInt(bitPattern: chunks[index].bytes + chunks[index].offset) : stringBase
                }
            case .object, .array: node.pointee.ref = nodeBase &+ node.pointee.ref &* stride
            }
            let key = node.pointee.key
            node.pointee.key = key == ValueTree.noKey ? 0 : stringBase &+ key
        }
    }

    deinit {
        if nodesMappedBytes > 0 { PageMemory.free(UnsafeMutableRawPointer(nodes), nodesMappedBytes) } else { free(nodes) }
        if stringsMappedBytes > 0 {
            PageMemory.free(UnsafeMutableRawPointer(strings), stringsMappedBytes)
        } else {
            free(strings)
        }
        for chunk in chunks { chunk.release() }
    }

    static let noKey = UInt.max

    package var root: UnsafePointer<ValueNode> { UnsafePointer(nodes + rootIndex) }
}

extension UnsafePointer where Pointee == ValueNode {
    package var kind: ValueKind { pointee.kind }

    /// Object entries or array elements; 0 for a string.
    package var count: Int { pointee.kind == .string ? 0 : Int(pointee.length) }

    private var children: UnsafePointer<ValueNode>? { UnsafePointer(bitPattern: pointee.ref) }

    /// The array element or object entry value at `index`; nil if out of range or a string.
    package func element(at index: Int) -> UnsafePointer<ValueNode>? {
        guard pointee.kind != .string, index >= 0, index < Int(pointee.length), let children else { return nil }
        return children + index
    }

    /// The key of the object entry at `index`, NUL-terminated; nil for arrays, strings and out of range.
    package func key(at index: Int) -> UnsafePointer<CChar>? {
        guard pointee.kind == .object, index >= 0, index < Int(pointee.length), let children else { return nil }
        return UnsafePointer<CChar>(bitPattern: children[index].key)
    }

    /// The first object entry with this key.
    package func member(_ key: String) -> UnsafePointer<ValueNode>? {
        guard pointee.kind == .object else { return nil }
        var key = key
        return key.withUTF8 { member(bytes: $0) }
    }

    func member(bytes: UnsafeBufferPointer<UInt8>) -> UnsafePointer<ValueNode>? {
        guard pointee.kind == .object, let children else { return nil }
        let n = bytes.count
        for i in 0..<Int(pointee.length) {
            guard let key = UnsafePointer<UInt8>(bitPattern: children[i].key) else { continue }
            var j = 0
            while j < n, key[j] != 0, key[j] == bytes[j] { j += 1 }
            if j == n, key[n] == 0 { return children + i }
        }
        return nil
    }

    /// A string node's text; an object's `_text` entry's text (when that entry is a string); nil otherwise.
    package var cString: UnsafePointer<CChar>? {
        switch pointee.kind {
        case .string: return UnsafePointer<CChar>(bitPattern: pointee.ref)
        case .object:
            guard let text = member("_text"), text.pointee.kind == .string else { return nil }
            return UnsafePointer<CChar>(bitPattern: text.pointee.ref)
        case .array: return nil
        }
    }

    /// `cString` as a Swift String.
    package var string: String? { cString.map { String(cString: $0) } }

    /// Follows a key path: segments separated by "."; an object takes a key,
    /// an array a plain decimal index (0-based). The empty path is the node itself.
    package func lookup(path: String) -> UnsafePointer<ValueNode>? {
        var path = path
        return path.withUTF8 { bytes -> UnsafePointer<ValueNode>? in
            if bytes.isEmpty { return self }
            var node = self
            var start = 0
            var i = 0
            while true {
                if i == bytes.count || bytes[i] == UInt8(ascii: ".") {
                    let segment = UnsafeBufferPointer(rebasing: bytes[start..<i])
                    guard let next = node.step(segment) else { return nil }
                    if i == bytes.count { return next }
                    node = next
                    start = i + 1
                }
                i += 1
            }
        }
    }

    private func step(_ segment: UnsafeBufferPointer<UInt8>) -> UnsafePointer<ValueNode>? {
        guard !segment.isEmpty else { return nil }
        switch pointee.kind {
        case .object:
            return member(bytes: segment)
        case .array:
            let limit = Int(pointee.length)
            var index = 0
            for byte in segment {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                index = index * 10 + Int(byte - UInt8(ascii: "0"))
                guard index < limit else { return nil }
            }
            return element(at: index)
        case .string:
            return nil
        }
    }

    /// Compact JSON of this subtree (see `JSONWriter`); empty if memory runs out.
    package func json() -> String {
        guard let text = JSONWriter.render(self) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    /// Compact JSON of this subtree as a malloc'd C string (free it with `free`); nil if memory runs out.
    package func renderedJSON() -> UnsafeMutablePointer<CChar>? {
        JSONWriter.render(self)
    }
}
