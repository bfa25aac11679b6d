// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

/// Every live flickr_context.
let contexts = HandleRegistry<Context>(kind: "context")

private func option(_ opt: flickr_option) throws(FlickrError) -> ContextOption {
    guard let option = ContextOption(cValue: Int32(bitPattern: opt.rawValue)) else {
        throw .invalid("unknown option \(Int32(bitPattern: opt.rawValue))")
    }
    return option
}

@c @implementation
public func flickr_context_new(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ apiKey: UnsafePointer<CChar>?,
    _ sharedSecret: UnsafePointer<CChar>?
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        _ = ForkHandlers.installed  // before any request exists
        let context = try Context(
            apiKey: try requiredString(apiKey, "api_key"),
            sharedSecret: try optionalString(sharedSecret, "shared_secret"))
        out.pointee = contexts.register(context)
    }
}

@c @implementation
public func flickr_context_free(_ ctx: OpaquePointer?) {
    contexts.release(ctx)
}

@c @implementation
public func flickr_context_set_string(
    _ ctx: OpaquePointer?, _ opt: flickr_option, _ value: UnsafePointer<CChar>?
) -> CInt {
    boundary { () throws(FlickrError) in
        let context = try contexts.object(ctx)
        let option = try option(opt)
        try context.set(option, string: try optionalString(value, "value"))
    }
}

@c @implementation
public func flickr_context_set_long(_ ctx: OpaquePointer?, _ opt: flickr_option, _ value: Int) -> CInt {
    boundary { () throws(FlickrError) in
        try contexts.object(ctx).set(try option(opt), number: Int64(value))
    }
}

@c @implementation
public func flickr_context_set_int64(_ ctx: OpaquePointer?, _ opt: flickr_option, _ value: Int64) -> CInt {
    boundary { () throws(FlickrError) in
        try contexts.object(ctx).set(try option(opt), number: value)
    }
}

@c @implementation
public func flickr_context_get_string(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ ctx: OpaquePointer?, _ opt: flickr_option
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        let option = try option(opt)
        guard option.kind == .string else {
            throw .invalid("\(option.name) is a numeric option: use flickr_context_get_long")
        }
        if let value = context.snapshot.string(option) {
            out.pointee = try ownedCString(value)
        }
    }
}

@c @implementation
public func flickr_context_get_long(_ out: UnsafeMutablePointer<Int>?, _ ctx: OpaquePointer?, _ opt: flickr_option)
    -> CInt
{
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        let value = try numberOption(ctx, opt)
        // A 32-bit long cannot hold a byte bound above 2 GiB: refused, never cut short.
        guard let fitting = Int(exactly: value) else {
            throw .invalid("the value \(value) does not fit in a long: use flickr_context_get_int64")
        }
        out.pointee = fitting
    }
}

@c @implementation
public func flickr_context_get_int64(_ out: UnsafeMutablePointer<Int64>?, _ ctx: OpaquePointer?, _ opt: flickr_option)
    -> CInt
{
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = try numberOption(ctx, opt)
    }
}

/// A numeric option's value, for the getters.
private func numberOption(_ ctx: OpaquePointer?, _ opt: flickr_option) throws(FlickrError) -> Int64 {
    let context = try contexts.object(ctx)
    let option = try option(opt)
    guard option.kind == .number else {
        throw .invalid("\(option.name) is a string option: use flickr_context_get_string")
    }
    return context.snapshot.number64(option)
}

@c @implementation
public func flickr_context_set_interrupt(
    _ ctx: OpaquePointer?, _ fn: flickr_interrupt_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    boundary { () throws(FlickrError) in
        try contexts.object(ctx).setInterrupt(fn.map { InterruptCheck(function: $0, userdata: userdata) })
    }
}

@c @implementation
public func flickr_context_set_log(_ ctx: OpaquePointer?, _ fn: flickr_log_fn?, _ userdata: UnsafeMutableRawPointer?)
    -> CInt
{
    boundary { () throws(FlickrError) in
        try contexts.object(ctx).setLog(fn.map { LogSink(function: $0, userdata: userdata) })
    }
}
