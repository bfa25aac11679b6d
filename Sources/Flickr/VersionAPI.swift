// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore
#if canImport(Glibc)
import Glibc
#endif

@c @implementation
public func flickr_version() -> UnsafePointer<CChar>? {
    staticCString(LibraryVersion.string)
}

@c @implementation
public func flickr_version_number() -> CInt {
    LibraryVersion.number
}

@c @implementation
public func flickr_strerror(_ code: CInt) -> UnsafePointer<CChar>? {
    guard let known = FlickrError.Code(rawValue: code) else { return staticCString("unknown error code") }
    return staticCString(known.summary)
}

@c @implementation
public func flickr_error_last() -> UnsafePointer<flickr_error>? {
    UnsafePointer(ErrorSlot.current())
}

@c @implementation
public func flickr_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}
