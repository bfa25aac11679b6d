// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Navigation of a mapped tree: key paths, bounds, strings, JSON.
@Suite struct ValuesAccessTests {
    private let sample = """
        <rsp stat="ok">
          <photos page="2" pages="10">
            <photo id="10" title="first"/>
            <photo id="11" title="second"><title>T</title></photo>
          </photos>
          <user nsid="1@N00"><username>bees</username></user>
          <empty/>
        </rsp>
        """

    @Test func keyPaths() throws {
        try ValuesTestSupport.withRoot(sample) { root in
            #expect(root.lookup(path: "photos.photo.1.id")?.string == "11")
            #expect(root.lookup(path: "photos.photo.0.title")?.string == "first")
            #expect(root.lookup(path: "photos.page")?.string == "2")
            #expect(root.lookup(path: "user.username")?.string == "bees")
            #expect(root.lookup(path: "user.username._text")?.string == "bees")
            #expect(root.lookup(path: "photos.photo.1.@title")?.string == "second")
            #expect(root.lookup(path: "photos.photo.1.title._text")?.string == "T")
            #expect(root.lookup(path: "photos.photo.01.id")?.string == "11")
            // The empty path is the node itself.
            #expect(root.lookup(path: "") == root)
            #expect(root.lookup(path: "photos.photo")?.lookup(path: "") == root.lookup(path: "photos.photo"))
        }
    }

    @Test func keyPathsThatSelectNothing() throws {
        try ValuesTestSupport.withRoot(sample) { root in
            #expect(root.lookup(path: "photos.photo.2") == nil)           // out of range
            #expect(root.lookup(path: "photos.photo.99999999999999999999999") == nil)
            #expect(root.lookup(path: "photos.photo.-1") == nil)          // negative
            #expect(root.lookup(path: "photos.photo.+1") == nil)
            #expect(root.lookup(path: "photos.photo.x") == nil)           // not a number
            #expect(root.lookup(path: "photos.photo.1a") == nil)
            #expect(root.lookup(path: "photos.photo. 1") == nil)
            #expect(root.lookup(path: "photos.photo.id") == nil)          // key on an array
            #expect(root.lookup(path: "photos.page.x") == nil)            // through a string
            #expect(root.lookup(path: "photos.page.0") == nil)
            #expect(root.lookup(path: "photos..page") == nil)             // empty segments
            #expect(root.lookup(path: ".photos") == nil)
            #expect(root.lookup(path: "photos.") == nil)
            #expect(root.lookup(path: ".") == nil)
            #expect(root.lookup(path: "nope") == nil)
            #expect(root.lookup(path: "0") == nil)                        // index on an object
            #expect(root.lookup(path: "stat\0x") == nil)
            #expect(root.member("stat\0x") == nil)
            #expect(root.member("") == nil)
            #expect(root.member("sta") == nil)
            #expect(root.member("statu") == nil)
        }
    }

    @Test func bounds() throws {
        try ValuesTestSupport.withRoot(sample) { root in
            #expect(root.kind == .object)
            #expect(root.count == 4)
            #expect(String(cString: try #require(root.key(at: 0))) == "stat")
            #expect(String(cString: try #require(root.key(at: 3))) == "empty")
            #expect(root.key(at: 4) == nil)
            #expect(root.key(at: -1) == nil)
            #expect(root.element(at: 4) == nil)
            #expect(root.element(at: -1) == nil)
            #expect(root.element(at: Int.max) == nil)
            #expect(root.element(at: 0)?.string == "ok")
            let photos = try #require(root.lookup(path: "photos.photo"))
            #expect(photos.kind == .array)
            #expect(photos.count == 2)
            #expect(photos.key(at: 0) == nil)             // arrays have no keys
            #expect(photos.element(at: 1)?.member("id")?.string == "11")
            #expect(photos.element(at: 2) == nil)
            #expect(photos.member("id") == nil)
            let stat = try #require(root.member("stat"))
            #expect(stat.kind == .string)
            #expect(stat.count == 0)
            #expect(stat.element(at: 0) == nil)
            #expect(stat.key(at: 0) == nil)
            #expect(stat.member("x") == nil)
            let empty = try #require(root.member("empty"))
            #expect(empty.kind == .object)
            #expect(empty.count == 0)
            #expect(empty.element(at: 0) == nil)
            #expect(empty.key(at: 0) == nil)
            #expect(empty.json() == "{}")
        }
    }

    @Test func cStrings() throws {
        try ValuesTestSupport.withRoot(#"<r a="x"><t k="1">text</t><n k="1"/><m><_text/></m></r>"#) { root in
            let text = try #require(root.member("t"))
            #expect(text.kind == .object)
            #expect(String(cString: try #require(text.cString)) == "text")
            #expect(text.string == "text")
            #expect(root.member("n")?.cString == nil)      // object without _text
            #expect(root.member("m")?.cString == nil)      // its _text is an object
            #expect(root.cString == nil)
            #expect(root.member("a")?.string == "x")
            // The pointer is the same each time: storage does not move.
            #expect(text.cString == text.member("_text")?.cString)
        }
        try ValuesTestSupport.withRoot("<r><x>1</x><x>2</x></r>") { root in
            #expect(root.member("x")?.cString == nil)      // arrays have no text
        }
    }

