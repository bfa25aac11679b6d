// SPDX-License-Identifier: MIT

import Glibc

/// The photo bytes of one transfer attempt: the source's open file read with pread, a
/// borrowed buffer, or the caller's stream.
final class UploadReader {
    private let kind: UploadSource.Kind
    /// A file as this attempt found it: it must be the same when its last byte is read.
    private let fileAtStart: UploadFile.Snapshot?
    /// Bytes this attempt will send.
    let length: Int64
    private(set) var position: Int64 = 0

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    convenience init(_ kind: UploadSource.Kind) throws(FlickrError) {
        switch kind {
        case .file(let file):
            let snapshot = try file.snapshot()  // the size now: it may have changed since it was opened
            self.init(kind: kind, fileAtStart: snapshot, length: snapshot.size)
        case .memory(_, let count):
            self.init(kind: kind, fileAtStart: nil, length: Int64(count))
        case .stream(_, _, let length):
            self.init(kind: kind, fileAtStart: nil, length: length)
        }
    }

    private init(kind: UploadSource.Kind, fileAtStart: UploadFile.Snapshot?, length: Int64) {
        self.kind = kind
        self.fileAtStart = fileAtStart
        self.length = length
    }

    /// Reads up to `buffer.count` bytes, never past `length`; 0 at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FlickrError) -> Int {
        let wanted = Int(min(Int64(buffer.count), length - position))
        guard wanted > 0, let base = buffer.baseAddress else { return 0 }
        var got: Int
        switch kind {
        case .file(let file):
            repeat {
                got = pread(file.descriptor, base, wanted, off_t(position))
            } while got < 0 && errno == EINTR
            guard got >= 0 else {
                throw FlickrError(.io, "cannot read \"\(file.displayPath)\": \(UploadFile.errnoText())")
            }
            guard got > 0 else {
                throw FlickrError(.io, "\"\(file.displayPath)\" shrank while it was being sent: it ended after "
                                  + "\(position) of \(length) bytes")
            }
            // Its last byte is held back until the file is found unchanged: a file written to
            // meanwhile (grown, or rewritten in place) would reach Flickr as a photo never on disk.
            if position + Int64(got) == length, let fileAtStart, try file.snapshot() != fileAtStart {
                throw FlickrError(.io, "\"\(file.displayPath)\" changed while it was being sent: send it again "
                                  + "once it is complete")
            }
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
