// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Bad input never traps: it gives FLICKR_EPARSE with a useful message.
@Suite struct ValuesErrorTests {
    private func failure(_ xml: String, maxDepth: Int = 256) -> FlickrError? {
        ValuesTestSupport.failure(xml, maxDepth: maxDepth)
    }

    @Test func malformedXMLReportsLineAndColumn() {
        #expect(failure("<rsp>\n  <a></b>\n</rsp>")
            == FlickrError(.parse, "malformed XML at line 2, column 8: mismatched tag"))
        #expect(failure("<rsp stat=ok/>")
            == FlickrError(.parse, "malformed XML at line 1, column 11: not well-formed (invalid token)"))
        #expect(failure("<a>&nbsp;</a>")
            == FlickrError(.parse, "malformed XML at line 1, column 4: undefined entity"))
        #expect(failure("<a/><b/>")
            == FlickrError(.parse, "malformed XML at line 1, column 5: junk after document element"))
        #expect(failure("<a>\u{1}</a>")?.code == .parse)
        #expect(failure("<a>&#0;</a>")?.code == .parse)
    }

    @Test func truncatedDocument() {
        #expect(failure("<rsp stat=\"ok\"><photos><photo id=\"1\"/>")
            == FlickrError(.parse, "malformed XML at line 1, column 39: no element found"))
        #expect(failure("<rsp stat=\"o")?.code == .parse)
        #expect(failure("<?xml version=\"1.0\"?>")?.message.hasPrefix("malformed XML at line 1, column") == true)
    }

    @Test func emptyAndNonXML() {
        #expect(failure("") == FlickrError(.parse, "empty response"))
        #expect(failure("   \n")?.message == "malformed XML at line 2, column 1: no element found")
        #expect(failure("Service Unavailable")
            == FlickrError(.parse, "malformed XML at line 1, column 1: syntax error"))
        #expect(failure(#"{"stat":"ok"}"#)?.message == "malformed XML at line 1, column 1: not well-formed (invalid token)")
        // An HTML error page: tags that are not closed.
        let html = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"
        #expect(failure(html) == FlickrError(.parse, "malformed XML at line 6, column 3: mismatched tag"))
        #expect(failure("<!DOCTYPE html><html><body>Oops</body></html>") == FlickrError(.parse, "DTDs are not accepted"))
        // Binary garbage.
        #expect(ValuesTestSupport.failure(bytes: [0xFF, 0x00, 0x12, 0x80, 0x3C])?.code == .parse)
    }

    @Test func dtdsAreRefused() {
        #expect(failure(#"<?xml version="1.0"?><!DOCTYPE rsp><rsp stat="ok"/>"#) == FlickrError(.parse, "DTDs are not accepted"))
        #expect(failure(#"<!DOCTYPE rsp [<!ELEMENT rsp ANY>]><rsp/>"#) == FlickrError(.parse, "DTDs are not accepted"))
        #expect(failure(#"<!DOCTYPE rsp SYSTEM "http://127.0.0.1:1/x.dtd"><rsp/>"#) == FlickrError(.parse, "DTDs are not accepted"))
    }

    @Test func billionLaughsIsRefused() {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n"
        xml += " <!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">\n"
        for i in 2...9 {
            xml += " <!ENTITY lol\(i) \"" + String(repeating: "&lol\(i - 1);", count: 10) + "\">\n"
        }
        xml += "]>\n<lolz>&lol9;</lolz>"
        #expect(failure(xml) == FlickrError(.parse, "DTDs are not accepted"))
    }

    @Test func externalEntitiesAreRefusedAndNeverRead() {
        let xml = "<?xml version=\"1.0\"?><!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>"
        let error = failure(xml)
        #expect(error == FlickrError(.parse, "DTDs are not accepted"))
        #expect(error?.message.contains("root:") == false)
        let parameter = "<!DOCTYPE x [<!ENTITY % p SYSTEM \"file:///etc/passwd\"> %p;]><x/>"
        #expect(failure(parameter) == FlickrError(.parse, "DTDs are not accepted"))
    }

    @Test func depthLimit() {
        let nested = { (depth: Int) in String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) }
        #expect(failure(nested(256)) == nil)
        #expect(failure(nested(257)) == FlickrError(.parse, "XML nested deeper than 256 elements at line 1, column 769"))
        #expect(failure(nested(4), maxDepth: 3)?.message.hasPrefix("XML nested deeper than 3 elements") == true)
        #expect(failure(nested(3), maxDepth: 3) == nil)
        // Far beyond the limit, still no trap.
        #expect(failure(String(repeating: "<a>", count: 100_000))?.code == .parse)
    }

    @Test func errorsAreSticky() throws {
        let mapper = XMLMapper()
        // Longer than a first chunk the mapper holds for a one-call parse: parsed at once.
        let bad = Array(("<a></b>" + String(repeating: " ", count: XMLMapper.wholeBodyLimit)).utf8)
        #expect(throws: FlickrError.self) {
            try ValuesTestSupport.feed(mapper, bad)
        }
        let good = Array("<a/>".utf8)
        #expect(throws: FlickrError(.parse, "malformed XML at line 1, column 6: mismatched tag")) {
            try ValuesTestSupport.feed(mapper, good)
        }
        #expect(throws: FlickrError(.parse, "malformed XML at line 1, column 6: mismatched tag")) { try mapper.finish() }
    }

    /// A small first chunk waits for the next one or the end (one final call to expat is cheaper):
    /// its error comes from whichever follows.
    @Test func aSmallFirstChunkFailsAtTheEndOrTheNextChunk() throws {
        let alone = XMLMapper()
        try ValuesTestSupport.feed(alone, Array("<a></b>".utf8))
        #expect(throws: FlickrError(.parse, "malformed XML at line 1, column 6: mismatched tag")) { try alone.finish() }
        let followed = XMLMapper()
        try ValuesTestSupport.feed(followed, Array("<a></b>".utf8))
        #expect(throws: FlickrError(.parse, "malformed XML at line 1, column 6: mismatched tag")) {
            try ValuesTestSupport.feed(followed, Array(String(repeating: " ", count: 20_000).utf8))
        }
    }

    @Test func finishTwiceIsAStateError() throws {
        let mapper = XMLMapper()
        try ValuesTestSupport.feed(mapper, Array("<a/>".utf8))
        _ = try mapper.finish()
        #expect(throws: FlickrError(.state, "the XML mapper has already finished")) { try mapper.finish() }
    }
}
