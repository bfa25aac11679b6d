// SPDX-License-Identifier: MIT

/// What a byte format writes at each step of `TreeWalk`: JSON (`JSONWriter`) and Python's marshal
/// format (`MarshalWriter`) share one walk over the tree and differ only here.
protocol TreeFormat {
    /// A string value of `count` bytes at `text` (nil: empty).
    mutating func string(_ text: UnsafePointer<UInt8>?, _ count: Int, into out: inout ByteBuffer)
    /// The start of an object or array; `node.count` children follow (maybe none).
    mutating func open(_ node: UnsafePointer<ValueNode>, into out: inout ByteBuffer)
    /// The end of an object or array.
    mutating func close(isObject: Bool, into out: inout ByteBuffer)
    /// Before the value of an object's entry `index`: its NUL-terminated key (nil: none).
    mutating func member(_ index: Int, key: UnsafePointer<UInt8>?, into out: inout ByteBuffer)
    /// Before an array's element `index`.
    mutating func element(_ index: Int, into out: inout ByteBuffer)
}

/// The depth-first walk over a value tree, in document order. Iterative, so deep trees cannot
/// exhaust the stack; stops at the first failed allocation (`out.failed`).
enum TreeWalk {
    private struct Frame: BitwiseCopyable {
        var node: UnsafePointer<ValueNode>
        var next: Int
    }

    static func write<Format: TreeFormat>(_ root: UnsafePointer<ValueNode>, as format: inout Format,
                                          into out: inout ByteBuffer) {
        var stack = RawStack<Frame>(firstCapacity: 16)
        defer { stack.release() }
        var pending: UnsafePointer<ValueNode>? = root
        while !out.failed {
            if let node = pending {
                pending = nil
                switch node.kind {
                case .string:
                    format.string(UnsafePointer<UInt8>(bitPattern: node.pointee.ref), Int(node.pointee.length), into: &out)
                case .object, .array:
                    format.open(node, into: &out)
                    if node.count == 0 {
                        format.close(isObject: node.kind == .object, into: &out)
                    } else {
                        guard stack.append(Frame(node: node, next: 0)) else { return out.fail() }
                    }
                }
            }
            guard stack.count > 0 else { return }
            let top = stack.pointer + (stack.count &- 1)
            let parent = top.pointee.node
            let isObject = parent.kind == .object
            let index = top.pointee.next
            if index >= parent.count {
                format.close(isObject: isObject, into: &out)
                stack.count &-= 1
                continue
            }
            guard let child = parent.element(at: index) else { return }
            if isObject {
                format.member(index, key: UnsafePointer<UInt8>(bitPattern: child.pointee.key), into: &out)
            } else {
                format.element(index, into: &out)
            }
            top.pointee.next &+= 1
            pending = child
        }
    }
}
