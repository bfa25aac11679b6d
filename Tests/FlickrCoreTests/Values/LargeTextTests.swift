// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// A text of a MiB or more is kept in the buffer it was received into, not copied into the tree's
/// string arena (bench/NOTES.md, Change 21): the tree must read exactly as before, the open
/// elements' text below it must survive, and several such texts must each keep their own bytes.
@Suite struct LargeTextTests {
    static func mapped(_ body: [UInt8], chunk: Int = 16 * 1024) throws -> ValueTree {
        try ValuesTestSupport.tree(bytes: body, chunkSize: chunk)
    }

    static func filler(_ size: Int, _ seed: UInt8) -> [UInt8] {
        (0..<size).map { UInt8(ascii: "a") + UInt8(truncatingIfNeeded: ($0 &* 7 &+ Int(seed)) % 26) }
    }

    static func text(_ node: UnsafePointer<ValueNode>?) -> [UInt8]? {
        node?.string.map { Array($0.utf8) }
    }

    @Test func aLargeTextInsideTextKeepsBoth() throws {
        let big = Self.filler(TreeBuilder.ownBufferText + 12345, 1)
        let body = Array("<rsp stat=\"ok\">\n  <a>before<b>".utf8) + big + Array("</b>after</a>\n</rsp>".utf8)
        let tree = try Self.mapped(body)
        let a = try #require(tree.root.member("a"))
        #expect(Self.text(a.member("b")) == big)
        #expect(a.member("b")?.member("_text")?.count == 0)  // a string
        #expect(Self.text(a) == Array("beforeafter".utf8))
        #expect(tree.root.member("_text") == nil)  // the envelope's whitespace, dropped as ever
        #expect(tree.root.json().utf8.count == big.count + 58)  // {"stat":"ok","a":{"_text":"beforeafter","b":{"_text":"…"}}}
    }

    @Test func severalLargeTextsKeepTheirOwnBytes() throws {
        let texts = (0..<3).map { Self.filler(TreeBuilder.ownBufferText + $0 * 1000, UInt8($0)) }
        var body = Array("<rsp stat=\"ok\"><photos>".utf8)
        for text in texts { body += Array("<photo>".utf8) + text + Array("</photo>".utf8) }
        body += Array("</photos></rsp>".utf8)
        let tree = try Self.mapped(body, chunk: 10_000)
        let photos = try #require(tree.root.lookup(path: "photos.photo"))
        #expect(photos.count == 3)
        for (index, text) in texts.enumerated() {
            #expect(Self.text(photos.element(at: index)) == text, "photo \(index)")
        }
    }

    @Test func largeWhitespaceBesideChildrenIsDropped() throws {
        let spaces = [UInt8](repeating: UInt8(ascii: " "), count: TreeBuilder.ownBufferText * 2)
        let body = Array("<rsp stat=\"ok\"><a>".utf8) + spaces + Array("<b/></a></rsp>".utf8)
        let tree = try Self.mapped(body)
        #expect(tree.root.member("a")?.member("_text") == nil)
        #expect(tree.root.member("a")?.member("b") != nil)
    }

    @Test func aBrokenDocumentAfterALargeTextFailsCleanly() throws {
        let big = Self.filler(TreeBuilder.ownBufferText, 3)
        let body = Array("<rsp stat=\"ok\"><a>".utf8) + big + Array("</a><b></rsp>".utf8)
        #expect(throws: FlickrError.self) { try Self.mapped(body) }
    }
}
