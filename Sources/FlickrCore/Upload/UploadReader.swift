// SPDX-License-Identifier: MIT

import Glibc

/// The photo bytes of one transfer attempt: an open file read with pread, a
/// borrowed buffer, or the caller's stream. Closed when the transfer ends.
final class UploadReader {
    private let kind: UploadSource.Kind
    private var descriptor: Int32 = -1
    /// Bytes this attempt will send.
    let length: Int64
    private(set) var position: Int64 = 0

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    convenience init(_ kind: UploadSource.Kind) throws(FlickrError) {
        switch kind {
        case .file(let path):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw FlickrError(.io, "cannot open \"\(path)\": \(UploadSource.errnoText())") }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                Glibc.close(fd)
                throw FlickrError(.io, "cannot read \"\(path)\": \(UploadSource.errnoText())")
            }
            do {
                try UploadSource.checkFileSize(info.st_size, path: path)  // it may have grown since
            } catch {
                Glibc.close(fd)
                throw error
            }
            self.init(kind: kind, descriptor: fd, length: Int64(info.st_size))
        case .memory(_, let count):
            self.init(kind: kind, descriptor: -1, length: Int64(count))
        case .stream(_, _, let length):
            self.init(kind: kind, descriptor: -1, length: length)
        }
    }

    private init(kind: UploadSource.Kind, descriptor: Int32, length: Int64) {
        self.kind = kind
        self.descriptor = descriptor
        self.length = length
    }

    deinit {
        close()
    }

    func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }

    /// Reads up to `buffer.count` bytes, never past `length`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FlickrError) -> Int {
        let wanted = Int(min(Int64(buffer.count), length - position))
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        var got: Int
        switch kind {
        case .file(let path):
            repeat {
                got = pread(descriptor, base, wanted, off_t(position))
            } while got < 0 && errno == EINTR
            guard got >= 0 else { throw FlickrError(.io, "cannot read \"\(path)\": \(UploadSource.errnoText())") }
        case .memory(let source, _):
            guard let source else { return 0 }
            base.copyMemory(from: source + Int(position), byteCount: wanted)
            got = wanted
        case .stream(let read, let userdata, _):
            guard let result = CallbackGate.run({ read(base, wanted, UnsafeMutableRawPointer(bitPattern: userdata)) })
            else { throw FlickrError(.aborted, "the read callback cannot be called: callbacks were shut down") }
            guard result >= 0 else { throw FlickrError(.io, "the read callback failed (returned \(result))") }
            got = Int(min(result, Int64(wanted)))
        }
        guard got > 0 else {
            throw FlickrError(.io, "the photo ended after \(position) of \(length) bytes")
        }
        position += Int64(got)
        return got
    }

    /// Moves back for a resend (curl rewinds when a kept-alive connection died); streams cannot.
    func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= length else { return false }
        if case .stream = kind { return offset == position }
        position = offset
        return true
    }
}
