// SPDX-License-Identifier: MIT

import Glibc

/// One key's budget file, open and mapped in this process: every context of the process using
/// the key goes through this one object, other processes through their own.
///
/// Exclusion: `flock` on the open file (between processes; the kernel drops it when a holder
/// dies, even by kill -9) and a mutex (between this process's threads, which share the open).
/// Both are only ever tried, never waited on in the kernel: a holder that is stopped (SIGSTOP)
/// holds up others only until their call's time limit (`WaitLimit`). The lock is held for a few
/// loads and stores of the mapping, never across a wait.
///
/// The mapping covers the file's size as of the last look: every use first `fstat`s the file
/// under the lock, remaps when another process grew it, and checks the header again
/// (`BudgetRing.open`). The library never shrinks the file (a process that mapped more would
/// fault); a corrupt or foreign one is rebuilt in place, at its size or larger.
final class BudgetFile: @unchecked Sendable {
    let path: String
    private let directory: BudgetDirectory
    private let name: String
    private var fd: Int32
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Guarded by the mutex and the flock.
    private var mapping: UnsafeMutableRawPointer?
    private var mappedLength = 0
    private var identity: (device: UInt64, inode: UInt64)
    /// When the path was last checked to still name the open file (Unix ms).
    private var checkedPathMs: Int64 = 0

    /// A larger file than this is a foreign one: only this much of it is mapped (and rebuilt).
    static let maxBytes = BudgetRing.bytes(capacity: BudgetRing.maxCapacity)
    /// How often the path is checked against the open file (a person removed the file): a second.
    static let pathCheckMs: Int64 = 1000

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    convenience init(directory: BudgetDirectory, name: String) throws(FlickrError) {
        let (fd, identity) = try BudgetFile.openFile(name, in: directory)
        self.init(directory: directory, name: name, fd: fd, identity: identity)
    }

    private init(directory: BudgetDirectory, name: String, fd: Int32, identity: (device: UInt64, inode: UInt64)) {
        self.directory = directory
        self.name = name
        self.path = directory.path + "/" + name
        self.fd = fd
        self.identity = identity
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        unmap()
        close(fd)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Opens (creating, 0600) the file in its folder (`BudgetDirectory.openFolder`): never through a
    /// symbolic link, never a FIFO or a device, never one another user owns or may write, never one
    /// with another name (a hard link: writing the ring would overwrite that other file).
    @_optimize(size)
    private static func openFile(
        _ name: String, in directory: BudgetDirectory
    ) throws(FlickrError) -> (Int32, (device: UInt64, inode: UInt64)) {
        let folder = try directory.openFolder()
        defer { close(folder) }
        let path = directory.path + "/" + name
        let fd = openat(folder, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP {
                throw FlickrError(.io, .message(["the budget file ", path, " is a symbolic link: it is never followed (remove it)"]))
            }
            throw FlickrError(.io, .message(["cannot open the budget file ", path, ": ", String(cString: strerror(code))]))
        }
        var info = stat()
        var refusal: FlickrError?
        if fstat(fd, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG {
            refusal = FlickrError(.io, .message(["the budget file ", path, " is not a regular file (remove it)"]))
        } else {
            refusal = BudgetDirectory.refusal(of: info, what: "the budget file " + path) ?? linked(info, path)
        }
        if let refusal {
            close(fd)
            throw refusal
        }
        return (fd, (UInt64(info.st_dev), UInt64(info.st_ino)))
    }

    /// A file with another name (a hard link) is another file too: the ring is never written over it.
    @_optimize(size)
    private static func linked(_ info: stat, _ path: String) -> FlickrError? {
        guard info.st_nlink > 1 else { return nil }
        return FlickrError(.io, .message(["the budget file ", path, " has ", String(info.st_nlink),
                                          " names (a hard link to another file): it is never written (remove it)"]))
    }

    /// Runs `body` on the ring, holding the lock, once it is open with room for `limit` starts
    /// (grown, or rebuilt when it is not a valid ring). Waits for the lock within `limit`.
    func withRing<Result>(
        holding limit: Int, nowMs: Int64, within wait: WaitLimit, _ body: (BudgetRing) -> Result
    ) throws(FlickrError) -> Result {
        try wait.poll(waitingFor: { "the budget file \(path) (locked by another thread or process)" }) {
            () throws(FlickrError) -> Bool in try tryLock()
        }
        defer { unlock() }
        let ring = try prepare(holding: limit, nowMs: nowMs)
        return body(ring)
    }

    /// Takes the mutex, then the flock; false when either is held elsewhere.
    private func tryLock() throws(FlickrError) -> Bool {
        guard pthread_mutex_trylock(mutex) == 0 else { return false }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 { return true }
        let code = errno
        pthread_mutex_unlock(mutex)
        if code == EWOULDBLOCK || code == EINTR { return false }
        throw FlickrError(.io, "cannot lock the budget file \(path): \(String(cString: strerror(code)))")
    }

    private func unlock() {
        _ = flock(fd, LOCK_UN)
        pthread_mutex_unlock(mutex)
    }

    /// Under the lock: the ring, mapped at the file's current size, valid and holding at least `limit`.
    private func prepare(holding limit: Int, nowMs: Int64) throws(FlickrError) -> BudgetRing {
        if nowMs &- checkedPathMs >= BudgetFile.pathCheckMs || nowMs < checkedPathMs {
            try reopenIfReplaced()
            checkedPathMs = nowMs
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FlickrError(.io, "cannot read the budget file \(path)'s size") }
        if let refusal = BudgetFile.linked(info, path) { throw refusal }  // linked since it was opened
        let size = Int(clamping: info.st_size)
        let wanted = BudgetRing.bytes(capacity: limit)
        // Never touch a page past the file's end (a fault, not an error): remap to the size seen now.
        let visible = min(size, BudgetFile.maxBytes)
        if visible != mappedLength {
            if visible >= BudgetRing.headerBytes { try map(length: visible) } else { unmap() }
        }
        if let base = mapping, let ring = BudgetRing.open(base, length: mappedLength) {
            if ring.capacity >= limit { return ring }
            // Another process asked for fewer: carry its starts into a larger ring.
            return try rebuild(
                capacity: limit, bytes: wanted, keeping: ring.entries, backoff: ring.storedBackoff, nowMs: nowMs)
        }
        // New, torn, corrupt or foreign: never trusted, formatted afresh (at its size if larger).
        return try rebuild(capacity: limit, bytes: wanted, keeping: [], backoff: (0, 0), nowMs: nowMs)
    }

    @_optimize(size)
    private func rebuild(
        capacity: Int, bytes: Int, keeping kept: [Int64], backoff: (untilMs: Int64, host: Int64), nowMs: Int64
    ) throws(FlickrError) -> BudgetRing {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw FlickrError(.io, "cannot read the budget file \(path)'s size") }
        let length = max(bytes, min(Int(clamping: info.st_size), BudgetFile.maxBytes))
        // Formatting writes every page: each must be on the disk (a hole left by someone could not be).
        if length != mappedLength || mapping == nil { try map(length: length) } else { try allocate(length) }
        guard let base = mapping,
            let ring = BudgetRing.format(base, length: mappedLength, capacity: capacity, keeping: kept,
                                         backoff: backoff, nowMs: nowMs)
        else { throw FlickrError(.io, "cannot format the budget file \(path)") }
        return ring
    }

    /// Maps the first `length` bytes, their blocks allocated first.
    @_optimize(size)
    private func map(length: Int) throws(FlickrError) {
        try allocate(length)
        unmap()
        let raw = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let raw, raw != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw FlickrError(.io, "cannot map the budget file \(path): \(String(cString: strerror(errno)))")
        }
        mapping = raw
        mappedLength = length
    }

