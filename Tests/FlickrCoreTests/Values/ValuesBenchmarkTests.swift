// SPDX-License-Identifier: MIT

import CExpat
import Foundation
import Testing

@testable import FlickrCore

private func emptyStart(_: UnsafeMutableRawPointer?, _: UnsafePointer<XML_Char>?,
                        _: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {}
private func emptyEnd(_: UnsafeMutableRawPointer?, _: UnsafePointer<XML_Char>?) {}
private func emptyText(_: UnsafeMutableRawPointer?, _: UnsafePointer<XML_Char>?, _: Int32) {}

/// Throughput of the mapper against expat with empty handlers (the floor any
/// expat-based mapper pays). Prints only; timings are not asserted. Run with
/// `swift test -c release -Xswiftc -enable-testing --filter ValuesBenchmark` for real numbers.
@Suite struct ValuesBenchmarkTests {
    /// A 500-photo standard photo list with all extras: the 100 photos of the
    /// interestingness fixture, five times.
    static func photoList() throws -> [UInt8] {
        let source = String(decoding: try ValuesTestSupport.fixture("flickr.interestingness.getList.xml"), as: UTF8.self)
        let photos = source.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("<photo ") }
        var xml = "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n<photos page=\"1\" pages=\"1\" perpage=\"500\" total=\"500\">\n"
        for _ in 0..<5 {
            for photo in photos { xml += photo + "\n" }
        }
        xml += "</photos>\n</rsp>\n"
        return Array(xml.utf8)
    }

    private static func expatOnly(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let parser = XML_ParserCreate(nil) else { return false }
        defer { XML_ParserFree(parser) }
        XML_SetElementHandler(parser, emptyStart, emptyEnd)
        XML_SetCharacterDataHandler(parser, emptyText)
        return XML_Parse(parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), 1) == XML_STATUS_OK
    }

    /// Best time of `rounds` rounds of `iterations` runs, in seconds per run.
    private static func best(rounds: Int, iterations: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            let elapsed = clock.measure { for _ in 0..<iterations { body() } }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            best = min(best, seconds / Double(iterations))
        }
        return best
    }

    @Test func photoListThroughput() throws {
        let bytes = try Self.photoList()
        var photoCount = 0
        var nodes = 0
        try bytes.withUnsafeBytes { buffer in
            #expect(Self.expatOnly(buffer))
            let tree = try XMLMapper.parse(buffer)
            withExtendedLifetime(tree) {
                photoCount = tree.root.lookup(path: "photos.photo")?.count ?? 0
                nodes = tree.nodeCount
            }
            #expect(photoCount == 500)

            let megabytes = Double(bytes.count) / 1_000_000
            // Interleaved rounds, best of each, so that load from other processes hits both alike.
            var expat = Double.infinity
            var mapper = Double.infinity
            for _ in 0..<10 {
                expat = min(expat, Self.best(rounds: 1, iterations: 10) { _ = Self.expatOnly(buffer) })
                mapper = min(mapper, Self.best(rounds: 1, iterations: 10) {
                    let tree = try? XMLMapper.parse(buffer)
                    withExtendedLifetime(tree) {}
                })
            }
            let ratio = expat / mapper
            print(String(format: "XMLMapper benchmark: %.2f MB, %d photos, %d nodes; expat (empty handlers) %.1f MB/s, XMLMapper %.1f MB/s, ratio %.2f",
                         megabytes, photoCount, nodes, megabytes / expat, megabytes / mapper, ratio))
        }
    }
}
