// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

private func restCall(
    _ method: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ verb: flickr_http_method,
    discardsAnswer: Bool = false
) throws(FlickrError) -> RESTCall {
    let name = try requiredString(method, "method")
    guard let httpVerb = HTTPRequest.Verb(cValue: verb.rawValue, method: name) else {
        throw .invalid("verb must be FLICKR_GET, FLICKR_POST or FLICKR_METHOD_VERB")
    }
    return try RESTCall(method: name, parameters: try parameters(params), verb: httpVerb, discardsAnswer: discardsAnswer)
}

@c @implementation
public func flickr_call(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ verb: flickr_http_method
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        let response = try context.perform(try restCall(method, params, verb))
        out.pointee = responses.register(response)
    }
}

@c @implementation
public func flickr_call_discard(
    _ ctx: OpaquePointer?, _ method: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ verb: flickr_http_method
) -> CInt {
    boundary { () throws(FlickrError) in
        let context = try contexts.object(ctx)
        _ = try context.perform(try restCall(method, params, verb, discardsAnswer: true))
    }
}

@c @implementation
public func flickr_call_async(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ verb: flickr_http_method, _ done: flickr_done_fn?,
    _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    startRequest(out, ctx, done, userdata) { () throws(FlickrError) in try restCall(method, params, verb) }
}
