// SPDX-License-Identifier: MIT

/// Recognises image files by their first bytes, so an error page or a proxy's
/// notice answered with status 200 never enters the photo cache as a photo.
enum ImageSignature {
    /// The format's name when `head` starts like a JPEG, PNG, GIF, WebP, TIFF or
    /// an ISO media file (HEIC, AVIF, and the MP4 of a video's original); else nil.
    @_optimize(size)
    static func format(of head: [UInt8]) -> String? {
        @_optimize(size)
        func starts(_ bytes: [UInt8], at offset: Int = 0) -> Bool {
            head.count >= offset + bytes.count && Array(head[offset..<(offset + bytes.count)]) == bytes
        }
        if starts([0xFF, 0xD8, 0xFF]) { return "JPEG" }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "PNG" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(Array("ftyp".utf8), at: 4) { return "ISO media" }
        return nil
    }

    /// A printable excerpt of what came instead of an image, for the error message.
    @_optimize(size)
    static func excerpt(of head: [UInt8]) -> String {
        let text = head.prefix(40).map { byte -> Character in
            (0x20..<0x7F).contains(byte) ? Character(Unicode.Scalar(byte)) : "."
        }
        return String(text)
    }
}
