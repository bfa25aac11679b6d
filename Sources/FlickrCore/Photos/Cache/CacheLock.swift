// SPDX-License-Identifier: MIT

import Glibc

/// Locks over one cache directory, shared by threads and processes: open file
/// description (OFD) byte-range locks on the directory's `.flickr-cache.lock`
/// file. Byte 0 guards the directory as a whole (renames in, evictions); each
/// entry has a byte of its own (a hash of its name), held while it is being
/// downloaded. OFD locks belong to one open of the file, so two threads of one
/// process exclude each other as two processes do, and the kernel drops them
/// when the holder closes the file or dies: a crashed downloader never wedges the cache.
final class CacheLock {
    // Linux's OFD lock commands (<fcntl.h> with _GNU_SOURCE, not imported into Swift).
    private static let setLock: Int32 = 37  // F_OFD_SETLK
    private static let setLockWait: Int32 = 38  // F_OFD_SETLKW

    private let fd: Int32

    /// Opens (creating) the directory's lock file. A symbolic link (or anything but a regular file)
    /// there is refused, never followed: the cache would otherwise create or open a file elsewhere.
    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
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
        self.init(fd: fd)
    }

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close(fd)  // releases every lock this open holds
    }

    /// Blocks until this open holds the whole-directory lock.
    func lockDirectory() throws(FlickrError) {
        try set(F_WRLCK, at: 0, wait: true)
    }

    func unlockDirectory() {
        try? set(F_UNLCK, at: 0, wait: false)
    }

    /// Blocks until this open holds the entry's lock.
    func lockEntry(_ name: String) throws(FlickrError) {
        try set(F_WRLCK, at: CacheLock.offset(of: name), wait: true)
    }

    /// Takes the entry's lock if free; false when another thread or process holds it.
    func tryLockEntry(_ name: String) -> Bool {
        (try? set(F_WRLCK, at: CacheLock.offset(of: name), wait: false)) != nil
    }

    func unlockEntry(_ name: String) {
        try? set(F_UNLCK, at: CacheLock.offset(of: name), wait: false)
    }

    private func set(_ type: Int32, at offset: Int64, wait: Bool) throws(FlickrError) {
        var request = flock()
        request.l_type = Int16(type)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(offset)
        request.l_len = 1
        request.l_pid = 0  // required by OFD locks
        while fcntl(fd, wait ? CacheLock.setLockWait : CacheLock.setLock, &request) != 0 {
            let code = errno
            if code == EINTR { continue }
            throw CacheError.io("cannot lock the photo cache", errno: code)
        }
    }

    /// An entry's byte: 1 + a 40-bit FNV-1a hash of its name (a collision only serialises two entries).
    static func offset(of name: String) -> Int64 {
        1 + Int64(truncatingIfNeeded: fnv1a(name) & 0xFF_FFFF_FFFF)
    }

    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}
