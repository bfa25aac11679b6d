// SPDX-License-Identifier: MIT

import Glibc

/// A file an upload source reads: opened once, when the source is made, and read by every
/// attempt through that descriptor (pread, so uploads sharing the source never move each
/// other's offset). Whatever the path names later (a FIFO swapped in, another file renamed over
/// it) no attempt sees: naming the path again per attempt is what let a FIFO hang an upload.
/// Closed when the last source, upload or reader holding it lets go.
package final class UploadFile: Sendable {
    let descriptor: Int32
    /// The path for messages: its bytes as UTF-8, with U+FFFD for what is not.
    let displayPath: String
    /// The last path component as text (the default file name sent), U+FFFD for invalid bytes.
    let name: String

    /// Opens `path` (bytes, as the OS takes them: a Linux file name need not be UTF-8) for reading.
    /// O_NONBLOCK: opening a FIFO or a device must not wait for a writer or a carrier; it is
    /// refused below, and a regular file's reads ignore the flag. O_NOCTTY: a terminal named
    /// by mistake does not become the process's controlling terminal.
    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(path: [UInt8]) throws(FlickrError) {
        guard !path.isEmpty else { throw .invalid("the path must not be empty") }
        guard !path.contains(0) else { throw .invalid("the path must not contain a NUL byte") }
        let display = String(decoding: path, as: UTF8.self)
        var descriptor: Int32 = -1
        repeat {
            descriptor = (path + [0]).withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { text in
                    guard let base = text.baseAddress else { return -1 }
                    return open(base, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
                }
            }
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else {
            throw FlickrError(.io, "cannot upload \"\(display)\": \(UploadFile.errnoText())")
        }
        do throws(FlickrError) {
            var info = stat()
            guard fstat(descriptor, &info) == 0 else {
                throw FlickrError(.io, "cannot upload \"\(display)\": \(UploadFile.errnoText())")
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw FlickrError(.io, "cannot upload \"\(display)\": not a regular file")
            }
            try UploadFile.checkSize(info.st_size, path: display)
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        let last = path.split(separator: UInt8(ascii: "/")).last
        self.init(descriptor: descriptor, displayPath: display,
                  name: last.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    @_optimize(size)
    private init(descriptor: Int32, displayPath: String, name: String) {
        self.descriptor = descriptor
        self.displayPath = displayPath
        self.name = name
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// What an attempt checks the file against: its size and last change now.
    struct Snapshot: Equatable {
        var size: Int64
        var modifiedSeconds: Int64
        var modifiedNanoseconds: Int64
    }

    /// The file as it is now (through the descriptor, never the path), its size checked like a
    /// caller's length: it may have grown since it was opened.
    @_optimize(size)
    func snapshot() throws(FlickrError) -> Snapshot {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw FlickrError(.io, "cannot read \"\(displayPath)\": \(UploadFile.errnoText())")
        }
        try UploadFile.checkSize(info.st_size, path: displayPath)
        // Int64, not Int: a 64-bit time_t on a 32-bit target must not trap in a conversion.
        return Snapshot(size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
                        modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
    }

    /// A file's size as the file system reports it (a sparse file can claim 2^63-1 bytes): checked
    /// like a caller's length before any arithmetic uses it.
    @_optimize(size)
    static func checkSize(_ size: off_t, path: String) throws(FlickrError) {
        guard size >= 0, Int64(size) <= UploadSource.maxLength else {
            throw .invalid(
                "cannot upload \"\(path)\": \(size) bytes is more than any upload (at most \(UploadSource.maxLength))")
        }
    }

    @_optimize(size)
    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
