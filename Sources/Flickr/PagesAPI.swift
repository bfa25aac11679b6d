// SPDX-License-Identifier: MIT

internal import CFlickr  // only for @c @implementation: no C type in these signatures
internal import FlickrCore

/// Every live flickr_pages.
let pagers = HandleRegistry<Pager>(kind: "page walk")

@c @implementation
public func flickr_pages_new(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ itemPath: UnsafePointer<CChar>?
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let pager = try Pager(
            context: try contexts.object(ctx), method: try requiredString(method, "method"),
            parameters: try parameters(params), itemPath: try optionalString(itemPath, "item_path"))
        out.pointee = pagers.register(pager)
    }
}

@c @implementation
public func flickr_pages_next(_ itemOut: UnsafeMutablePointer<OpaquePointer?>?, _ pages: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let itemOut else { throw .invalid("item_out must not be NULL") }
        itemOut.pointee = nil
        let pager = try pagers.claim(pages)
        defer { pagers.finish(pages, pager) }
        itemOut.pointee = try pager.next().map { OpaquePointer($0) }
    }
}

@c @implementation
public func flickr_pages_total(_ pages: OpaquePointer?) -> Int64 {
    claimedNumber(pages) { $0.total }
}

@c @implementation
public func flickr_pages_page(_ pages: OpaquePointer?) -> Int64 {
    claimedNumber(pages) { $0.page }
}

/// A number read from a walk while it is claimed (FLICKR_ESTATE while another call has it), or -1.
private func claimedNumber(_ pages: OpaquePointer?, _ read: (Pager) -> Int64) -> Int64 {
    var number: Int64 = -1
    _ = boundary { () throws(FlickrError) in
        let pager = try pagers.claim(pages)
        defer { pagers.finish(pages, pager) }
        number = read(pager)
    }
    return number
}

@c @implementation
public func flickr_pages_free(_ pages: OpaquePointer?) {
    pagers.release(pages)
}
