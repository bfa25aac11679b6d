// SPDX-License-Identifier: MIT

import Glibc

/// A harvest checkpoint on disk: replaced atomically (a fresh temporary name beside it, created
/// with O_EXCL|O_NOFOLLOW, synced, then renamed over it), so a process killed at any moment
/// leaves the last whole checkpoint; read back with a size bound.
enum CheckpointFile {
    static let maxBytes = 64 << 20  // slices and at most one slice's ids: far below this

    @_optimize(size)
    static func write(_ text: String, to path: String) throws(FlickrError) {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[..<$0]) } ?? "."
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = (directory.isEmpty ? "" : directory + "/") + "." + base + "."
            + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("cannot create a file beside the checkpoint \(path)", errno) }
        var bytes = Array(text.utf8)
        var offset = 0
        var failed: Int32 = 0
        bytes.withUnsafeMutableBytes { buffer in
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(fd, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failed = errno
                    return
                }
                offset += written
            }
        }
        if failed == 0, fsync(fd) != 0 { failed = errno }
        if close(fd) != 0, failed == 0 { failed = errno }
        if failed == 0, rename(temporary, path) != 0 { failed = errno }
        if failed != 0 {
            unlink(temporary)
            throw failure("cannot write the checkpoint \(path)", failed)
        }
    }

    /// The file's bytes, nil when there is none.
    @_optimize(size)
    static func read(_ path: String) throws(FlickrError) -> [UInt8]? {
        // Non-blocking: a FIFO named as the checkpoint would hold the open (and the harvest) for
        // ever; only a regular file is a checkpoint. A link the caller named is followed.
        let fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw failure("cannot read the checkpoint \(path)", errno)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw FlickrError(.io, "the checkpoint \(path) is not a regular file (a FIFO, a folder or a device)")
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if got < 0 {
                if errno == EINTR { continue }
                throw failure("cannot read the checkpoint \(path)", errno)
            }
            if got == 0 { return data }
            data.append(contentsOf: chunk[0..<got])
            if data.count > maxBytes { throw FlickrError(.io, "\(path) is too large for a harvest checkpoint") }
        }
    }

    @_optimize(size)
    private static func failure(_ what: String, _ code: Int32) -> FlickrError {
        FlickrError(.io, "\(what): \(String(cString: strerror(code)))")
    }
}
