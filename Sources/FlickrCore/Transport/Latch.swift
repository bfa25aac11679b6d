// SPDX-License-Identifier: MIT

import Glibc

/// A one-shot gate: `wait()` blocks until `open()` has been called once.
/// Built on pthread primitives because the standard library has no condition variable.
final class Latch: @unchecked Sendable {
    // Heap-allocated so the pthread objects never move.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var isOpen = false

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func open() {
        pthread_mutex_lock(mutex)
        isOpen = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    func wait() {
        pthread_mutex_lock(mutex)
        while !isOpen {
            pthread_cond_wait(condition, mutex)
        }
        pthread_mutex_unlock(mutex)
    }

    /// fork(): held across the fork, like `Locked.lockForFork`.
    func lockForFork() { pthread_mutex_lock(mutex) }

    func unlockAfterForkInParent() { pthread_mutex_unlock(mutex) }

    /// In the child the condition is made anew: threads of the parent that waited on it do not
    /// exist here, and glibc's broadcast would wait for them to wake.
    func unlockAfterForkInChild() {
        pthread_cond_init(condition, nil)
        pthread_mutex_unlock(mutex)
    }
}
