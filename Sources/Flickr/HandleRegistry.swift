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
///
/// A handle that is stepped or changed (a harvest, a walk, an upload source's settings) is
/// claimed for the call: a second call on it meanwhile (another thread's, or one from a callback
/// the first makes) is refused with FLICKR_ESTATE instead of racing on the object's unguarded
/// state (a trap, or worse).
final class HandleRegistry<Object: AnyObject & Sendable>: Sendable {
    private struct Table {
        var live: [UInt: Int] = [:]
        /// Handles a call is using now (`claim` to `finish`), as keys: the same dictionary type as
        /// `live`, where a `Set<UInt>` compiled its own 4.6 KB of the standard library's set.
        var busy: [UInt: Int] = [:]
    }

    private let table = Locked(Table())
    private let kind: String

    init(kind: String) { self.kind = kind }

    /// Retains `object` and returns the opaque pointer the caller will hold.
    func register(_ object: Object) -> OpaquePointer {
        let raw = Unmanaged.passRetained(object).toOpaque()
        table.withLock { $0.live[UInt(bitPattern: raw), default: 0] += 1 }
        return OpaquePointer(raw)
    }

    /// The live object behind `handle`, or FLICKR_EINVAL.
    func object(_ handle: OpaquePointer?) throws(FlickrError) -> Object {
        guard let handle else { throw .invalid(.message(["the ", kind, " must not be NULL"])) }
        let found: Object? = table.withLock { table in
            guard table.live[UInt(bitPattern: UnsafeRawPointer(handle))] != nil else { return nil }
            return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
        }
        guard let found else { throw .invalid(.message(["the ", kind, " is not a live handle (already freed?)"])) }
        return found
    }

    /// The live object behind `handle`, marked in use until `finish(handle)`: FLICKR_EINVAL as
    /// `object`, FLICKR_ESTATE while another call uses it. The reference returned keeps the object
    /// alive after a concurrent free, so its address (the mark) cannot be reused meanwhile.
    func claim(_ handle: OpaquePointer?) throws(FlickrError) -> Object {
        guard let handle else { throw .invalid(.message(["the ", kind, " must not be NULL"])) }
        let key = UInt(bitPattern: UnsafeRawPointer(handle))
        var inUse = false
        let found: Object? = table.withLock { table in
            guard table.live[key] != nil else { return nil }
            guard table.busy[key] == nil else {
                inUse = true
                return nil
            }
            table.busy[key] = 1
            return Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).takeUnretainedValue()
        }
        if inUse {
            throw FlickrError(.state, .message(["the ", kind, " is in use by another call (one call at a time per ", kind,
                                                 ": another thread's, or a callback's within it)"]))
        }
        guard let found else { throw .invalid(.message(["the ", kind, " is not a live handle (already freed?)"])) }
        return found
    }

    /// Ends the use `claim` marked; `object`, what it returned, is kept alive until the mark is gone.
    func finish(_ handle: OpaquePointer?, _ object: Object) {
        guard let handle else { return }
        let key = UInt(bitPattern: UnsafeRawPointer(handle))
        table.withLock { $0.busy[key] = nil }
        withExtendedLifetime(object) {}
    }

    /// The first live object for which `matches` holds (it runs under the registry's lock).
    func first(where matches: (Object) -> Bool) -> Object? {
        table.withLock { table in
            for key in table.live.keys {
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
        let wasLive = table.withLock { table -> Bool in
            guard let count = table.live[key] else { return false }
            table.live[key] = count > 1 ? count - 1 : nil
            return true
        }
        if wasLive {
            Unmanaged<Object>.fromOpaque(UnsafeRawPointer(handle)).release()
        }
    }

    // fork() (ForkHandlers): the table is held across the fork; `each` visits the live objects
    // meanwhile (no object can be freed while the table is held: a release first unlists it).
    // A handle another thread was using stays claimed in the child: its state was mid-change.

    func lockForFork(each: (Object) -> Void = { _ in }) {
        table.lockForFork()
        visitLockedForFork(each)
    }

    func unlockAfterFork(each: (Object) -> Void = { _ in }) {
        visitLockedForFork(each)
        table.unlockAfterFork()
    }

    private func visitLockedForFork(_ each: (Object) -> Void) {
        table.peekLockedForFork { table in
            for key in table.live.keys {
                guard let raw = UnsafeRawPointer(bitPattern: key) else { continue }
                each(Unmanaged<Object>.fromOpaque(raw).takeUnretainedValue())
            }
        }
    }
}
