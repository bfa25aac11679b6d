// SPDX-License-Identifier: MIT

internal import CFlickr  // only for @c @implementation: no C type in these signatures
internal import FlickrCore

/// Every live flickr_response (a response handed out twice is counted twice).
let responses = HandleRegistry<Response>(kind: "response")

@c @implementation
public func flickr_response_parse(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ xml: UnsafePointer<CChar>?, _ len: Int
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        guard len >= 0 else { throw .invalid("len is too large") }
        guard xml != nil || len == 0 else { throw .invalid("xml must not be NULL") }
        let bytes = UnsafeRawBufferPointer(start: xml, count: len)
        out.pointee = responses.register(try Response.parse(bytes))
    }
}

@c @implementation
public func flickr_response_free(_ resp: OpaquePointer?) {
    responses.release(resp)
}

/// The live response behind a handle, recording FLICKR_EINVAL when there is none.
private func liveResponse(_ handle: OpaquePointer?) -> Response? {
    do {
        return try responses.object(handle)
    } catch {
        ErrorSlot.record(error)
        return nil
    }
}

@c @implementation
public func flickr_response_root(_ resp: OpaquePointer?) -> OpaquePointer? {
    liveResponse(resp).map { OpaquePointer($0.root) }
}

@c @implementation
public func flickr_response_json(_ resp: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let response = liveResponse(resp) else { return nil }
    return renderedJSON(response.root)
}

@c @implementation
public func flickr_response_marshal(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLen: UnsafeMutablePointer<Int>?,
    _ resp: OpaquePointer?
) -> CInt {
    marshalEntry(out, outLen) { () throws(FlickrError) in try responses.object(resp).root }
}

@c @implementation
public func flickr_response_body(_ resp: OpaquePointer?, _ lenOut: UnsafeMutablePointer<Int>?) -> UnsafePointer<CChar>? {
    lenOut?.pointee = 0
    guard let response = liveResponse(resp) else { return nil }
    let body = response.body
    lenOut?.pointee = body.count
    return body.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
}

@c @implementation
public func flickr_response_http_status(_ resp: OpaquePointer?) -> CInt {
    liveResponse(resp).map { CInt(clamping: $0.httpStatus) } ?? 0
}
