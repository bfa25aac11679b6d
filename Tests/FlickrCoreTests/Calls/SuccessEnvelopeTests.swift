// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// flickr_call_discard's success test: only answers that open as a Flickr success are taken as one;
/// everything else goes to the full mapping (and is judged there), so a false "no" costs time, a
/// false "yes" would hide a failure.
@Suite struct SuccessEnvelopeTests {
    static func matches(_ text: String) -> Bool { SuccessEnvelope.matches(Array(text.utf8)) }

    @Test(arguments: [
        "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n<user id=\"1\"/>\n</rsp>\n",
        "<rsp stat=\"ok\"/>",
        "<rsp stat='ok'></rsp>",
        "\u{FEFF}<?xml version='1.0'?><rsp stat=\"ok\">",
        "  \r\n\t<rsp\n  stat = \"ok\" >",
        "<rsp xmlns:x=\"urn:x\" x:a=\"?>\" stat=\"ok\">",
        "<rsp stat=\"ok\">not well-formed after the envelope <<<",  // not read, by design
    ])
    func recognised(text: String) {
        #expect(Self.matches(text))
    }

    @Test(arguments: [
        "",
        "<rsp",
        "<rsp stat=\"fail\"><err code=\"112\" msg=\"Method not found\"/></rsp>",
        "<rsp stat=\"okay\">",
        "<rsp stat=\"OK\">",
        "<rsp stat=ok>",
        "<rsp stat=\"ok>",
        "<rsp>",
        "<rsp/>",
        "<rsp foo=\"bar\">stat=\"ok\"</rsp>",
        "<rspx stat=\"ok\">",
        "<rsp status=\"ok\">",
        "<rsp a=\"1\"stat=\"ok\">",
        "<other stat=\"ok\"/>",
        "<!DOCTYPE rsp [<!ENTITY e \"x\">]><rsp stat=\"ok\">",
        "<!-- comment --><rsp stat=\"ok\">",
        "<?xml version=\"1.0\"<rsp stat=\"ok\">",
        "<html><body>502 Bad Gateway</body></html>",
        "oauth_problem=signature_invalid",
        "{\"stat\":\"ok\"}",
    ])
    func notRecognised(text: String) {
        #expect(!Self.matches(text))
    }

    @Test func utf16IsLeftToTheMapper() {
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in "<rsp stat=\"ok\"/>".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        #expect(!SuccessEnvelope.matches(bytes))
    }
}
