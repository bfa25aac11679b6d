// SPDX-License-Identifier: MIT

import Foundation
import Testing

@testable import FlickrCore

/// The marshal rendering (Python's handover): its exact bytes, its UTF-8 repair (the JSON writer's),
/// its shared keys, and that read back it is the JSON rendering of every fixture.
@Suite struct MarshalWriterTests {
    private static func marshal(_ node: UnsafePointer<ValueNode>) -> [UInt8] {
        guard let (bytes, count) = node.renderedMarshal() else { return [] }
        defer { free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: count))
    }

    private static func marshal(_ xml: String) throws -> [UInt8] {
        try ValuesTestSupport.withRoot(xml) { marshal($0) }
    }

    private static func le32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    @Test func writesTheFiveTypes() throws {
        let bytes = try Self.marshal(#"<rsp stat="ok"><p a="é"/><p a=""/><e/></rsp>"#)
        // {"stat":"ok","p":[{"a":"é"},{"a":""}],"e":{}}: keys flagged (0x80) at first sight, then
        // refs; ASCII strings `a` (0x61), others `u` (0x75).
        var expected: [UInt8] = [0x7B, 0xE1] + Self.le32(4) + Array("stat".utf8) + [0x61] + Self.le32(2) + Array("ok".utf8)
        expected += [0xE1] + Self.le32(1) + Array("p".utf8) + [0x5B] + Self.le32(2)
        expected += [0x7B, 0xE1] + Self.le32(1) + Array("a".utf8) + [0x75] + Self.le32(2) + [0xC3, 0xA9] + [0x30]
        expected += [0x7B, 0x72] + Self.le32(2) + [0x61] + Self.le32(0) + [0x30]
        expected += [0xE1] + Self.le32(1) + Array("e".utf8) + [0x7B, 0x30] + [0x30]
        #expect(bytes == expected)
    }

    /// Strings are repaired exactly as the JSON writer repairs them (and Swift's decoder), on the
    /// same edge sequences and the same 20,000 seeded strings as `jsonRepairsUTF8AsSwiftDoes`.
    @Test func repairsUTF8AsTheJSONWriterDoes() {
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            let text = Array(String(decoding: bytes, as: UTF8.self).utf8)
            return [text.allSatisfy { $0 < 0x80 } ? 0x61 : 0x75] + Self.le32(text.count) + text
        }
        let cases: [[UInt8]] = [
            [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xED, 0x9F, 0xBF],
            [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x90, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
            [0xF5, 0x80], [0xFF], [0x80], [0xE2, 0x80], [0xE2, 0x80, 0xA8, 0xE2], [0x61, 0xF1, 0x80, 0x80, 0x61], [],
        ]
        for bytes in cases { #expect(MarshalWriter.string(bytes) == expected(bytes), "\(bytes)") }
        let strings = SplitMix64.repairStrings()
        // The same strings as the Python side's (FNV-1a of each, then 0x100; handovercheck.py).
        var digest: UInt64 = 14_695_981_039_346_656_037
        for bytes in strings {
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 1_099_511_628_211 }
            digest = (digest ^ 0x100) &* 1_099_511_628_211
        }
        #expect(strings.count == 20_000 && digest == 13_340_629_270_255_106_031)
        var checked = 0
        for bytes in strings {
            let written = MarshalWriter.string(bytes)
            #expect(written == expected(bytes), "\(bytes)")
            if written != expected(bytes) { break }
            checked += 1
        }
        #expect(checked == 20_000)
        // A long string crosses the writer's 4 KiB slices with a sequence split across one.
        let long = [UInt8](repeating: 0x61, count: 4095) + [0xE2, 0x82, 0xAC] + [UInt8](repeating: 0xFF, count: 5000)
        #expect(MarshalWriter.string(long) == expected(long))
    }

    /// A server's text that is itself marshal data (a code object's start, a dict, a ref, FLAG_REF
    /// bytes, NULs XML cannot carry but a form answer could) is one length-prefixed string, whole.
    @Test func serverTextIsNeverReadAsTypeCodes() {
        let crafted: [[UInt8]] = [
            [0x63, 0, 0, 0, 0, 0, 0, 0, 0, 0x30], Array("{u\u{1}\0\0\0a0".utf8), [0x72, 0, 0, 0, 0],
            [0xE3, 0x5B, 0xFF, 0xFF, 0xFF, 0x7F], [0xF5, 0x04, 0, 0, 0, 0x73, 0x74, 0x61, 0x74], Array("0".utf8),
        ]
        for text in crafted {
            let written = MarshalWriter.string(text)
            #expect(MarshalReader.json(written) == JSONWriter.quoted(text), "\(text)")
        }
    }

    /// Past 256 distinct keys the table is full: later new keys go out in full, every time.
    @Test func keysPastTheTableAreWrittenInFull() throws {
        let names = (0..<300).map { "k\($0)" }
        let xml = "<rsp><a " + names.map { "\($0)=\"v\"" }.joined(separator: " ") + "/><a k0=\"w\" k299=\"w\"/></rsp>"
        let bytes = try Self.marshal(xml)
        let decoded = try #require(MarshalReader.json(bytes))
        #expect(decoded == (try ValuesTestSupport.json(xml)))
        let plainK299 = [0x61] + Self.le32(4) + Array("k299".utf8)
        #expect(bytes.windows(plainK299).count == 2)       // unflagged, so written twice
    }

    @Test(arguments: ValuesTestSupport.fixtureNames())
    func readsBackAsTheJSONOfEveryFixture(_ name: String) throws {
        let refused = ValuesTestSupport.fixturesDirectory.appendingPathComponent(String(name.dropLast(4)) + ".error.txt")
        guard !FileManager.default.fileExists(atPath: refused.path) else { return }  // the mapping refuses it
        let xml = try ValuesTestSupport.fixture(name)
        let tree = try ValuesTestSupport.parse(xml)
        let (bytes, json) = withExtendedLifetime(tree) { (Self.marshal(tree.root), tree.root.json()) }
        #expect(try #require(MarshalReader.json(bytes)) == json, "\(name)")
    }
}

