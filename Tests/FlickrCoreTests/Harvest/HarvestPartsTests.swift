// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The harvest's pieces that need no server: slices, dates, the id set, the checkpoint's JSON.
@Suite struct HarvestPartsTests {
    @Test func partsCoverTheRangeOnceWithoutGaps() {
        for (lo, hi, count) in [(Int64(0), Int64(99), Int64(7)), (-5_364_662_400, 253_402_300_799, 80_000), (5, 5, 3), (10, 12, 9)] {
            let parts = HarvestSlice.parts(lo: lo, hi: hi, count: count)
            #expect(parts.first?.lo == lo && parts.last?.hi == hi)
            #expect(parts.count == Int(min(count, hi - lo + 1)))
            for (a, b) in zip(parts, parts.dropFirst()) { #expect(a.hi + 1 == b.lo && a.lo <= a.hi) }
        }
    }

    @Test func takenDatesAreUTCDatetimesBeforeAndAfter1970() {
        #expect(HarvestSlice.utc(0) == "1970-01-01 00:00:00")
        #expect(HarvestSlice.utc(1_072_915_200) == "2004-01-01 00:00:00")
        #expect(HarvestSlice.utc(-1) == "1969-12-31 23:59:59")
        #expect(HarvestSlice.utc(-5_364_662_400) == "1800-01-01 00:00:00")
        #expect(HarvestSlice.utc(253_402_300_799) == "9999-12-31 23:59:59")
        #expect(HarvestSlice.utc(951_782_400) == "2000-02-29 00:00:00")
    }

    @Test func idSetRemembersPastItsBuffer() {
        var set = HarvestIdSet()
        var fresh = 0
        for id in stride(from: UInt64(0), to: 200_000, by: 2) where set.insert(id) { fresh += 1 }
        #expect(fresh == 100_000 && set.count == 100_000)
        let again = [set.insert(0), set.insert(131_072), set.insert(199_998), set.insert(1), set.insert(UInt64.max),
                     set.insert(UInt64.max)]
        #expect(again == [false, false, false, true, true, false])
        #expect(set.contains(131_072) && !set.contains(3))
    }

    @Test func checkpointJSONReadsWhatItWrites() {
        let value: CheckpointJSON = .object([("a", .array([.int(-3), .int(Int64.max), .null, .bool(true)])),
                                             ("s", .string("\"tab\there\" é 🎉 \u{1}"))])
        #expect(CheckpointJSON.parse(Array(value.text.utf8)) == value)
        #expect(CheckpointJSON.parse(Array(#" { "k" : [ 1 , 2 ] , "u": "\u00e9\ud83c\udf89" } "#.utf8))
                == .object([("k", .array([.int(1), .int(2)])), ("u", .string("é🎉"))]))
        // Key order does not matter; values do.
        #expect(CheckpointJSON.parse(Array(#"{"a":1,"b":2}"#.utf8)) == CheckpointJSON.parse(Array(#"{"b":2,"a":1}"#.utf8)))
    }

    @Test func checkpointJSONRefusesWhatIsNotOne() {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        for text in ["", "{", "[1,]", "{\"a\":}", "1.5", "1e3", "18446744073709551616", "-9223372036854775808", "-", "\"\\x\"", "\"\\ud800\"",
                     "\"a\u{1}\"", "tru", "nul", "[1] x", deep, "{\"a\" 1}", "\"\\u12\""] {
            #expect(CheckpointJSON.parse(Array(text.utf8)) == nil, "\(text.prefix(20))")
        }
        #expect(CheckpointJSON.parse(Array("-9223372036854775807".utf8)) == .int(-9_223_372_036_854_775_807))
    }

    @Test func checkpointJSONKeepsIdsOf2To63AndAboveUnsigned() {
        // Item ids are UInt64: those past Int64.max are written and read back as such, not negative.
        for id in [UInt64(0), UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max] {
            let text = CheckpointJSON.number(id).text
            #expect(text == String(id))
            #expect(CheckpointJSON.parse(Array(text.utf8))?.uint == id)
        }
        #expect(CheckpointJSON.parse(Array("9223372036854775808".utf8)) == .uint(1 << 63))
        #expect(CheckpointJSON.parse(Array("-1".utf8))?.uint == nil)
    }

    @Test func queryOptionsAreChecked() throws {
        let now: Int64 = 1_700_000_000
        let query = try HarvestQuery(method: "flickr.photos.search",
                                     parameters: [("tags", "cat"), ("page", "3"), ("min_upload_date", "100"), ("license", "4, 0")],
                                     options: [("shard", "2/5"), ("dates", "upload"), ("min_slice", "300")], now: now)
        #expect(query.lo == 100 && query.hi == now + 86400 && !query.hiGiven && query.licenses == [0, 4])
        #expect(query.shard == 2 && query.shards == 5 && query.minSlice == 300)
        #expect(query.parameters.map { $0.0 } == ["tags"])
        for options in [[("shard", "0/2")], [("shard", "3/2")], [("dates", "posted")], [("min_slice", "0")], [("x", "1")]] {
            #expect(throws: FlickrError.self) {
                try HarvestQuery(method: "m", parameters: [], options: options, now: now)
            }
        }
        for parameters in [[("min_upload_date", "yesterday")], [("min_upload_date", "10"), ("max_upload_date", "5")],
                           [("license", "cc")], [("license", "-1")]] {
            #expect(throws: FlickrError.self) {
                try HarvestQuery(method: "m", parameters: parameters, options: [], now: now)
            }
        }
    }
}
