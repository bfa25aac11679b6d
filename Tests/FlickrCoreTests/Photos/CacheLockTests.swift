// SPDX-License-Identifier: MIT

import Glibc
import Testing

@testable import FlickrCore

/// A cache lock another open holds is waited for within the call's limit only: each stop ends the
/// wait (it used to be F_OFD_SETLKW, deaf to all of them).
@Suite struct CacheLockTests {
    private static func directory() -> String {
        var template = Array("/tmp/flickr-cachelock-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// Two opens of one directory's lock file: `holder` holds the entry (and the directory).
    private static func held() throws -> (holder: CacheLock, waiter: CacheLock) {
        let dir = directory()
        let holder = try CacheLock(directory: dir), waiter = try CacheLock(directory: dir)
        // Both opens keep the file and its locks: nothing need stay in /tmp.
        unlink(dir + "/" + CacheName.lock)
        rmdir(dir)
        try holder.lockEntry("flickr-cache-5_ab.jpg", within: .unlimited)
        try holder.lockDirectory(within: .unlimited)
        return (holder, waiter)
    }

    @Test func theDeadlineEndsTheWait() throws {
        let (holder, waiter) = try Self.held()
        let start = MonotonicClock.nowNs()
        let limit = WaitLimit(deadlineNs: start + 200_000_000, interrupt: nil, isCancelled: nil)
        #expect(throws: FlickrError.self) { try waiter.lockEntry("flickr-cache-5_ab.jpg", within: limit) }
        do {
            try waiter.lockDirectory(within: limit)
            Issue.record("the directory lock was taken while held")
        } catch {
            #expect(error.code == .timeout && error.message.contains("directory lock"))
        }
        let waited = MonotonicClock.nowNs() - start
        #expect(waited >= 200_000_000 && waited < 1_000_000_000)
        #expect(waiter.tryLockEntry("flickr-cache-6_ab.jpg"))  // another entry's byte is free
        holder.unlockEntry("flickr-cache-5_ab.jpg")
        try waiter.lockEntry("flickr-cache-5_ab.jpg", within: .unlimited)
    }

    @Test func aCancelEndsTheWait() throws {
        let (holder, waiter) = try Self.held()
        var asked = 0
        let limit = WaitLimit(deadlineNs: 0, interrupt: nil, isCancelled: {
            asked += 1
            return asked >= 3
        })
        do {
            try waiter.lockEntry("flickr-cache-5_ab.jpg", within: limit)
            Issue.record("the entry lock was taken while held")
        } catch {
            #expect(error.code == .aborted)
        }
        #expect(asked == 3)
        withExtendedLifetime(holder) {}
    }

    @Test func theInterruptCallbackEndsTheWait() throws {
        let (holder, waiter) = try Self.held()
        let check = InterruptCheck(function: { _ in 1 }, userdata: nil)
        let start = MonotonicClock.nowNs()
        do {
            let limit = WaitLimit(deadlineNs: 0, interrupt: check, isCancelled: nil)
            try waiter.lockEntry("flickr-cache-5_ab.jpg", within: limit)
            Issue.record("the entry lock was taken while held")
        } catch {
            #expect(error.code == .aborted)
        }
        #expect(MonotonicClock.nowNs() - start < 500_000_000)  // asked after InterruptCheck.intervalNs
        withExtendedLifetime(holder) {}
    }
}
