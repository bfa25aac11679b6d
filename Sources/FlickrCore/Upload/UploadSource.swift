// SPDX-License-Identifier: MIT

import Glibc

/// A caller's read callback: fills up to `capacity` bytes, returns how many
/// (0 at the end), or a negative number to fail. Same type as flickr_read_fn.
package typealias UploadReadFunction = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int64

/// Where an upload's photo bytes come from. Nothing is copied or opened here:
/// a file is opened, and a stream read, only while a transfer sends it, so a
/// source held by the caller keeps no file descriptor and no data.
package final class UploadSource: @unchecked Sendable {
    package enum Kind {
        case file(path: String)
        /// Borrowed: the caller keeps the bytes alive until the upload ends.
        case memory(base: UnsafeRawPointer?, count: Int)
        case stream(read: UploadReadFunction, userdata: UInt, length: Int64)
    }

    /// Larger than any upload Flickr takes (and far from overflowing the body's length).
    package static let maxLength: Int64 = 1 << 50

    package let kind: Kind
    private var filenameOverride: String?
    private var mimeTypeOverride: String?

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    package convenience init(_ kind: Kind, filename: String? = nil) throws(FlickrError) {
        try UploadSource.validate(kind)
        self.init(validKind: kind)
        if let filename { try setFilename(filename) }
    }

    private init(validKind kind: Kind) {
        self.kind = kind
    }

    private static func validate(_ kind: Kind) throws(FlickrError) {
        switch kind {
        case .file(let path):
            guard !path.isEmpty else { throw .invalid("the path must not be empty") }
            var info = stat()
            guard stat(path, &info) == 0 else {
                throw FlickrError(.io, "cannot upload \"\(path)\": \(UploadSource.errnoText())")
            }
            guard (info.st_mode & S_IFMT) == S_IFREG else {
                throw FlickrError(.io, "cannot upload \"\(path)\": not a regular file")
            }
            try checkFileSize(info.st_size, path: path)
            guard access(path, R_OK) == 0 else {
                throw FlickrError(.io, "cannot upload \"\(path)\": \(UploadSource.errnoText())")
            }
        case .memory(let base, let count):
            guard count >= 0, base != nil || count == 0 else { throw .invalid("the buffer must not be NULL") }
            guard Int64(count) <= UploadSource.maxLength else { throw .invalid("the buffer is too large") }
        case .stream(_, _, let length):
            guard length >= 0 else { throw .invalid("the stream length must not be negative") }
            guard length <= UploadSource.maxLength else { throw .invalid("the stream length is too large") }
        }
    }

    /// The file name sent in the multipart body: set, else the path's last component, else "photo".
    package var filename: String {
        if let filenameOverride { return filenameOverride }
        if case .file(let path) = kind, let name = path.split(separator: "/").last, !name.isEmpty {
            return String(name)
        }
        return "photo"
    }

    package var mimeType: String { mimeTypeOverride ?? MIMEType.guess(filename: filename) }

    package func setFilename(_ name: String) throws(FlickrError) {
        guard !name.isEmpty, !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalid("the file name must be non-empty, without control characters")
        }
        filenameOverride = name
    }

    package func setMIMEType(_ type: String) throws(FlickrError) {
        let bytes = Array(type.utf8)
        guard bytes.contains(UInt8(ascii: "/")), bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") })
        else { throw .invalid("the MIME type must look like type/subtype") }
        mimeTypeOverride = type
    }

    /// A file's size as the file system reports it (a sparse file can claim 2^63-1 bytes): checked
    /// like a caller's length before any arithmetic uses it.
    static func checkFileSize(_ size: off_t, path: String) throws(FlickrError) {
        guard size >= 0, Int64(size) <= maxLength else {
            throw .invalid("cannot upload \"\(path)\": \(size) bytes is more than any upload (at most \(maxLength))")
        }
    }

    /// Opens the bytes for one transfer attempt.
    func openReader() throws(FlickrError) -> UploadReader {
        try UploadReader(kind)
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
