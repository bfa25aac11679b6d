// SPDX-License-Identifier: MIT

internal import CFlickr  // only for @c @implementation: no C type in these signatures
internal import FlickrCore

/// Every live flickr_harvest.
let harvesters = HandleRegistry<Harvester>(kind: "harvest")

@c @implementation
public func flickr_harvest_new(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ method: UnsafePointer<CChar>?,
    _ params: UnsafePointer<UnsafePointer<CChar>?>?, _ options: UnsafePointer<UnsafePointer<CChar>?>?
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let harvester = try Harvester(
            context: try contexts.object(ctx), method: try requiredString(method, "method"),
            parameters: try parameters(params), options: try parameters(options))
        out.pointee = harvesters.register(harvester)
    }
}

@c @implementation
public func flickr_harvest_next(_ itemOut: UnsafeMutablePointer<OpaquePointer?>?, _ harvest: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let itemOut else { throw .invalid("item_out must not be NULL") }
        itemOut.pointee = nil
        let harvester = try harvesters.claim(harvest)
        defer { harvesters.finish(harvest, harvester) }
        itemOut.pointee = try harvester.next().map { OpaquePointer($0) }
    }
}

@c @implementation
public func flickr_harvest_report(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                  _ harvest: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let harvester = try harvesters.claim(harvest)
        defer { harvesters.finish(harvest, harvester) }
        out.pointee = try ownedCString(harvester.reportJSON)
    }
}

@c @implementation
public func flickr_harvest_save(_ harvest: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        let harvester = try harvesters.claim(harvest)
        defer { harvesters.finish(harvest, harvester) }
        try harvester.save()
    }
}

@c @implementation
public func flickr_harvest_set_extra(_ harvest: OpaquePointer?, _ json: UnsafePointer<CChar>?) -> CInt {
    boundary { () throws(FlickrError) in
        let text = try requiredString(json, "json")
        let harvester = try harvesters.claim(harvest)
        defer { harvesters.finish(harvest, harvester) }
        try harvester.setExtra(text)
    }
}

@c @implementation
public func flickr_harvest_extra(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                 _ harvest: OpaquePointer?) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let harvester = try harvesters.claim(harvest)
        defer { harvesters.finish(harvest, harvester) }
        out.pointee = try ownedCString(harvester.extraJSON)
    }
}

@c @implementation
public func flickr_harvest_free(_ harvest: OpaquePointer?) {
    harvesters.release(harvest)
}
