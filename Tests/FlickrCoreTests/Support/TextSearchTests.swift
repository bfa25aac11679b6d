// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Support/TextSearch.swift: what stands in for _StringProcessing's String-in-String search.
@Suite struct TextSearchTests {
    @Test func findsTheFirstOccurrence() {
        let text = "http://a/b://c"
        let found = text.firstRange(ofText: "://")
        #expect(found.map { String(text[..<$0.lowerBound]) } == "http")
        #expect(found.map { String(text[$0.upperBound...]) } == "a/b://c")
    }

    @Test func restartsAfterAPartialMatch() {
        #expect("aaab".firstRange(ofText: "aab").map { "aaab".distance(from: "aaab".startIndex, to: $0.lowerBound) } == 1)
        #expect("abcabd".containsText("abd"))
        #expect(!"abcab".containsText("abd"))
    }

    @Test func edgeCases() {
        #expect("".firstRange(ofText: "x") == nil)
        #expect("ab".firstRange(ofText: "abc") == nil)
        #expect("abc".firstRange(ofText: "") == "abc".startIndex..<"abc".startIndex)
        #expect("Île ☕️ x".containsText("☕️"))
        #expect("sub"[...].containsText("ub"))
    }

    @Test func replacesEveryOccurrenceWithoutOverlap() {
        #expect("a &amp;amp; b &lt;".replacingText("&amp;", with: "&") == "a &amp; b &lt;")
        #expect("aaaa".replacingText("aa", with: "b") == "bb")
        #expect("none".replacingText("x", with: "y") == "none")
        #expect("x".replacingText("", with: "y") == "x")
    }

    @Test func asciiCaseLeavesOtherScalarsAlone() {
        #expect("Get ß é ſ".asciiUppercased() == "GET ß é ſ")
        #expect("HTML \u{212A}".asciiLowercased() == "html \u{212A}")
    }

    @Test func whiteSpaceIsUnicodesWhiteSpaceProperty() {
        var spaces = 0
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let character = Character(scalar)
            #expect(character.isWhiteSpace == character.isWhitespace, "U+\(String(value, radix: 16))")
            if character.isWhiteSpace { spaces += 1 }
        }
        #expect(spaces == 25)
        #expect(Character("\r\n").isWhiteSpace && !Character("e\u{301}").isWhiteSpace)
    }
}
