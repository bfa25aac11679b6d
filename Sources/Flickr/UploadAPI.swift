// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

/// Every live flickr_upload_source.
let uploadSources = HandleRegistry<UploadSource>(kind: "upload source")

/// The caller's progress callback as the core's handler (false aborts).
private func progressHandler(_ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?)
    -> (@Sendable (Int64, Int64) -> Bool)?
{
    guard let progress else { return nil }
    let address = UInt(bitPattern: userdata)
    return { sent, total in progress(sent, total, UnsafeMutableRawPointer(bitPattern: address)) == 0 }
}

private func operation(
    _ target: UploadOperation.Target, _ source: UploadSource, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) throws(FlickrError) -> UploadOperation {
    try UploadOperation(target: target, source: source, parameters: try parameters(params),
                        progress: progressHandler(progress, userdata))
}

private func fileSource(_ path: UnsafePointer<CChar>?) throws(FlickrError) -> UploadSource {
    try UploadSource(path: try requiredPath(path, "path"))
}

private func replaceTarget(_ photoID: UnsafePointer<CChar>?) throws(FlickrError) -> UploadOperation.Target {
    .replace(photoID: try requiredString(photoID, "photo_id"))
}

/// Runs an upload synchronously and hands out its response.
private func perform(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?,
    _ makeOperation: () throws(FlickrError) -> UploadOperation
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        out.pointee = responses.register(try context.perform(try makeOperation()))
    }
}

// MARK: Sources

private func newSource(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ make: () throws(FlickrError) -> UploadSource)
    -> CInt
{
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        out.pointee = uploadSources.register(try make())
    }
}

@c @implementation
public func flickr_upload_source_new_file(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ path: UnsafePointer<CChar>?)
    -> CInt
{
    newSource(out) { () throws(FlickrError) in try fileSource(path) }
}

@c @implementation
public func flickr_upload_source_new_buffer(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ data: UnsafeRawPointer?, _ len: Int,
    _ filename: UnsafePointer<CChar>?
) -> CInt {
    newSource(out) { () throws(FlickrError) in
        guard len >= 0 else { throw .invalid("len is too large") }
        return try UploadSource(.memory(base: data, count: len), filename: try optionalString(filename, "filename"))
    }
}

@c @implementation
public func flickr_upload_source_new_stream(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ read: flickr_read_fn?, _ length: Int64,
    _ userdata: UnsafeMutableRawPointer?, _ filename: UnsafePointer<CChar>?
) -> CInt {
    newSource(out) { () throws(FlickrError) in
        guard let read else { throw .invalid("read must not be NULL") }
        return try UploadSource(.stream(read: read, userdata: UInt(bitPattern: userdata), length: length),
                                filename: try optionalString(filename, "filename"))
    }
}

@c @implementation
public func flickr_upload_source_set_filename(_ src: OpaquePointer?, _ filename: UnsafePointer<CChar>?) -> CInt {
    boundary { () throws(FlickrError) in
        let name = try requiredString(filename, "filename")
        let source = try uploadSources.claim(src)
        defer { uploadSources.finish(src, source) }
        try source.setFilename(name)
    }
}

@c @implementation
public func flickr_upload_source_set_mime_type(_ src: OpaquePointer?, _ mimeType: UnsafePointer<CChar>?) -> CInt {
    boundary { () throws(FlickrError) in
        let type = try requiredString(mimeType, "mime_type")
        let source = try uploadSources.claim(src)
        defer { uploadSources.finish(src, source) }
        try source.setMIMEType(type)
    }
}

@c @implementation
public func flickr_upload_source_free(_ src: OpaquePointer?) {
    uploadSources.release(src)
}

// MARK: Uploads

@c @implementation
public func flickr_upload(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ src: OpaquePointer?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(.upload, try uploadSources.object(src), params, progress, userdata)
    }
}

@c @implementation
public func flickr_replace(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ src: OpaquePointer?,
    _ photoID: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(try replaceTarget(photoID), try uploadSources.object(src), params, progress, userdata)
    }
}

