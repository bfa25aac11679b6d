// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Expat 2.5 rescans an unfinished token on every XML_Parse call; the mapper holds input back so
/// that the total scanning work stays linear in the body, whatever its shape (issue 19, fault 3:
/// a 32 MB comment took 31 s). Counted in bytes scanned, not timed.
@Suite struct LinearParsingTests {
    /// A body that is one long `open` ... `close` token around `size` filler bytes, fed as curl does.
    static func scanned(open: String, close: String, size: Int, chunk: Int = 16 * 1024) throws -> (Int, Int) {
        var body = Array("<rsp stat=\"ok\">".utf8) + Array(open.utf8)
        body += [UInt8](repeating: UInt8(ascii: "a"), count: size)
        body += Array(close.utf8) + Array("</rsp>".utf8)
        let mapper = XMLMapper()
        var offset = 0
        while offset < body.count {
            let end = min(offset + chunk, body.count)
            try body[offset..<end].withUnsafeBytes { try mapper.feed($0) }
            offset = end
        }
        _ = try mapper.finish()
        return (mapper.scannedBytes, body.count)
    }

    @Test(arguments: [
        ("<!--", "-->"),  // a comment
        ("<x a=\"", "\"/>"),  // an attribute value
        ("<?pi ", "?>"),  // a processing instruction
        ("<", "/>"),  // an element name
    ])
    func oneLongTokenIsScannedAFewTimesAtMost(open: String, close: String) throws {
        let (scanned, total) = try Self.scanned(open: open, close: close, size: 4 << 20)
        // Without the hold-back: about total^2 / (2 * 16 KiB), 500x the body here.
        #expect(scanned <= 3 * total, "scanned \(scanned) bytes for a \(total)-byte body")
    }

    @Test func workGrowsLinearlyFrom4To32MB() throws {
        let (small, _) = try Self.scanned(open: "<!--", close: "-->", size: 4 << 20)
        let (large, _) = try Self.scanned(open: "<!--", close: "-->", size: 32 << 20)
        #expect(large <= 9 * small, "4 MB: \(small) bytes scanned, 32 MB: \(large)")
    }

    @Test func ordinaryAnswersAreHandedOverAsTheyArrive() throws {
        var body = "<rsp stat=\"ok\"><photos>"
        for index in 0..<5000 { body += "<photo id=\"\(index)\" title=\"t\(index)\"/>" }
        body += "</photos></rsp>"
        let bytes = Array(body.utf8)
        let mapper = XMLMapper()
        for start in stride(from: 0, to: bytes.count, by: 1000) {
            try bytes[start..<min(start + 1000, bytes.count)].withUnsafeBytes { try mapper.feed($0) }
        }
        let tree = try mapper.finish()
        #expect(tree.root.lookup(path: "photos.photo")?.count == 5000)
        #expect(mapper.scannedBytes < bytes.count + bytes.count / 10)
    }
}
