// SPDX-License-Identifier: MIT

import Synchronization
internal import FlickrCore

/// The handles currently alive, so that a NULL, foreign, freed or
/// double-freed handle is refused with FLICKR_EINVAL instead of crashing.
///
/// Lookups return a strong reference taken under the lock, so a concurrent
/// `_free` cannot deallocate an object while a call is still using it.
final class HandleRegistry<Object: AnyObject & Sendable>: Sendable {
    private let live = Mutex<Set<UInt>>([])
    private let kind: String

    init(kind: String) { self.kind = kind }

    /// Retains `object` and returns the opaque pointer the caller will hold.
    func register(_ object: Object) -> OpaquePointer {
        let raw = Unmanaged.passRetained(object).toOpaque()
        live.withLock { _ = $0.insert(UInt(bitPattern: raw)) }
        return OpaquePointer(raw)
    }

    /// The live object behind `handle`, or FLICKR_EINVAL.
    func object(_ handle: OpaquePointer?) throws(FlickrError) -> Object {
        guard let handle else { throw .invalid("the \(kind) must not be NULL") }
        let found: Object? = live.withLock { set in
            guard set.contains(UInt(bitPattern: UnsafeRawPointer(handle))) else { return nil }
            return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
        }
        guard let found else { throw .invalid("the \(kind) is not a live handle (already freed?)") }
        return found
    }

    /// Drops the registry's reference; unknown handles (NULL, already freed) are ignored.
    func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        let wasLive = live.withLock { $0.remove(UInt(bitPattern: UnsafeRawPointer(handle))) != nil }
        if wasLive {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).release()
        }
    }
}
