// SPDX-License-Identifier: MIT

/// A multipart/form-data body produced as it is sent: the text fields and the
/// photo part's header (built in memory, small), then the photo's bytes read
/// straight from their source, then the closing boundary. Its length is known
/// up front, so it goes out with a Content-Length and never as a whole in memory.
final class MultipartBody {
    let boundary: String
    private let preamble: [UInt8]
    private let epilogue: [UInt8]
    private let reader: UploadReader
    let length: Int64
    private(set) var position: Int64 = 0

    @_optimize(size)
    init(fields: [(String, String)], source: UploadSource, reader: UploadReader) {
        var boundary = "libflickr-" + OAuthSignature.nonce()
        // A boundary must not occur in the content; with 128 random bits this
        // loop practically never repeats, but it costs nothing to be sure.
        while fields.contains(where: { $0.1.containsText(boundary) || $0.0.containsText(boundary) }) {
            boundary = "libflickr-" + OAuthSignature.nonce()
        }
        self.boundary = boundary
        var head = ""
        for (name, value) in fields {
            head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(MultipartBody.quoted(name))\"\r\n\r\n"
            head += value + "\r\n"
        }
        head += "--\(boundary)\r\nContent-Disposition: form-data; name=\"photo\"; "
        head += "filename=\"\(MultipartBody.quoted(source.filename))\"\r\n"
        head += "Content-Type: \(source.mimeType)\r\n\r\n"
        preamble = Array(head.utf8)
        epilogue = Array("\r\n--\(boundary)--\r\n".utf8)
        self.reader = reader
        // reader.length is at most UploadSource.maxLength (2^50); saturating all the same.
        length = Int64(preamble.count).addingSaturated(reader.length).addingSaturated(Int64(epilogue.count))
    }

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Names and file names in quotes, as browsers write them (`"` as %22, CR %0D, LF %0A), and
    /// every other control byte and `\` percent-encoded too: a file name comes from a path, where
    /// any byte but `/` and NUL may stand, and a parser that reads quoted-pairs takes `\"` for a
    /// quote inside the string.
    @_optimize(size)
    static func quoted(_ text: String) -> String {
        PercentEncoding.encode(text) {
            $0 >= 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
    }

    /// Fills `buffer` with the next bytes; 0 at the end.
    @_optimize(size)
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(FlickrError) -> Int {
        var filled = 0
        while filled < buffer.count && position < length {
            let target = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            let preambleEnd = Int64(preamble.count)
            let photoEnd = preambleEnd + reader.length
            let got: Int
            if position < preambleEnd {
                got = copy(preamble, from: Int(position), into: target)
            } else if position < photoEnd {
                got = try reader.read(into: target)
            } else {
                got = copy(epilogue, from: Int(position - photoEnd), into: target)
            }
            filled += got
            position += Int64(got)
            // Hand a partial buffer to curl rather than block on a slow stream twice.
            if position > preambleEnd && position < photoEnd && filled > 0 { break }
        }
        return filled
    }

    @_optimize(size)
    private func copy(_ bytes: [UInt8], from offset: Int, into target: UnsafeMutableRawBufferPointer) -> Int {
        let count = min(bytes.count - offset, target.count)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress {
                target.baseAddress?.copyMemory(from: base + offset, byteCount: count)
            }
        }
        return count
    }

    /// Rewinds for a resend; false when the photo's source cannot go back.
    @_optimize(size)
    func seek(to offset: Int64) -> Bool {
        guard offset >= 0, offset <= length else { return false }
        let preambleEnd = Int64(preamble.count)
        let photoOffset = min(max(offset - preambleEnd, 0), reader.length)
        guard reader.seek(to: photoOffset) else { return false }
        position = offset
        return true
    }
}