extension Array where Element == UInt8 {
    /// The offsets where `needle` occurs.
    fileprivate func windows(_ needle: [UInt8]) -> [Int] {
        guard needle.count <= count else { return [] }
        return (0...(count - needle.count)).filter { Array(self[$0..<$0 + needle.count]) == needle }
    }
}

/// Reads the five types `MarshalWriter` writes back, as JSON (through `JSONWriter.quoted`), as
/// `marshal.loads` would; nil for anything else.
enum MarshalReader {
    static func json(_ bytes: [UInt8]) -> String? {
        var at = 0
        var refs: [String] = []
        func int32() -> Int? {
            guard at + 4 <= bytes.count else { return nil }
            defer { at += 4 }
            return (0..<4).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        func value() -> String? {
            guard at < bytes.count else { return nil }
            let code = bytes[at]
            at += 1
            switch code & 0x7F {
            case 0x75, 0x61:
                guard let n = int32(), at + n <= bytes.count else { return nil }
                let text = Array(bytes[at..<at + n])
                at += n
                guard String(validating: text, as: UTF8.self) != nil, code & 0x7F == 0x75 || text.allSatisfy({ $0 < 0x80 })
                else { return nil }
                let quoted = JSONWriter.quoted(text)
                if code & 0x80 != 0 { refs.append(quoted) }
                return quoted
            case 0x72:
                guard code == 0x72, let index = int32(), index < refs.count else { return nil }
                return refs[index]
            case 0x5B:
                guard code == 0x5B, let n = int32() else { return nil }
                var items: [String] = []
                for _ in 0..<n {
                    guard let item = value() else { return nil }
                    items.append(item)
                }
                return "[" + items.joined(separator: ",") + "]"
            case 0x7B:
                guard code == 0x7B else { return nil }
                var entries: [String] = []
                while at < bytes.count, bytes[at] != 0x30 {
                    guard let key = value(), let item = value() else { return nil }
                    entries.append(key + ":" + item)
                }
                guard at < bytes.count else { return nil }
                at += 1
                return "{" + entries.joined(separator: ",") + "}"
            default:
                return nil
            }
        }
        guard let result = value(), at == bytes.count else { return nil }
        return result
    }
}
