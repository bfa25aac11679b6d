// SPDX-License-Identifier: MIT

internal import CFlickr
internal import FlickrCore
import Glibc

/// The per-thread record behind `flickr_error_last`.
///
/// Each thread gets one `flickr_error` struct plus the malloc'd message it
/// points to, created on the thread's first failure (or first read) and
/// released by the pthread key's destructor when the thread exits.
enum ErrorSlot {
    /// nil only when the process ran out of pthread keys; errors then share
    /// one process-wide record rather than trapping.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            ErrorRecord.deallocate(raw.assumingMemoryBound(to: ErrorRecord.self))
        }
        return status == 0 ? key : nil
    }()

    /// fork() (ForkHandlers): the key is made before the fork, never halfway through it.
    static func initialiseBeforeFork() { _ = key }

    // Racy only in the out-of-keys fallback, where one shared record is the best left.
    nonisolated(unsafe) private static let sharedFallback: UnsafeMutablePointer<ErrorRecord> = ErrorRecord.allocate()

    /// The calling thread's record, created on first use.
    private static func currentRecord() -> UnsafeMutablePointer<ErrorRecord> {
        guard let key else { return sharedFallback }
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: ErrorRecord.self)
        }
        let record = ErrorRecord.allocate()
        guard pthread_setspecific(key, record) == 0 else {
            ErrorRecord.deallocate(record)
            return sharedFallback
        }
        return record
    }

    /// The calling thread's public record, created on first use.
    static func current() -> UnsafeMutablePointer<flickr_error> {
        ErrorRecord.publicRecord(currentRecord())
    }

    /// The wait of `pointer`'s failure when it is the calling thread's record; nil for any other pointer.
    static func retryAfterMs(ifCurrent pointer: UnsafePointer<flickr_error>) -> Int64? {
        let record = currentRecord()
        guard UnsafePointer(ErrorRecord.publicRecord(record)) == pointer else { return nil }
        return record.pointee.retryAfterMs
    }

    /// Makes `error` the calling thread's last failure.
    static func record(_ error: FlickrError) {
        currentRecord().pointee.set(error)
    }
}
