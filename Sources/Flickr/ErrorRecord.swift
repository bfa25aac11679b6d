// SPDX-License-Identifier: MIT

internal import CFlickr
internal import FlickrCore
import Glibc

/// A `flickr_error` and the malloc'd copy of the message it points to: the thread's last error
/// (ErrorSlot) and a request's own error (RequestHandle) are both one of these, filled and
/// released by the same code. (They once copied it and drifted: when the message could not be
/// allocated one fell back to the code's summary, the other to "".)
///
/// The public struct is the first stored property, so a pointer to a record is a pointer to its
/// `flickr_error`. Ownership of the message is tracked by the optional, never by comparing
/// addresses of string literals: the compiler and linker may emit a literal more than once
/// (AddressSanitizer builds do), and `free` of a static string aborts the process.
struct ErrorRecord {
    private(set) var error: flickr_error
    private var ownedMessage: UnsafeMutablePointer<CChar>?
    /// FLICKR_EBUDGET's wait (flickr_error_retry_after_ms); 0 for other errors.
    private(set) var retryAfterMs: Int64 = 0

    /// FLICKR_OK, "no error": a thread that never failed, a request that has not.
    static var none: ErrorRecord {
        ErrorRecord(error: flickr_error(code: 0, api_code: 0, http_status: 0, message: staticCString("no error")),
                    ownedMessage: nil, retryAfterMs: 0)
    }

    /// Makes `error` the record's error. The message is copied (it outlives the call); when the
    /// copy cannot be allocated, the code's static summary stands in: never NULL, never "".
    mutating func set(_ error: FlickrError) {
        let copy = error.message.withCString { strdup($0) }
        free(ownedMessage)
        ownedMessage = copy
        retryAfterMs = error.code == .budget ? error.retryAfterMs : 0
        self.error = flickr_error(
            code: error.code.rawValue, api_code: error.apiCode, http_status: error.httpStatus,
            message: copy.map { UnsafePointer($0) } ?? staticCString(error.code.summary))
    }

    /// Frees the message; the record must not be read afterwards.
    mutating func releaseMessage() {
        free(ownedMessage)
        ownedMessage = nil
    }

    /// A new record on the heap (its address is handed to C callers), FLICKR_OK.
    static func allocate() -> UnsafeMutablePointer<ErrorRecord> {
        let record = UnsafeMutablePointer<ErrorRecord>.allocate(capacity: 1)
        record.initialize(to: .none)
        return record
    }

    /// Frees a record made by `allocate()` and its message.
    static func deallocate(_ record: UnsafeMutablePointer<ErrorRecord>) {
        record.pointee.releaseMessage()
        record.deinitialize(count: 1)
        record.deallocate()
    }

    /// The public struct inside a heap record (the first stored property, at offset 0).
    static func publicRecord(_ record: UnsafeMutablePointer<ErrorRecord>) -> UnsafeMutablePointer<flickr_error> {
        UnsafeMutableRawPointer(record).advanced(by: MemoryLayout<ErrorRecord>.offset(of: \ErrorRecord.error) ?? 0)
            .assumingMemoryBound(to: flickr_error.self)
    }
}