    /// Gives the first `length` bytes their disk blocks, growing the file if needed. A store through
    /// the mapping into a hole (what `ftruncate` makes) on a full file system is not an error the
    /// library could report: the kernel kills the process with SIGBUS. Reserved here, a full disk is
    /// an error; on blocks already there it changes nothing.
    @_optimize(size)
    private func allocate(_ length: Int) throws(FlickrError) {
        var code: Int32
        repeat { code = posix_fallocate(fd, 0, off_t(length)) } while code == EINTR
        guard code != 0 else { return }
        let reason = String(cString: strerror(code))
        if code == ENOSPC || code == EDQUOT {
            throw FlickrError(.io, .message(["no space for the budget file ", path, " (", String(length), " bytes): ", reason]))
        }
        throw FlickrError(.io, .message(["cannot reserve ", String(length), " bytes for the budget file ", path, ": ", reason]))
    }

    private func unmap() {
        if let mapping { munmap(mapping, mappedLength) }
        mapping = nil
        mappedLength = 0
    }

    /// When the path no longer names the open file (removed, or replaced by another), the processes
    /// that open it now would count apart from this one: open what the path names now.
    @_optimize(size)
    private func reopenIfReplaced() throws(FlickrError) {
        var info = stat()
        let same = lstat(path, &info) == 0 && UInt64(info.st_dev) == identity.device
            && UInt64(info.st_ino) == identity.inode
        if same { return }
        let (newFd, newIdentity) = try BudgetFile.openFile(name, in: directory)
        // The flock of the old open goes with it; this thread holds the mutex, so nobody else uses it.
        guard flock(newFd, LOCK_EX | LOCK_NB) == 0 else {
            close(newFd)
            return  // someone holds the new one: keep the old file for now, look again next time
        }
        unmap()
        close(fd)
        fd = newFd
        identity = newIdentity
    }
}
