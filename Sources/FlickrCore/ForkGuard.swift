// SPDX-License-Identifier: MIT

import Glibc

/// fork() in a process that has used the library (docs/threading.md, "Across fork()").
///
/// A child has one thread, the one that forked, and a copy of the parent's memory: the contexts'
/// worker threads are gone, their kept-alive connections are sockets the parent still uses, and a
/// lock another thread held at the fork instant stays held for good. So:
/// - every lock the child may take is held by the fork handlers across fork() (prepare takes them
///   in one order, the parent and child handlers give them back), so none is held, and no value is
///   halfway through a change, in the child;
/// - the child counts one more `ForkGeneration` (Support/); a context sees the change on first use
///   and starts afresh with a new engine (no connections, no worker), leaking the parent's without
///   touching it (cleaning it up would write TLS close_notify on the parent's sockets);
/// - requests in flight at the fork are the parent's: in the child they end at once with
///   `Request.inFlightAtFork`, without their done callbacks.
///
/// The C layer installs the handlers with the first context (`ForkHandlers` in Sources/Flickr) and
/// calls these around its own (its handle registries). Here, beside Context, and not in Support:
/// it calls every folder that holds a lock (Support stays a leaf that names none of them).
package enum ForkGuard {
    // Called in this order by the C layer's handlers, around its own locks: prepareContexts,
    // (its registries), prepareGlobals; after the fork, in each process, the reverse.

    package static func prepareContexts() { Context.lockAllForFork() }

    package static func prepareGlobals() {
        // Lazily made globals every call needs, made now if another thread is making them.
        _ = Engine.isAnyWorkerThread
        _ = RequestHeaders.plainGet
        _ = try? CurlGlobal.ensure()
        _ = Request.inFlightAtFork
        CallbackGate.lockForFork()
        ReplacedPhotos.lockForFork()
        NonceBytes.shared.lockForFork()
        OAuthRequestSigner.lockForFork()
        Engine.lockAbandonedForFork()
        KeyBudget.lockForFork()
        HostBackoff.lockForFork()
        ExpatParser.lockForFork()
    }

    /// `child`: in the child, which counts one more generation (it runs first there).
    package static func afterForkGlobals(child: Bool) {
        if child { ForkGeneration.advanceInChild() }
        ExpatParser.unlockAfterFork()
        HostBackoff.unlockAfterFork()
        KeyBudget.unlockAfterFork()
        Engine.unlockAbandonedAfterFork()
        OAuthRequestSigner.unlockAfterFork()
        NonceBytes.shared.unlockAfterFork(child: child)
        ReplacedPhotos.unlockAfterFork()
        CallbackGate.unlockAfterFork(child: child)
    }

    package static func afterForkContexts() { Context.unlockAllAfterFork() }
}
