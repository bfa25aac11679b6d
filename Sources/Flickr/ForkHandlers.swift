// SPDX-License-Identifier: MIT

internal import FlickrCore
import Glibc

/// The library's pthread_atfork handlers, installed with the first context (ForkGuard in FlickrCore
/// says why). Prepare takes every lock a child could need, in one order that no thread's own
/// nesting reverses: the contexts, the handle registries (each live request's locks under the
/// request table's), then the process-wide ones; the parent and the child give them back in
/// reverse. None is ever held while the library calls the caller's code, so prepare only waits
/// for other threads' short critical sections. The child's handler then starts it afresh.
///
/// Prepare also makes sure no lazily initialised global the child needs is being initialised by
/// another thread at the fork (the child would wait for that thread for good): touching one waits
/// for its initialiser. The registries and the globals it locks are touched by locking them.
enum ForkHandlers {
    /// Swift runs a global's initialiser once: the first context installs the handlers.
    static let installed: Bool = pthread_atfork(prepare, parent, child) == 0

    private static let prepare: @convention(c) () -> Void = {
        ErrorSlot.initialiseBeforeFork()
        ForkGuard.prepareContexts()
        contexts.lockForFork()
        requests.lockForFork { $0.lockForFork() }
        responses.lockForFork()
        pagers.lockForFork()
        uploadSources.lockForFork()
        RequestHandle.lockSerialForFork()
        ForkGuard.prepareGlobals()
    }

    private static let parent: @convention(c) () -> Void = { after(child: false) }

    private static let child: @convention(c) () -> Void = { after(child: true) }

    private static func after(child: Bool) {
        ForkGuard.afterForkGlobals(child: child)
        RequestHandle.unlockSerialAfterFork()
        uploadSources.unlockAfterFork()
        pagers.unlockAfterFork()
        responses.unlockAfterFork()
        if child {
            requests.unlockAfterFork { $0.unlockAfterForkInChild() }
        } else {
            requests.unlockAfterFork { $0.unlockAfterForkInParent() }
        }
        contexts.unlockAfterFork()
        ForkGuard.afterForkContexts()
    }
}
