// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct PhotoCacheNameTests {
    @Test func flickrImageURLsKeepTheirFileName() {
        let url = "https://live.staticflickr.com/65535/53012345678_0a1b2c3d4e_b.jpg"
        #expect(CacheName.entry(forURL: url, stamp: nil) == "flickr-cache-53012345678_0a1b2c3d4e_b.jpg")
        #expect(CacheName.entry(forURL: url, stamp: "1700000000") == "flickr-cache-53012345678_0a1b2c3d4e_b-u1700000000.jpg")
        #expect(CacheName.entry(forURL: url + "?x=1#y", stamp: nil) == "flickr-cache-53012345678_0a1b2c3d4e_b.jpg")
        #expect(CacheName.entry(forURL: "http://h/1/5_ab.jpg", stamp: nil) == "flickr-cache-5_ab.jpg")
        #expect(CacheName.entry(forURL: "http://h/1/5_ab_o.png", stamp: nil) == "flickr-cache-5_ab_o.png")
        #expect(CacheName.photoID(ofEntry: "flickr-cache-53012345678_0a1b2c3d4e_b.jpg") == "53012345678")
    }

    @Test func theLastUpdateStampsTheName() {
        func stamp(_ attributes: [String: String]) -> String? { PhotoDownload.lastUpdate { attributes[$0] } }
        #expect(stamp(["lastupdate": "1700000000"]) == "1700000000")  // a list's extras=last_update
        #expect(stamp(["last_update": "17"]) == "17")
        #expect(stamp(["dates.lastupdate": "18"]) == "18")  // getInfo
        #expect(stamp(["lastupdate": "", "dates.lastupdate": "18"]) == "18")
        for odd in ["", "-1", "1.5", " 1", "1e9", "１", "123456789012345678901", "../x"] {
            #expect(stamp(["lastupdate": odd]) == nil, "\(odd)")
        }
        #expect(stamp([:]) == nil)
    }

    @Test func messagesNameEntriesWithoutTheirSecret() {
        let flickr = "flickr-cache-53012345678_0a1b2c3d4e_b.jpg"
        #expect(CacheName.withoutSecret(flickr) == "flickr-cache-53012345678_*_b.jpg")
        #expect(CacheName.withoutSecret("flickr-cache-5_ab.jpg") == "flickr-cache-5_*.jpg")
        #expect(CacheName.withoutSecret("flickr-cache-5_ab-u17-alt1.png") == "flickr-cache-5_*-u17-alt1.png")
        #expect(CacheName.withoutSecret("flickr-cache-5_ab_o-u17.png") == "flickr-cache-5_*_o-u17.png")
        let hashed = "flickr-cache-h0123456789abcdef.img"
        #expect(CacheName.withoutSecret(hashed) == hashed)
    }

    @Test func otherURLsAreHashed() {
        for url in ["http://h/services/rest/?method=x", "http://h/a/B_C.jpg", "http://h/1_a-alt1.jpg", "http://h/1_a.exe",
                    "http://h/1_a.img", "http://h/x/../1_a_b_c.jpg"] {
            let entry = CacheName.entry(forURL: url, stamp: "7")
            #expect(entry.hasPrefix("flickr-cache-h") && entry.hasSuffix("-u7.img"), "\(url) -> \(entry)")
            #expect(CacheName.isEntry(entry))
            #expect(CacheName.photoID(ofEntry: entry) == nil)
        }
        #expect(CacheName.entry(forURL: "http://h/a", stamp: nil) != CacheName.entry(forURL: "http://h/b", stamp: nil))
    }

    @Test func onlyTheGrammarMatches() {
        for name in ["flickr-cache-1_ab.jpg", "flickr-cache-1_ab_b.jpg", "flickr-cache-1_ab_3k-u17.jpg",
                     "flickr-cache-1_ab_b-alt1.jpg", "flickr-cache-1_ab-u17-alt2.png", "flickr-cache-h0123456789abcdef.img",
                     "flickr-cache-h0123456789abcdef-u1.img"] {
            #expect(CacheName.isEntry(name), "\(name)")
        }
        for name in ["", "notes.txt", "holiday.jpg", "53012345678_0a1b2c3d4e_b.jpg", "image-0123456789abcdef",
                     "flickr-cache-notes.txt", "flickr-cache-1_ab.jpg.bak", "flickr-cache-1_AB.jpg", "flickr-cache-1_ab.JPG",
                     "flickr-cache-1_ab.exe", "flickr-cache-x_ab.jpg", "flickr-cache-1_ab_b_c.jpg", "flickr-cache-1_ab_sizes.jpg",
                     "flickr-cache-1_ab-alt3.jpg", "flickr-cache-1_ab-alt1-u2.jpg", "flickr-cache-1_ab-u.jpg",
                     "flickr-cache-1_ab-x2.jpg", "flickr-cache-h0123.img", "flickr-cache-h0123456789ABCDEF.img",
                     "flickr-cache--u1.jpg", "flickr-cache-.jpg", ".flickr-cache-1_ab.jpg", "Flickr-cache-1_ab.jpg",
                     "flickr-cache-1_" + String(repeating: "a", count: 41) + ".jpg",
                     "flickr-cache-" + String(repeating: "1", count: 21) + "_ab.jpg", CacheName.lock] {
            #expect(!CacheName.isEntry(name), "\(name)")
        }
    }

    @Test func temporariesAreTheirEntryPlusPidAndNonce() {
        let temporary = CacheName.temporary(for: "flickr-cache-1_ab_b.jpg", pid: 4242, unique: 123_456)
        #expect(temporary == ".flickr-cache-1_ab_b.jpg.4242.2n9c.part")
        #expect(CacheName.isTemporary(temporary))
        #expect(!CacheName.isEntry(temporary))
        for name in [".1_ab_b.jpg.4242.abc.part", ".hidden.part", ".flickr-cache-1_ab_b.jpg.part",
                     ".flickr-cache-1_ab_b.jpg.42x.abc.part", ".flickr-cache-1_ab_b.jpg.42.ABC.part",
                     ".flickr-cache-notes.txt.42.abc.part", "flickr-cache-1_ab_b.jpg.42.abc.part",
                     ".flickr-cache-1_ab_b.jpg.42.abc.part.part", CacheName.lock] {
            #expect(!CacheName.isTemporary(name), "\(name)")
        }
    }

    @Test func slotsShareTheirEntry() {
        let slots = CacheName.slots(of: "flickr-cache-1_ab_b-u9.jpg")
        #expect(slots == ["flickr-cache-1_ab_b-u9.jpg", "flickr-cache-1_ab_b-u9-alt1.jpg", "flickr-cache-1_ab_b-u9-alt2.jpg"])
        for slot in slots {
            #expect(CacheName.isEntry(slot))
            #expect(CacheName.entry(ofSlot: slot) == slots[0])
        }
    }

    @Test func sumsAndDifferencesSaturate() {
        #expect(Int64(1 << 62).addingSaturated(1 << 62) == .max)
        #expect(Int64.min.addingSaturated(-1) == .min)
        #expect(Int64(2).addingSaturated(3) == 5)
        #expect(Int64.min.subtractingSaturated(1) == .min)
        #expect(Int64.max.subtractingSaturated(-1) == .max)
        #expect(Int64(5).subtractingSaturated(3) == 2)
    }
}
