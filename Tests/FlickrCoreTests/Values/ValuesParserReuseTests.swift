// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Values/ExpatParsers.swift: parsers go back to a pool and are reset; nothing of one document
/// (its failure, its stop, its handlers' refusals) may reach the next.
@Suite struct ValuesParserReuseTests {
    @Test func everyOutcomeLeavesAParserFitForTheNextDocument() throws {
        for _ in 0..<3 * ExpatParsers.maxIdle {
            #expect(ValuesTestSupport.failure("<rsp stat=\"ok\"><unclosed></rsp>") != nil)
            #expect(ValuesTestSupport.failure("<!DOCTYPE rsp><rsp stat=\"ok\"/>")
                == FlickrError(.parse, "DTDs are not accepted"))
            #expect(ValuesTestSupport.failure("<a><b><c/></b></a>", maxDepth: 2) != nil)  // stopped from a handler
            _ = XMLMapper()  // abandoned before any input
            let mapper = XMLMapper()
            try ValuesTestSupport.feed(mapper, Array("<rsp stat=\"ok\"><photo id=\"1\"/>".utf8))  // abandoned mid-way
            #expect(try ValuesTestSupport.json("<rsp stat=\"ok\"><photo id=\"7\"/></rsp>")
                == #"{"stat":"ok","photo":{"id":"7"}}"#)
        }
    }
}