    @Test func jsonOfSubtrees() throws {
        try ValuesTestSupport.withRoot(sample) { root in
            #expect(root.lookup(path: "photos.photo.0")?.json() == #"{"id":"10","title":"first"}"#)
            #expect(root.lookup(path: "photos.page")?.json() == #""2""#)
            #expect(root.lookup(path: "user")?.json() == #"{"nsid":"1@N00","username":{"_text":"bees"}}"#)
        }
    }

    @Test func jsonEscapesEveryControlCharacter() {
        for byte in UInt8(0)..<0x20 {
            let expected: String
            switch byte {
            case 0x08: expected = #""\b""#
            case 0x09: expected = #""\t""#
            case 0x0A: expected = #""\n""#
            case 0x0C: expected = #""\f""#
            case 0x0D: expected = #""\r""#
            default:
                let hex = String(byte, radix: 16)
                expected = "\"\\u00" + (hex.count == 1 ? "0" + hex : hex) + "\""
            }
            #expect(JSONWriter.quoted([byte]) == expected, "byte \(byte)")
        }
        #expect(JSONWriter.quoted(Array("a\"b\\c/d".utf8)) == #""a\"b\\c/d""#)
        #expect(JSONWriter.quoted([0x1F, 0x20, 0x7F]) == "\"\\u001f \u{7F}\"")
        #expect(JSONWriter.quoted(Array("x\u{2028}y\u{2029}z\u{2027}".utf8)) == "\"x\\u2028y\\u2029z\u{2027}\"")
        #expect(JSONWriter.quoted(Array("é猫😀".utf8)) == "\"é猫😀\"")
        #expect(JSONWriter.quoted([0xE2]) == "\"\u{FFFD}\"")                // truncated sequence: no overread
        #expect(JSONWriter.quoted([]) == #""""#)
    }

    /// The writer checks UTF-8 itself (it no longer goes through a String): what it writes for any
    /// bytes must be what Swift's decoder makes of them, U+FFFD for each maximal ill-formed subpart,
    /// escapes aside. Form answers (OAuth steps) can hold any byte through percent-encoding.
    @Test func jsonRepairsUTF8AsSwiftDoes() {
        func expected(_ bytes: [UInt8]) -> String {
            var out = "\""
            for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
                switch scalar.value {
                case 0x22: out += "\\\""
                case 0x5C: out += "\\\\"
                case 0x08: out += "\\b"
                case 0x09: out += "\\t"
                case 0x0A: out += "\\n"
                case 0x0C: out += "\\f"
                case 0x0D: out += "\\r"
                case 0x2028: out += "\\u2028"
                case 0x2029: out += "\\u2029"
                case 0..<0x20:
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u00" + (hex.count == 1 ? "0" + hex : hex)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        // Edge sequences by hand: overlong, surrogate, above U+10FFFF, truncated at each length.
        let cases: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x90, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF5, 0x80], [0xFF], [0x80], [0xE2, 0x80], [0xE2, 0x80, 0xA8, 0xE2], [0x61, 0xF1, 0x80, 0x80, 0x61],
        ]
        for bytes in cases { #expect(JSONWriter.quoted(bytes) == expected(bytes), "\(bytes)") }
        // And 20,000 pseudo-random strings.
        for bytes in SplitMix64.repairStrings() {
            let written = JSONWriter.quoted(bytes)
            #expect(written == expected(bytes), "\(bytes)")
            if written != expected(bytes) { break }
        }
    }

    @Test func jsonEscapesMappedText() throws {
        #expect(try ValuesTestSupport.json("<a q='say \"hi\"' b=\"back\\slash\">t&#9;a&#10;b&#13;c\u{2028}</a>")
            == #"{"q":"say \"hi\"","b":"back\\slash","_text":"t\ta\nb\rc\u2028"}"#)
    }

    @Test func treeOutlivesItsMapper() throws {
        let tree: ValueTree
        do {
            let mapper = XMLMapper()
            try ValuesTestSupport.feed(mapper, Array(#"<rsp stat="ok"><a>x</a></rsp>"#.utf8))
            tree = try mapper.finish()
        }
        withExtendedLifetime(tree) {
            #expect(tree.root.json() == #"{"stat":"ok","a":{"_text":"x"}}"#)
            #expect(tree.nodeCount == 4)
        }
    }
}

extension SplitMix64 {
    /// The 20,000 byte strings of the UTF-8 repair tests (fixed seed: the same every run), weighted
    /// towards the bytes that matter. The Python binding's handovercheck.py draws the same ones.
    static func repairStrings() -> [[UInt8]] {
        var generator = SplitMix64(seed: 0x1F1C_4B12)
        let interesting: [UInt8] = [0x00, 0x0A, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA8, 0xA9, 0xBF,
                                    0xC0, 0xC2, 0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        return (0..<20_000).map { _ in
            let count = Int.random(in: 0...8, using: &generator)
            return (0..<count).map { _ in
                Bool.random(using: &generator) ? interesting.randomElement(using: &generator)!
                    : UInt8.random(in: 0...255, using: &generator)
            }
        }
    }
}

/// A seeded generator (SplitMix64), so that a randomized test checks the same inputs on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
