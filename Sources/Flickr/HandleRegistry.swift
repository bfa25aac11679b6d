// SPDX-License-Identifier: MIT

internal import FlickrCore

/// The handles currently alive, so that a NULL, foreign, freed or
/// double-freed handle is refused with FLICKR_EINVAL instead of crashing.
///
/// An object may be handed out more than once (the same response to a done
/// callback and to flickr_request_response): each registration holds one
/// reference and needs one release. Lookups return a strong reference taken
/// under the lock, so a concurrent `_free` cannot deallocate an object while
/// a call is still using it.
final class HandleRegistry<Object: AnyObject & Sendable>: Sendable {
    private let live = Locked<[UInt: Int]>([:])
    private let kind: String

    init(kind: String) { self.kind = kind }

    /// Retains `object` and returns the opaque pointer the caller will hold.
    func register(_ object: Object) -> OpaquePointer {
        let raw = Unmanaged.passRetained(object).toOpaque()
        live.withLock { $0[UInt(bitPattern: raw), default: 0] += 1 }
        return OpaquePointer(raw)
    }

    /// The live object behind `handle`, or FLICKR_EINVAL.
    func object(_ handle: OpaquePointer?) throws(FlickrError) -> Object {
        guard let handle else { throw .invalid("the \(kind) must not be NULL") }
        let found: Object? = live.withLock { table in
            guard table[UInt(bitPattern: UnsafeRawPointer(handle))] != nil else { return nil }
            return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
        }
        guard let found else { throw .invalid("the \(kind) is not a live handle (already freed?)") }
        return found
    }

    /// The first live object for which `matches` holds (it runs under the registry's lock).
    func first(where matches: (Object) -> Bool) -> Object? {
        live.withLock { table in
            for key in table.keys {
                guard let raw = UnsafeRawPointer(bitPattern: key) else { continue }
                let object = Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue()
                if matches(object) { return object }
            }
            return nil
        }
    }

    /// Drops one registration's reference; unknown handles (NULL, already freed) are ignored.
    func release(_ handle: OpaquePointer?) {
        guard let handle else { return }
        let key = UInt(bitPattern: UnsafeRawPointer(handle))
        let wasLive = live.withLock { table -> Bool in
            guard let count = table[key] else { return false }
            table[key] = count > 1 ? count - 1 : nil
            return true
        }
        if wasLive {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).release()
        }
    }

    // fork() (ForkHandlers): the table is held across the fork; `each` visits the live objects
    // meanwhile (no object can be freed while the table is held: a release first unlists it).

    func lockForFork(each: (Object) -> Void = { _ in }) {
        live.lockForFork()
        visitLockedForFork(each)
    }

    func unlockAfterFork(each: (Object) -> Void = { _ in }) {
        visitLockedForFork(each)
        live.unlockAfterFork()
    }

    private func visitLockedForFork(_ each: (Object) -> Void) {
        live.peekLockedForFork { table in
            for key in table.keys {
                guard let raw = UnsafeRawPointer(bitPattern: key) else { continue }
                each(Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue())
            }
        }
    }
}
