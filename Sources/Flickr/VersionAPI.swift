// SPDX-License-Identifier: MIT

public import CFlickr
internal import FlickrCore
import Glibc

@c @implementation
public func flickr_version() -> UnsafePointer<CChar>? {
    LibraryVersion.cString
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
public func flickr_error_retry_after_ms(_ err: UnsafePointer<flickr_error>?) -> Int64 {
    // Only a record the library handed out is read: any other pointer might not have the field.
    guard let err else { return 0 }
    if let ms = ErrorSlot.retryAfterMs(ifCurrent: err) { return ms }
    return requests.first { $0.errorRecord == err }?.retryAfterMs ?? 0
}

@c @implementation
public func flickr_shutdown_callbacks(_ timeoutMs: CLong) -> CInt {
    boundary { () throws(FlickrError) in
        guard timeoutMs >= 0 else { throw .invalid("timeout_ms must be 0 or more, not \(timeoutMs)") }
        let ns = UInt64(timeoutMs).multipliedReportingOverflow(by: 1_000_000)
        guard CallbackGate.close(timeoutNs: ns.overflow ? .max : ns.partialValue) else {
            throw FlickrError(.timeout, "callbacks were still running when the wait ended; none starts any more")
        }
    }
}

@c @implementation
public func flickr_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}
