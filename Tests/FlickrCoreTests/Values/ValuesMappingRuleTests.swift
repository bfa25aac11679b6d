// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The mapping rules of docs/architecture.md, "Response mapping (contract)", one at a time.
@Suite struct ValuesMappingRuleTests {
    private func json(_ xml: String) throws -> String { try ValuesTestSupport.json(xml) }

    @Test func attributesInDocumentOrder() throws {
        #expect(try json(#"<rsp stat="ok" z="1" a="2" m="3"/>"#) == #"{"stat":"ok","z":"1","a":"2","m":"3"}"#)
        let tree = try ValuesTestSupport.tree(#"<rsp stat="ok"/>"#)
        #expect(tree.rootName == "rsp")
        #expect(tree.nodeCount == 2)
    }

    /// Many distinct attribute names, in changing orders and sets, more than the mapper's
    /// name cache has slots: every key is the attribute's own (the cache is checked byte for byte).
    @Test func manyAttributeNamesKeepTheirKeys() throws {
        var xml = "<rsp>", expected: [String] = []
        for element in 0..<300 {
            let names = (0..<(element % 17 + 1)).map { "a\((element * 7 + $0 * 13) % 211)x" }
            let unique = names.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            xml += "<e " + unique.map { "\($0)=\"\($0)\"" }.joined(separator: " ") + "/>"
            expected.append("{" + unique.map { "\"\($0)\":\"\($0)\"" }.joined(separator: ",") + "}")
        }
        xml += "</rsp>"
        #expect(try json(xml) == #"{"e":["# + expected.joined(separator: ",") + "]}")
    }

    @Test func pluralRuleMakesArraysOfOne() throws {
        #expect(try json(#"<rsp><photos page="1"><photo id="1"/></photos></rsp>"#)
            == #"{"photos":{"page":"1","photo":[{"id":"1"}]}}"#)
        #expect(try json("<photosets><photoset/></photosets>") == #"{"photoset":[{}]}"#)
        #expect(try json("<tags><tag>a</tag></tags>") == #"{"tag":[{"_text":"a"}]}"#)
        #expect(try json("<urls><url>u</url></urls>") == #"{"url":[{"_text":"u"}]}"#)
        // "photosets" starts with "photo" and ends in "s".
        #expect(try json("<photosets><photo/></photosets>") == #"{"photo":[{}]}"#)
    }

    @Test func pluralRuleNegativeCases() throws {
        // "categories" does not start with "category"; "people" neither with "person".
        #expect(try json("<categories><category/></categories>") == #"{"category":{}}"#)
        #expect(try json("<people><person/></people>") == #"{"person":{}}"#)
        // Same length, no trailing "s", or not a prefix.
        #expect(try json("<photo><photo/></photo>") == #"{"photo":{}}"#)
        #expect(try json("<photox><photo/></photox>") == #"{"photo":{}}"#)
        #expect(try json("<tagz><tag/></tagz>") == #"{"tag":{}}"#)
        #expect(try json("<s><x/></s>") == #"{"x":{}}"#)
        // The second one still makes an array.
        #expect(try json("<people><person/><person a=\"2\"/></people>") == #"{"person":[{},{"a":"2"}]}"#)
    }

    /// The real parent counts, not the last started element (ObjectiveFlickr's bug).
    @Test func pluralRuleUsesTheRealParent() throws {
        // After <usernames/> closes, <username>'s parent is <user>: no array.
        #expect(try json("<user><usernames/><username>x</username></user>")
            == #"{"usernames":{},"username":{"_text":"x"}}"#)
        // Inside <photos>, after a <photo> with a child, the next <photo> still belongs to <photos>.
        #expect(try json("<photos><photo><title/></photo></photos>") == #"{"photo":[{"title":{}}]}"#)
    }

    @Test func repeatedElementsBecomeArraysInPlace() throws {
        #expect(try json("<a><x i=\"1\"/><y/><x i=\"2\"/><z/><x i=\"3\"/></a>")
            == #"{"x":[{"i":"1"},{"i":"2"},{"i":"3"}],"y":{},"z":{}}"#)
        // Arrays of different names interleaved.
        #expect(try json("<a><x>1</x><y>a</y><x>2</x><y>b</y></a>")
            == #"{"x":[{"_text":"1"},{"_text":"2"}],"y":[{"_text":"a"},{"_text":"b"}]}"#)
        // Nested arrays keep their own items.
        #expect(try json("<r><g><i>1</i><i>2</i></g><g><i>3</i></g></r>")
            == #"{"g":[{"i":[{"_text":"1"},{"_text":"2"}]},{"i":{"_text":"3"}}]}"#)
    }

    @Test func whitespace() throws {
        // Dropped beside child elements.
        #expect(try json("<rsp stat=\"ok\">\n\t<a/>\n  <b> </b>\r\n</rsp>") == #"{"stat":"ok","a":{},"b":{"_text":" "}}"#)
        // Kept verbatim without child elements.
        #expect(try json("<a>  x  </a>") == #"{"_text":"  x  "}"#)
        #expect(try json("<a>\n\t</a>") == #"{"_text":"\n\t"}"#)
        // Mixed content keeps every piece, whitespace included.
        #expect(try json("<a> one <b/> two </a>") == #"{"_text":" one  two ","b":{}}"#)
        #expect(try json("<a>\n<b/>two</a>") == #"{"_text":"\ntwo","b":{}}"#)
    }

    @Test func textTakesThePositionOfItsFirstPiece() throws {
        #expect(try json("<a k=\"v\"><b/>tail<c/></a>") == #"{"k":"v","b":{},"_text":"tail","c":{}}"#)
    }

    @Test func cdataIsText() throws {
        #expect(try json("<a><![CDATA[<b>&amp;</b>]]></a>") == #"{"_text":"<b>&amp;</b>"}"#)
        #expect(try json("<a>x<![CDATA[ y ]]>z</a>") == #"{"_text":"x y z"}"#)
        #expect(try json("<a><![CDATA[]]></a>") == #"{}"#)
        // Whitespace-only CDATA beside a child is whitespace like any other text.
        #expect(try json("<a><![CDATA[ ]]><b/></a>") == #"{"b":{}}"#)
    }

    @Test func entities() throws {
        #expect(try json("<a>&amp;&lt;&gt;&quot;&apos;</a>") == #"{"_text":"&<>\"'"}"#)
        #expect(try json("<a>caf&#233; &#xE9; &#x1F600;</a>") == #"{"_text":"café é 😀"}"#)
        #expect(try json(#"<a t="x &amp; y &#233; &#x1F600; &lt;"/>"#) == #"{"t":"x & y é 😀 <"}"#)
        // Character references for whitespace survive attribute normalisation.
        #expect(try json(#"<a t="1&#10;2&#9;3&#13;"/>"#) == #"{"t":"1\n2\t3\r"}"#)
        #expect(try json("<a t=\"1\n2\"/>") == #"{"t":"1 2"}"#)
    }

    @Test func attributeAndChildCollision() throws {
        // The child wins the key; the attribute stays, renamed, at its position.
        #expect(try json(#"<photo id="1" title="attr"><title>child</title></photo>"#)
            == #"{"id":"1","@title":"attr","title":{"_text":"child"}}"#)
        let tree = try ValuesTestSupport.tree(#"<photo title="attr"><title>child</title><title>2</title></photo>"#)
        withExtendedLifetime(tree) {
            #expect(tree.root.member("@title")?.string == "attr")
            #expect(tree.root.member("title")?.kind == .array)
            #expect(tree.root.lookup(path: "title.1")?.string == "2")
        }
        // Plural rule after a collision.
        #expect(try json(#"<tags tag="a"><tag/></tags>"#) == #"{"@tag":"a","tag":[{}]}"#)
    }

    @Test func textAndUnderscoreTextCollisions() throws {
        // A child named _text, then text: the text goes to @_text.
        #expect(try json("<a><_text>c</_text>hello</a>") == #"{"_text":{"_text":"c"},"@_text":"hello"}"#)
        // Text first, then a child named _text: the child wins, the text is @_text at its place.
        #expect(try json("<a>hello<_text/></a>") == #"{"@_text":"hello","_text":{}}"#)
        // An attribute named _text gives way to the text.
        #expect(try json(#"<a _text="attr">hello</a>"#) == #"{"@_text":"attr","_text":"hello"}"#)
        // All three: attribute, text and child.
        #expect(try json(#"<a _text="attr">hello<_text/></a>"#) == #"{"@_text":"attr","@@_text":"hello","_text":{}}"#)
        // Whitespace-only text beside a child is dropped and renames nothing.
        #expect(try json(#"<a _text="attr"> <b/> </a>"#) == #"{"_text":"attr","b":{}}"#)
    }

    @Test func emptyElements() throws {
        #expect(try json("<rsp/>") == "{}")
        #expect(try json("<rsp></rsp>") == "{}")
        #expect(try json("<rsp><a/><b></b></rsp>") == #"{"a":{},"b":{}}"#)
        #expect(try json(#"<rsp><a x=""/></rsp>"#) == #"{"a":{"x":""}}"#)
        #expect(try json("<rsp><photoid>123</photoid></rsp>") == #"{"photoid":{"_text":"123"}}"#)
    }

    @Test func mixedContent() throws {
        #expect(try json("<p>Hello <b>bold</b> and <i>it</i>!</p>")
            == #"{"_text":"Hello  and !","b":{"_text":"bold"},"i":{"_text":"it"}}"#)
    }

    @Test func commentsAndProcessingInstructionsAreIgnored() throws {
        #expect(try json("<?xml version=\"1.0\"?><!-- c --><a><!-- x -->t<?pi data?>u</a><!-- end -->")
            == #"{"_text":"tu"}"#)
    }

    @Test func namespacedNamesStayAsWritten() throws {
        #expect(try json(#"<rdf:RDF xmlns:rdf="urn:r"><dc:title>T</dc:title></rdf:RDF>"#)
            == #"{"xmlns:rdf":"urn:r","dc:title":{"_text":"T"}}"#)
        #expect(try ValuesTestSupport.tree(#"<rdf:RDF xmlns:rdf="urn:r"/>"#).rootName == "rdf:RDF")
    }

    @Test func utf8() throws {
        #expect(try json("<a t=\"東京\">猫の写真 🐈‍⬛</a>") == #"{"t":"東京","_text":"猫の写真 🐈‍⬛"}"#)
        #expect(try json("<写真 名前=\"値\"/>") == #"{"名前":"値"}"#)
        // Other encodings are converted to UTF-8.
        let latin1: [UInt8] = Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>caf".utf8) + [0xE9] + Array("</a>".utf8)
        let tree = try ValuesTestSupport.parse(latin1)
        #expect(withExtendedLifetime(tree) { tree.root.json() } == #"{"_text":"café"}"#)
    }

    @Test func deepButAllowedNesting() throws {
        let depth = 256
        let xml = String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)
        let expected = String(repeating: #"{"a":"#, count: depth - 1) + #"{"_text":"x"}"# + String(repeating: "}", count: depth - 1)
        #expect(try json(xml) == expected)
    }
}

/// Elements with many entries take the indexed path; results must not change.
@Suite struct ValuesLargeElementTests {
    @Test func manyDistinctChildrenAndCollisions() throws {
        var xml = "<r"
        for i in 0..<50 { xml += " a\(i)=\"v\(i)\"" }
        xml += ">"
        var expected = "{"
        for i in 0..<50 where i % 7 != 0 { expected += "\"a\(i)\":\"v\(i)\"," }
        var attributes: [Int: String] = [:]
        for i in 0..<50 { attributes[i] = "\"a\(i)\":\"v\(i)\"" }
        // Children a0, a7, ... collide with attributes; c0..c99 are new; then repeats.
        xml += "text"
        for i in stride(from: 0, to: 50, by: 7) { xml += "<a\(i)/>" }
        for i in 0..<100 { xml += "<c\(i)>\(i)</c\(i)>" }
        xml += "<c5>again</c5><_text/></r>"
        // Expected: attributes in order (colliding ones renamed in place), text at its slot (after the
        // attributes, renamed @_text because of the child _text), then the children.
        expected = "{"
        for i in 0..<50 { expected += (i % 7 == 0 ? "\"@a\(i)\":\"v\(i)\"," : attributes[i]! + ",") }
        expected += #""@_text":"text","#
        for i in stride(from: 0, to: 50, by: 7) { expected += "\"a\(i)\":{}," }
        for i in 0..<100 {
            expected += i == 5 ? #""c5":[{"_text":"5"},{"_text":"again"}],"# : "\"c\(i)\":{\"_text\":\"\(i)\"},"
        }
        expected += #""_text":{}}"#
        #expect(try ValuesTestSupport.json(xml) == expected)
    }

    @Test func thousandsOfDistinctChildrenStayFast() throws {
        let count = 20_000
        var xml = "<r>"
        for i in 0..<count { xml += "<e\(i)/>" }
        xml += "</r>"
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            try ValuesTestSupport.withRoot(xml) { root in
                #expect(root.count == count)
                #expect(root.lookup(path: "e19999")?.kind == .object)
            }
        }
        // Quadratic search would take minutes here; generous bound for slow CI.
        #expect(elapsed < .seconds(20))
    }
}
