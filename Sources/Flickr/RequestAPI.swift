// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

@c @implementation
public func flickr_request_wait(_ req: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let request = try requests.object(req).request else { throw FlickrError(.state, "request not started") }
        _ = try request.wait().get()
    }
}

@c @implementation
public func flickr_request_cancel(_ req: OpaquePointer?) {
    (try? requests.object(req))?.request?.cancel()
}

@c @implementation
public func flickr_request_free(_ req: OpaquePointer?) {
    guard let handle = try? requests.object(req) else { return }
    if let request = handle.request {
        request.cancel()
        request.waitForCallback()  // no callback may run after free returns
    }
    requests.release(req)
}

@c @implementation
public func flickr_request_response(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ req: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        guard let request = try requests.object(req).request, let result = request.result else {
            throw FlickrError(.state, "the request has not ended yet")
        }
        out.pointee = responses.register(try result.get())
    }
}

@c @implementation
public func flickr_request_error(_ req: OpaquePointer?) -> UnsafePointer<flickr_error>? {
    guard let handle = try? requests.object(req) else {
        ErrorSlot.record(.invalid("the request is not a live handle (already freed?)"))
        return nil
    }
    return handle.errorRecord
}
