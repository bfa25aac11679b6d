// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore

private func photoFields(_ photo: OpaquePointer?) throws(FlickrError) -> (String) -> String? {
    guard let photo else { throw .invalid("photo must not be NULL") }
    let node = UnsafePointer<ValueNode>(photo)
    guard node.kind == .object else { throw .invalid("photo must be an object (e.g. photos.photo.0)") }
    return { node.lookup(path: $0)?.string }
}

@c @implementation
public func flickr_photo_source_url(_ photo: OpaquePointer?, _ sizeSuffix: UnsafePointer<CChar>?)
    -> UnsafeMutablePointer<CChar>?
{
    ownedResult { () throws(FlickrError) in
        let size = try requiredString(sizeSuffix, "size_suffix")
        return try PhotoURL.source(size: size, field: try photoFields(photo))
    }
}

@c @implementation
public func flickr_photo_image_url(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ ctx: OpaquePointer?, _ photo: OpaquePointer?,
    _ sizeSuffix: UnsafePointer<CChar>?
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        let size = try requiredString(sizeSuffix, "size_suffix")
        out.pointee = try ownedCString(
            try PhotoURL.source(size: size, field: try photoFields(photo), settings: context.snapshot))
    }
}

@c @implementation
public func flickr_url_parse(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ url: UnsafePointer<CChar>?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let fields = try FlickrLink.parse(try requiredString(url, "url"))
        out.pointee = responses.register(Response(tree: try ValueTree.object(fields, rootName: "url"), body: [],
                                                  httpStatus: 0))
    }
}

@c @implementation
public func flickr_photo_page_url(_ photo: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in try PhotoURL.page(field: try photoFields(photo)) }
}

@c @implementation
public func flickr_photo_short_url(_ photoID: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in try PhotoURL.short(photoID: try requiredString(photoID, "photo_id")) }
}

// MARK: Cached fetch

private func download(_ ctx: OpaquePointer?, _ photo: OpaquePointer?, _ sizeSuffix: UnsafePointer<CChar>?)
    throws(FlickrError) -> (Context, PhotoDownload)
{
    let context = try contexts.object(ctx)
    let size = try requiredString(sizeSuffix, "size_suffix")
    return (context, try PhotoDownload(settings: context.snapshot, size: size, field: try photoFields(photo)))
}

@c @implementation
public func flickr_photo_fetch(
    _ pathOut: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ ctx: OpaquePointer?, _ photo: OpaquePointer?,
    _ sizeSuffix: UnsafePointer<CChar>?
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let pathOut else { throw .invalid("path_out must not be NULL") }
        pathOut.pointee = nil
        let (context, operation) = try download(ctx, photo, sizeSuffix)
        let response = try context.fetch(operation)
        guard let path = response.root.member("path")?.string else {
            throw FlickrError(.error, "the fetch answered without a path")
        }
        pathOut.pointee = try ownedCString(path)
    }
}

@c @implementation
public func flickr_photo_fetch_async(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ photo: OpaquePointer?,
    _ sizeSuffix: UnsafePointer<CChar>?, _ done: flickr_done_fn?, _ userdata: UnsafeMutableRawPointer?
) -> CInt {
    startRequest(out, ctx, done, userdata) { () throws(FlickrError) -> any Operation in
        try download(ctx, photo, sizeSuffix).1
    }
}
