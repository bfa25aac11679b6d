// SPDX-License-Identifier: MIT

internal import CFlickr
internal import FlickrCore
#if canImport(Glibc)
import Glibc
#endif

/// The per-thread record behind `flickr_error_last`.
///
/// Each thread gets one `flickr_error` struct plus the malloc'd message it
/// points to, created on the thread's first failure (or first read) and
/// released by the pthread key's destructor when the thread exits.
enum ErrorSlot {
    private static let noError: StaticString = "no error"

    /// nil only when the process ran out of pthread keys; errors then share
    /// one process-wide record rather than trapping.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            let record = raw.assumingMemoryBound(to: flickr_error.self)
            if let message = record.pointee.message, message != ErrorSlot.staticNoError {
                free(UnsafeMutablePointer(mutating: message))
            }
            record.deallocate()
        }
        return status == 0 ? key : nil
    }()

    // Racy only in the out-of-keys fallback, where one shared record is the best left.
    nonisolated(unsafe) private static let sharedFallback: UnsafeMutablePointer<flickr_error> = newRecord()

    private static func newRecord() -> UnsafeMutablePointer<flickr_error> {
        let record = UnsafeMutablePointer<flickr_error>.allocate(capacity: 1)
        record.initialize(to: flickr_error(code: 0, api_code: 0, http_status: 0, message: staticNoError))
        return record
    }

    fileprivate static var staticNoError: UnsafePointer<CChar> {
        UnsafeRawPointer(noError.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// The calling thread's record, created on first use.
    static func current() -> UnsafeMutablePointer<flickr_error> {
        guard let key else { return sharedFallback }
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: flickr_error.self)
        }
        let record = newRecord()
        guard pthread_setspecific(key, record) == 0 else {
            record.deallocate()
            return sharedFallback
        }
        return record
    }

    /// Makes `error` the calling thread's last failure.
    static func record(_ error: FlickrError) {
        let record = current()
        let old = record.pointee.message
        // strdup on a Swift string: the message outlives this call; on allocation
        // failure fall back to the static summary rather than NULL.
        let message: UnsafePointer<CChar> =
            error.message.withCString { strdup($0) }.map { UnsafePointer($0) }
            ?? UnsafeRawPointer(error.code.summary.utf8Start).assumingMemoryBound(to: CChar.self)
        record.pointee = flickr_error(
            code: error.code.rawValue, api_code: error.apiCode, http_status: error.httpStatus, message: message)
        if let old, old != staticNoError, !isStaticSummary(old) {
            free(UnsafeMutablePointer(mutating: old))
        }
    }

    private static func isStaticSummary(_ pointer: UnsafePointer<CChar>) -> Bool {
        FlickrError.Code.allCases.contains {
            UnsafeRawPointer($0.summary.utf8Start) == UnsafeRawPointer(pointer)
        }
    }
}
