// SPDX-License-Identifier: MIT

/// A caller's read callback: fills up to `capacity` bytes, returns how many
/// (0 at the end), or a negative number to fail. Same type as flickr_read_fn.
package typealias UploadReadFunction = @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Int64

/// Where an upload's photo bytes come from. Nothing is copied: a file is opened once, here (so
/// a source holds one descriptor until it and its uploads are gone), a buffer is borrowed, a
/// stream is read only while a transfer sends it.
package final class UploadSource: @unchecked Sendable {
    package enum Kind {
        case file(UploadFile)
        /// Borrowed: the caller keeps the bytes alive until the upload ends.
        case memory(base: UnsafeRawPointer?, count: Int)
        case stream(read: UploadReadFunction, userdata: UInt, length: Int64)
    }

    /// Larger than any upload Flickr takes (and far from overflowing the body's length).
    package static let maxLength: Int64 = 1 << 50

    package let kind: Kind
    /// The caller's file name and MIME type: set on one thread while uploads of the source read
    /// them on others (their workers), so behind a lock.
    private let overrides = Locked<(filename: String?, mimeType: String?)>((nil, nil))

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    package convenience init(_ kind: Kind, filename: String? = nil) throws(FlickrError) {
        try UploadSource.validate(kind)
        self.init(validKind: kind)
        if let filename { try setFilename(filename) }
    }

    /// A file source: `path` as the OS takes it (bytes), opened now and read by every attempt.
    package convenience init(path: [UInt8]) throws(FlickrError) {
        try self.init(.file(try UploadFile(path: path)))
    }

    private init(validKind kind: Kind) {
        self.kind = kind
    }

    private static func validate(_ kind: Kind) throws(FlickrError) {
        switch kind {
        case .file:
            break  // checked as it was opened
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
        if let name = overrides.withLock({ $0.filename }) { return name }
        if case .file(let file) = kind, !file.name.isEmpty { return file.name }
        return "photo"
    }

    package var mimeType: String { overrides.withLock { $0.mimeType } ?? MIMEType.guess(filename: filename) }

    package func setFilename(_ name: String) throws(FlickrError) {
        guard !name.isEmpty, !name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalid("the file name must be non-empty, without control characters")
        }
        overrides.withLock { $0.filename = name }
    }

    package func setMIMEType(_ type: String) throws(FlickrError) {
        let bytes = Array(type.utf8)
        guard bytes.contains(UInt8(ascii: "/")), bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") })
        else { throw .invalid("the MIME type must look like type/subtype") }
        overrides.withLock { $0.mimeType = type }
    }

    /// The bytes of one transfer attempt.
    func openReader() throws(FlickrError) -> UploadReader {
        try UploadReader(kind)
    }
}
