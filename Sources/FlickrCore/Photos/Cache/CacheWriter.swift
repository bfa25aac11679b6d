// SPDX-License-Identifier: MIT

import Glibc

/// One download's body on its way into the cache: a hidden temporary file in
/// the cache directory itself, so that the final rename is atomic and readers
/// never see a partial image. Used by one thread at a time (the transfer's).
final class CacheWriter: BodySink, @unchecked Sendable {
    let temporaryPath: String
    private let directory: String
    private var fd: Int32
    /// Whether `temporaryPath` still names this download's file (not yet renamed or removed).
    private var onDisk = true
    private(set) var bytesWritten: Int64 = 0

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    convenience init(directory: String, entry: String) throws(FlickrError) {
        // A hidden name of the cache's grammar (CacheName.isTemporary): scans skip it, and a stale
        // one (a process that died mid-download) is recognisable for clean-up.
        let name = CacheName.temporary(for: entry, pid: getpid(), unique: UInt64.random(in: 0...UInt64.max))
        let path = directory + "/" + name
        // O_EXCL|O_NOFOLLOW: a fresh file of this download's own, never an existing file or a link's target.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            throw CacheError.io("cannot create a file in the photo cache \(directory)", errno: code)
        }
        self.init(directory: directory, temporaryPath: path, fd: fd)
    }

    @_optimize(size)
    private init(directory: String, temporaryPath: String, fd: Int32) {
        self.directory = directory
        self.temporaryPath = temporaryPath
        self.fd = fd
    }

    deinit {
        discard()
    }

    @_optimize(size)
    func write(_ chunk: UnsafeRawBufferPointer) throws(FlickrError) {
        guard fd >= 0 else { throw FlickrError(.state, "the cache file was already closed") }
        guard let start = chunk.baseAddress else { return }
        var offset = 0
        while offset < chunk.count {
            let written = Glibc.write(fd, start + offset, chunk.count - offset)
            if written < 0 {
                let code = errno
                if code == EINTR { continue }
                throw CacheError.io("cannot write the image into the photo cache \(directory)", errno: code)
            }
            offset += written
        }
        bytesWritten = bytesWritten.addingSaturated(Int64(chunk.count))
    }

    /// Flushes and closes the file before it is renamed into place: after a crash the
    /// cache holds the whole image or nothing, never a torn one.
    @_optimize(size)
    func finish() throws(FlickrError) {
        guard fd >= 0 else { throw FlickrError(.state, "the cache file was already closed") }
        var times = [PhotoCache.now(), PhotoCache.now()]
        _ = futimens(fd, &times)  // its recency: now, at full resolution
        let synced = fdatasync(fd) == 0 ? 0 : errno
        let closed = close(fd) == 0 ? 0 : errno
        fd = -1
        if synced != 0 || closed != 0 {
            throw CacheError.io("cannot write the image into the photo cache \(directory)",
                                errno: synced != 0 ? synced : closed)
        }
    }

    /// Records that the file was renamed into the cache: nothing is left to remove.
    @_optimize(size)
    func moved() {
        onDisk = false
    }

    /// Closes and removes the temporary file (a failed, retried or abandoned download).
    @_optimize(size)
    func discard() {
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        if onDisk {
            unlink(temporaryPath)
            onDisk = false
        }
    }
}
