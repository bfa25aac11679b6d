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
    /// A thread's record: the public struct first (so a pointer to the slot is a pointer to
    /// the `flickr_error`), then whether its message was malloc'd. Ownership is tracked by
    /// this flag, never by comparing addresses of string literals: the compiler and linker may
    /// emit a literal more than once (AddressSanitizer builds do), and `free` of a static
    /// string aborts the process.
    private struct Slot {
        var error: flickr_error
        var ownsMessage: Bool
    }

    private static let noError: StaticString = "no error"

    /// nil only when the process ran out of pthread keys; errors then share
    /// one process-wide record rather than trapping.
    private static let key: pthread_key_t? = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            guard let raw else { return }
            ErrorSlot.release(raw.assumingMemoryBound(to: Slot.self))
        }
        return status == 0 ? key : nil
    }()

    /// fork() (ForkHandlers): the key is made before the fork, never halfway through it.
    static func initialiseBeforeFork() { _ = key }

    // Racy only in the out-of-keys fallback, where one shared record is the best left.
    nonisolated(unsafe) private static let sharedFallback: UnsafeMutablePointer<Slot> = newSlot()

    private static func newSlot() -> UnsafeMutablePointer<Slot> {
        let slot = UnsafeMutablePointer<Slot>.allocate(capacity: 1)
        slot.initialize(to: Slot(
            error: flickr_error(code: 0, api_code: 0, http_status: 0, message: staticCString(noError)),
            ownsMessage: false))
        return slot
    }

    private static func release(_ slot: UnsafeMutablePointer<Slot>) {
        if slot.pointee.ownsMessage, let message = slot.pointee.error.message {
            free(UnsafeMutablePointer(mutating: message))
        }
        slot.deinitialize(count: 1)
        slot.deallocate()
    }

    /// The public record inside a slot (the first stored property, at offset 0).
    private static func record(of slot: UnsafeMutablePointer<Slot>) -> UnsafeMutablePointer<flickr_error> {
        UnsafeMutableRawPointer(slot).advanced(by: MemoryLayout<Slot>.offset(of: \Slot.error) ?? 0)
            .assumingMemoryBound(to: flickr_error.self)
    }

    /// The calling thread's slot, created on first use.
    private static func currentSlot() -> UnsafeMutablePointer<Slot> {
        guard let key else { return sharedFallback }
        if let raw = pthread_getspecific(key) {
            return raw.assumingMemoryBound(to: Slot.self)
        }
        let slot = newSlot()
        guard pthread_setspecific(key, slot) == 0 else {
            release(slot)
            return sharedFallback
        }
        return slot
    }

    /// The calling thread's record, created on first use.
    static func current() -> UnsafeMutablePointer<flickr_error> {
        record(of: currentSlot())
    }

    /// Makes `error` the calling thread's last failure.
    static func record(_ error: FlickrError) {
        let slot = currentSlot()
        let old = slot.pointee.ownsMessage ? slot.pointee.error.message : nil
        // strdup on a Swift string: the message outlives this call; on allocation
        // failure fall back to the static summary rather than NULL.
        let copy = error.message.withCString { strdup($0) }
        slot.pointee.error = flickr_error(
            code: error.code.rawValue, api_code: error.apiCode, http_status: error.httpStatus,
            message: copy.map { UnsafePointer($0) } ?? staticCString(error.code.summary))
        slot.pointee.ownsMessage = copy != nil
        if let old { free(UnsafeMutablePointer(mutating: old)) }
    }
}
