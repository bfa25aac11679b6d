// SPDX-License-Identifier: MIT

import Glibc

/// Locks over one cache directory, shared by threads and processes: open file
/// description (OFD) byte-range locks on the directory's `.flickr-cache.lock`
/// file. Byte 0 guards the directory as a whole (renames in, evictions); each
/// entry has a byte of its own (a hash of its name), held while it is being
/// downloaded. OFD locks belong to one open of the file, so two threads of one
/// process exclude each other as two processes do, and the kernel drops them
/// when the holder closes the file or dies: a crashed downloader never wedges the cache.
/// A live one may hold a lock for as long as it likes (a stopped process, a slow download), so
/// no wait here blocks in the kernel: each polls a non-blocking attempt within the call's
/// `WaitLimit` (deadline, interrupt callback, cancel).
final class CacheLock {
    // Linux's OFD lock command (<fcntl.h> with _GNU_SOURCE, not imported into Swift). Its
    // blocking twin F_OFD_SETLKW is not used: it waits without limit, deaf to every stop.
    private static let setLock: Int32 = 37  // F_OFD_SETLK

    private let fd: Int32
    private let directory: String

    /// Opens (creating) the directory's lock file. A symbolic link (or anything but a regular file)
    /// there is refused, never followed: the cache would otherwise create or open a file elsewhere.
    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    convenience init(directory: String) throws(FlickrError) {
        let path = directory + "/" + CacheName.lock
        // O_NONBLOCK: opening a FIFO put there must not block (it is refused below).
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP {
                throw FlickrError(.io, "the photo cache's lock file \(path) is a symbolic link: the cache never "
                                  + "follows links in its directory (remove the link)")
            }
            throw CacheError.io("cannot open the photo cache's lock file \(path)", errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw FlickrError(.io, "the photo cache's lock file \(path) is not a regular file (remove it)")
        }
        self.init(fd: fd, directory: directory)
    }

    @_optimize(size)
    private init(fd: Int32, directory: String) {
        self.fd = fd
        self.directory = directory
    }

    deinit {
        close(fd)  // releases every lock this open holds
    }

    /// Waits, within `limit`, until this open holds the whole-directory lock (held by renames
    /// and evictions, for moments, unless their process is stopped).
    @_optimize(size)
    func lockDirectory(within limit: WaitLimit) throws(FlickrError) {
        try limit.poll(waitingFor: {
            "the photo cache's directory lock on \(directory) (held by another thread or process)"
        }) { () throws(FlickrError) -> Bool in try take(F_WRLCK, at: 0) }
    }

    @_optimize(size)
    func unlockDirectory() {
        _ = try? take(F_UNLCK, at: 0)
    }

    /// Waits, within `limit`, until this open holds the entry's lock (held while it is downloaded).
    @_optimize(size)
    func lockEntry(_ name: String, within limit: WaitLimit) throws(FlickrError) {
        try limit.poll(waitingFor: {
            "the photo cache entry \(CacheName.withoutSecret(name)) in \(directory), which another thread or "
                + "process is downloading (or holds locked)"
        }) { () throws(FlickrError) -> Bool in try take(F_WRLCK, at: CacheLock.offset(of: name)) }
    }

    /// Takes the entry's lock if free; false when another thread or process holds it.
    @_optimize(size)
    func tryLockEntry(_ name: String) -> Bool {
        (try? take(F_WRLCK, at: CacheLock.offset(of: name))) == true
    }

    @_optimize(size)
    func unlockEntry(_ name: String) {
        _ = try? take(F_UNLCK, at: CacheLock.offset(of: name))
    }

    /// Sets the byte's lock without waiting: false when another open holds it.
    @_optimize(size)
    private func take(_ type: Int32, at offset: Int64) throws(FlickrError) -> Bool {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(offset)
        request.l_len = 1
        request.l_pid = 0  // required by OFD locks
        while fcntl(fd, CacheLock.setLock, &request) != 0 {
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EACCES { return false }
            throw CacheError.io("cannot lock the photo cache", errno: code)
        }
        return true
    }

    /// An entry's byte: 1 + a 40-bit FNV-1a hash of its name (a collision only serialises two entries).
    @_optimize(size)
    static func offset(of name: String) -> Int64 {
        1 + Int64(truncatingIfNeeded: fnv1a(name) & 0xFF_FFFF_FFFF)
    }

    @_optimize(size)
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