@c @implementation
public func flickr_upload_async(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ src: OpaquePointer?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ progress: flickr_progress_fn?, _ done: flickr_done_fn?,
    _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    startRequest(out, ctx, done, userdata) { () throws(FlickrError) in
        try operation(.upload, try uploadSources.object(src), params, progress, userdata)
    }
}

@c @implementation
public func flickr_replace_async(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ src: OpaquePointer?,
    _ photoID: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ done: flickr_done_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    startRequest(out, ctx, done, userdata) { () throws(FlickrError) in
        try operation(try replaceTarget(photoID), try uploadSources.object(src), params, progress, userdata)
    }
}

// MARK: Conveniences

@c @implementation
public func flickr_upload_file(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ path: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(.upload, try fileSource(path), params, progress, userdata)
    }
}

@c @implementation
public func flickr_replace_file(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ path: UnsafePointer<CChar>?,
    _ photoID: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(try replaceTarget(photoID), try fileSource(path), params, progress, userdata)
    }
}

private func bufferSource(_ data: UnsafeRawPointer?, _ len: Int, _ filename: UnsafePointer<CChar>?)
    throws(FlickrError) -> UploadSource
{
    guard len >= 0 else { throw .invalid("len is too large") }
    return try UploadSource(.memory(base: data, count: len), filename: try optionalString(filename, "filename"))
}

private func streamSource(
    _ read: flickr_read_fn?, _ length: Int64, _ userdata: UnsafeMutableRawPointer?, _ filename: UnsafePointer<CChar>?
) throws(FlickrError) -> UploadSource {
    guard let read else { throw .invalid("read must not be NULL") }
    return try UploadSource(.stream(read: read, userdata: UInt(bitPattern: userdata), length: length),
                            filename: try optionalString(filename, "filename"))
}

@c @implementation
public func flickr_upload_buffer(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ data: UnsafeRawPointer?, _ len: Int,
    _ filename: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(.upload, try bufferSource(data, len, filename), params, progress, userdata)
    }
}

@c @implementation
public func flickr_replace_buffer(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ data: UnsafeRawPointer?, _ len: Int,
    _ filename: UnsafePointer<CChar>?, _ photoID: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ progress: flickr_progress_fn?,
    _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(try replaceTarget(photoID), try bufferSource(data, len, filename), params, progress, userdata)
    }
}

@c @implementation
public func flickr_upload_stream(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ read: flickr_read_fn?, _ length: Int64,
    _ filename: UnsafePointer<CChar>?, _ params: UnsafePointer<UnsafePointer<CChar>?>?,
    _ progress: flickr_progress_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(.upload, try streamSource(read, length, userdata, filename), params, progress, userdata)
    }
}

@c @implementation
public func flickr_replace_stream(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ read: flickr_read_fn?, _ length: Int64,
    _ filename: UnsafePointer<CChar>?, _ photoID: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ progress: flickr_progress_fn?,
    _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    perform(out, ctx) { () throws(FlickrError) in
        try operation(try replaceTarget(photoID), try streamSource(read, length, userdata, filename), params,
                      progress, userdata)
    }
}

@c @implementation
public func flickr_upload_wait_ticket(
    _ photoIDOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ ctx: OpaquePointer?,
    _ ticketID: UnsafePointer<CChar>?, _ timeoutMs: Int
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let photoIDOut else { throw .invalid("photo_id_out must not be NULL") }
        photoIDOut.pointee = nil
        let context = try contexts.object(ctx)
        if context.isOnWorkerThread {
            throw FlickrError(.state, "cannot wait for a ticket from a done callback")
        }
        let photoID = try TicketWaiter.waitForPhotoID(
            context: context, ticketID: try requiredString(ticketID, "ticket_id"), timeoutMs: timeoutMs)
        photoIDOut.pointee = try ownedCString(photoID)
    }
}
