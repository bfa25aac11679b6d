// SPDX-License-Identifier: MIT

import Glibc
import Testing

@testable import FlickrCore

/// The file name an upload sends (issue 29, 4d): a path is bytes, and its last component reaches
/// Flickr as UTF-8 text that its quoted multipart header carries unchanged.
@Suite struct UploadFileNameTests {
    @Test func quotingEncodesWhatAQuotedHeaderCannotCarry() {
        #expect(MultipartBody.quoted("photo.jpg") == "photo.jpg")
        #expect(MultipartBody.quoted("caf\u{E9} \u{65E5}\u{FFFD}.jpg") == "caf\u{E9} \u{65E5}\u{FFFD}.jpg")
        #expect(MultipartBody.quoted("we\"ird.jpg") == "we%22ird.jpg")
        // A quoted-pair reader would take \" for a quote inside the string.
        #expect(MultipartBody.quoted("back\\slash\\") == "back%5Cslash%5C")
        #expect(MultipartBody.quoted("a\r\nb\tc\u{1B}[2J\u{7F}\u{0}") == "a%0D%0Ab%09c%1B[2J%7F%00")
    }

    /// A name that is not UTF-8: U+FFFD in its place, and the extension still names the MIME type.
    @Test func aPathThatIsNotUTF8GivesAUTF8FileName() throws {
        var template = Array("/tmp/flickr-name-XXXXXX".utf8CString)
        let directory = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) })
        let base = Array(String(cString: directory).utf8)
        let path = base + Array("/caf".utf8) + [0xE9, 0xFF] + Array(".png".utf8)
        let fd = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_CREAT | O_EXCL | O_WRONLY, 0o600) }
        }
        #expect(fd >= 0)
        close(fd)
        defer {
            _ = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { unlink($0.baseAddress!) } }
            rmdir(directory)
        }
        let source = try UploadSource(path: path)
        #expect(source.filename == "caf\u{FFFD}\u{FFFD}.png")
        #expect(source.mimeType == "image/png")
        #expect(MultipartBody.quoted(source.filename) == source.filename)
    }

    @Test func emptyPathsAndOtherFilesAreRefused() {
        #expect(throws: FlickrError.self) { try UploadSource(path: []) }
        #expect(throws: FlickrError.self) { try UploadSource(path: Array("/".utf8)) }
        #expect(throws: FlickrError.self) { try UploadSource(path: Array("/dev/null".utf8)) }
    }
}
