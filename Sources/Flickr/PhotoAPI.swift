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
public func flickr_photo_page_url(_ photo: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in try PhotoURL.page(field: try photoFields(photo)) }
}

@c @implementation
public func flickr_photo_short_url(_ photoID: UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>? {
    ownedResult { () throws(FlickrError) in try PhotoURL.short(photoID: try requiredString(photoID, "photo_id")) }
}
