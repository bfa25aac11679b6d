// SPDX-License-Identifier: MIT

import Glibc

/// A value behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` because ThreadSanitizer understands
/// pthread mutexes, while the standard library's futex-based Mutex lives in
/// the (uninstrumented) static runtime and shows up as false races.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    // fork(): ForkGuard's handlers hold the lock from before the fork until after it in both
    // processes, so that no other thread holds it (or is halfway through changing the value) at the
    // instant of the fork. A lock another thread held then would stay locked in the child for good.

    /// Takes the lock in the fork prepare handler; `unlockAfterFork` gives it back in each process.
    package func lockForFork() { pthread_mutex_lock(mutex) }

    package func unlockAfterFork() { pthread_mutex_unlock(mutex) }

    /// The value, read by a fork handler that holds the lock through `lockForFork`.
    package func peekLockedForFork<Result>(_ body: (Value) -> Result) -> Result { body(value) }
}
