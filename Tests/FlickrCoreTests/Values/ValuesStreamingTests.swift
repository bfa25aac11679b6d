// SPDX-License-Identifier: MIT

import Foundation
import Testing

@testable import FlickrCore

/// The mapper is fed as the body arrives: any split must give the same tree.
@Suite struct ValuesStreamingTests {
    private let document = """
        <?xml version="1.0" encoding="utf-8" ?>
        <rsp stat="ok">
        \t<photos page="1" total="2">
        \t\t<photo id="1" title="東京の猫 🐈" owner="x&amp;y"><![CDATA[a <b> c]]>&#x1F600;tail</photo>
        \t\t<photo id="2" title="é"><title>t&lt;</title>mixed</photo>
        \t</photos>
        \t<user nsid="1@N00"><username>béés</username></user>
        </rsp>

        """

    @Test func everyChunkSizeGivesTheSameTree() throws {
        let bytes = Array(document.utf8)
        let whole = try ValuesTestSupport.json(bytes: bytes, chunkSize: bytes.count)
        #expect(whole == #"{"stat":"ok","photos":{"page":"1","total":"2","photo":[{"id":"1","title":"東京の猫 🐈","owner":"x&y","_text":"a <b> c😀tail"},{"id":"2","@title":"é","title":{"_text":"t<"},"_text":"mixed"}]},"user":{"nsid":"1@N00","username":{"_text":"béés"}}}"#)
        for size in 1...bytes.count {
            #expect(try ValuesTestSupport.json(bytes: bytes, chunkSize: size) == whole, "chunk size \(size)")
        }
    }

    /// Splits at every offset (two chunks), so every position inside a tag,
    /// an entity, a CDATA marker and every UTF-8 sequence is a boundary once.
    @Test func everySplitPointGivesTheSameTree() throws {
        let bytes = Array(document.utf8)
        let whole = try ValuesTestSupport.json(bytes: bytes, chunkSize: bytes.count)
        for split in 1..<bytes.count {
            let mapper = XMLMapper()
            try ValuesTestSupport.feed(mapper, bytes, 0..<split)
            try ValuesTestSupport.feed(mapper, bytes, split..<bytes.count)
            let tree = try mapper.finish()
            #expect(withExtendedLifetime(tree) { tree.root.json() } == whole, "split at \(split)")
        }
    }

    @Test func fixturesInSmallChunks() throws {
        for name in ["flickr.photos.getInfo.xml", "alt/flickr.photos.search.python-flickrapi-kitten.xml"] {
            let bytes = [UInt8](try ValuesTestSupport.fixture(name))
            let expected = try String(contentsOf: ValuesTestSupport.fixturesDirectory
                .appendingPathComponent(String(name.dropLast(4)) + ".json"), encoding: .utf8)
            for size in [1, 2, 3, 7, 64, 1000] {
                #expect(try ValuesTestSupport.json(bytes: bytes, chunkSize: size) == expected, "\(name) in chunks of \(size)")
            }
        }
    }

    @Test func emptyChunksAreHarmless() throws {
        let mapper = XMLMapper()
        try mapper.feed(UnsafeRawBufferPointer(start: nil, count: 0))
        try ValuesTestSupport.feed(mapper, Array("<a>".utf8))
        try ValuesTestSupport.feed(mapper, [UInt8]())
        try ValuesTestSupport.feed(mapper, Array("x</a>".utf8))
        let tree = try mapper.finish()
        #expect(withExtendedLifetime(tree) { tree.root.json() } == #"{"_text":"x"}"#)
    }

    @Test func errorLineAndColumnDoNotDependOnChunking() throws {
        let bytes = Array("<rsp>\n<a>\n</b>\n</rsp>".utf8)
        for size in 1...bytes.count {
            let mapper = XMLMapper()
            var caught: FlickrError?
            do {
                var offset = 0
                while offset < bytes.count {
                    let end = min(offset + size, bytes.count)
                    try ValuesTestSupport.feed(mapper, bytes, offset..<end)
                    offset = end
                }
                _ = try mapper.finish()
            } catch {
                caught = error
            }
            #expect(caught == FlickrError(.parse, "malformed XML at line 3, column 3: mismatched tag"), "chunk size \(size)")
        }
    }
}
