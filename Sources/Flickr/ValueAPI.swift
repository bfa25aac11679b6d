// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

/// Values are borrowed pointers into their response's tree: NULL is handled
/// everywhere; anything else must come from a live response (as documented).
private func node(_ value: OpaquePointer?) -> UnsafePointer<ValueNode>? {
    value.map { UnsafePointer<ValueNode>($0) }
}

@c @implementation
public func flickr_value_kind(_ v: OpaquePointer?) -> flickr_kind {
    guard let node = node(v) else { return FLICKR_VALUE_NONE }
    switch node.kind {
    case .object: return FLICKR_VALUE_OBJECT
    case .array: return FLICKR_VALUE_ARRAY
    case .string: return FLICKR_VALUE_STRING
    }
}

@c @implementation
public func flickr_value_get(_ v: OpaquePointer?, _ keyPath: UnsafePointer<CChar>?) -> OpaquePointer? {
    guard let node = node(v), let keyPath, let path = String(validatingCString: keyPath) else { return nil }
    return node.lookup(path: path).map { OpaquePointer($0) }
}

@c @implementation
public func flickr_value_string(_ v: OpaquePointer?) -> UnsafePointer<CChar>? {
    node(v)?.cString
}

@c @implementation
public func flickr_value_count(_ v: OpaquePointer?) -> Int {
    node(v)?.count ?? 0
}

@c @implementation
public func flickr_value_at(_ v: OpaquePointer?, _ index: Int) -> OpaquePointer? {
    // size_t arrives as Int: a huge index wraps negative and is simply out of range.
    guard let node = node(v), index >= 0 else { return nil }
    return node.element(at: index).map { OpaquePointer($0) }
}

@c @implementation
public func flickr_value_key_at(_ v: OpaquePointer?, _ index: Int) -> UnsafePointer<CChar>? {
    guard let node = node(v), index >= 0 else { return nil }
    return node.key(at: index)
}

@c @implementation
public func flickr_value_json(_ v: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let node = node(v) else { return nil }
    return renderedJSON(node)
}

@c @implementation
public func flickr_value_marshal(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLen: UnsafeMutablePointer<Int>?,
    _ v: OpaquePointer?
) -> CInt {
    marshalEntry(out, outLen) { () throws(FlickrError) in
        guard let node = node(v) else { throw .invalid("v must not be NULL") }
        return node
    }
}
