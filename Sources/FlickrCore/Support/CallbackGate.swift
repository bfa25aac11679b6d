// SPDX-License-Identifier: MIT

import Glibc

/// Every call into the caller's code — log lines, interrupt checks, upload progress and read
/// callbacks, done callbacks — passes through here, so that flickr_shutdown_callbacks() can stop
/// them all for the rest of the process.
///
/// Why: a language runtime frees its callback trampolines as it exits (Python's ctypes thunks),
/// while the library's threads — a worker, a daemon thread blocked in a synchronous call — may
/// still call them: a jump into freed memory (test_robustness's shutdown test crashed so about
/// one run in ten under load). The runtime closes the gate while it is still whole; after that
/// no callback starts, and the close waits for those already running.
package enum CallbackGate {
    private struct State {
        var closed = false
        var running = 0
    }

    private static let state = Locked(State())
    /// How many callbacks the current thread is inside (a callback may close the gate itself).
    private static let depthKey: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// Runs `body` (a call into the caller's code) unless the gate is closed; nil when closed.
    package static func run<T>(_ body: () -> T) -> T? {
        let entered = state.withLock { (s: inout State) -> Bool in
            if s.closed { return false }
            s.running += 1
            return true
        }
        guard entered else { return nil }
        setDepth(depth + 1)
        defer {
            setDepth(depth - 1)
            state.withLock { $0.running -= 1 }
        }
        return body()
    }

    package static var isClosed: Bool { state.withLock { $0.closed } }

    /// Closes the gate for good, then waits up to `timeoutNs` for callbacks running on other
    /// threads to return. True when none is left running (other than the caller's own).
    package static func close(timeoutNs: UInt64) -> Bool {
        state.withLock { $0.closed = true }
        let own = depth
        let deadline = MonotonicClock.nowNs().addingSaturated(timeoutNs)
        while state.withLock({ $0.running }) > own {
            if MonotonicClock.nowNs() >= deadline { return false }
            MonotonicClock.sleep(ns: 1_000_000)
        }
        return true
    }

    // fork() (ForkGuard): callbacks that were running on other threads at the fork do not exist in
    // the child, so it counts only its own thread's.
    static func lockForFork() {
        _ = depth  // its key is made now, not halfway through in another thread
        state.lockForFork()
    }

    static func unlockAfterFork(child: Bool) {
        if child {
            let own = depth
            state.unlockAfterFork()
            state.withLock { $0.running = own }
        } else {
            state.unlockAfterFork()
        }
    }

    private static var depth: Int {
        guard let key = depthKey else { return 0 }
        return Int(bitPattern: UInt(bitPattern: pthread_getspecific(key)))
    }

    private static func setDepth(_ value: Int) {
        guard let key = depthKey else { return }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: UInt(bitPattern: value)))
    }
}
