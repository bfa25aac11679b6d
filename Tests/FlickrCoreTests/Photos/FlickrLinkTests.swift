// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// flickr_url_parse's reader: every URL form people paste, and hostile text refused, never a trap.
@Suite struct FlickrLinkTests {
    private func fields(_ url: String) throws -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in try FlickrLink.parse(url) { result[name] = value }
        return result
    }

    @Test func shortLinksRoundTrip() throws {
        for id: UInt64 in [0, 1, 57, 58, 3_392_387_861, 52_984_597_523, UInt64.max] {
            let url = try PhotoURL.short(photoID: String(id))
            #expect(try fields(url) == ["kind": "photo", "photo_id": String(id)])
        }
        #expect(try fields("http://flic.kr/s/aHsjyTz6pR")["kind"] == "album")
        #expect(Base58.decode("2oJ4UTv") == 52_984_597_523)
        #expect(Base58.decode("") == nil && Base58.decode("0") == nil && Base58.decode("l") == nil)
        #expect(Base58.decode("zzzzzzzzzzzz") == nil)  // past UInt64: refused, not wrapped
    }

    @Test func photoPages() throws {
        #expect(try fields("https://www.flickr.com/photos/bees/2341623661/") ==
            ["kind": "photo", "photo_id": "2341623661", "user": "bees", "path_alias": "bees"])
        let inAlbum = try fields("www.flickr.com/photos/12037949754@N01/155761353/in/album-72157594162136485/?x=1#c")
        #expect(inAlbum["nsid"] == "12037949754@N01" && inAlbum["context"] == "album-72157594162136485")
        #expect(try fields("https://m.flickr.com/photos/bees/2341623661/sizes/l/")["size"] == "b")
        #expect(try fields("HTTPS://WWW.FLICKR.COM:443/photos/bees/2341623661")["photo_id"] == "2341623661")
        #expect(try fields("https://www.flickr.com/photos/a%40b/1/")["user"] == "a@b")
    }

    @Test func imagesOfEveryHostAndSize() throws {
        let live = try fields("https://live.staticflickr.com/65535/53000000000_abcdef1234_b.jpg")
        #expect(live == ["kind": "image", "photo_id": "53000000000", "server": "65535", "secret": "abcdef1234",
                         "size": "b", "format": "jpg"])
        #expect(try fields("https://live.staticflickr.com/7/8_ab.jpg")["size"] == "")
        #expect(try fields("https://farm3.staticflickr.com/2/1418878_1e92283336_m.jpg")["farm"] == "3")
        #expect(try fields("http://farm1.static.flickr.com/2/3_abc_t.jpg")["farm"] == "1")
        let original = try fields("https://c1.staticflickr.com/1/2/3_abc_o.png")
        #expect(original["originalsecret"] == "abc" && original["originalformat"] == "png" && original["farm"] == "1")
        for size in PhotoURL.sizes where !size.isEmpty && size != "o" {
            #expect(try fields("https://live.staticflickr.com/1/2_s_\(size).jpg")["size"] == size)
        }
    }

    @Test func albumsGroupsPeople() throws {
        #expect(try fields("https://www.flickr.com/photos/bees/albums/72157/")["album_id"] == "72157")
        #expect(try fields("https://www.flickr.com/photos/bees/sets/72157")["kind"] == "album")
        #expect(try fields("https://www.flickr.com/photos/bees/galleries/72157/")["gallery_id"] == "72157")
        #expect(try fields("https://www.flickr.com/photos/bees/favorites")["kind"] == "favorites")
        #expect(try fields("https://www.flickr.com/photos/bees/")["kind"] == "user")
        #expect(try fields("https://www.flickr.com/people/12037949754@N01/")["nsid"] == "12037949754@N01")
        let group = try fields("https://www.flickr.com/groups/34427469792@N01/discuss/72157/")
        #expect(group["group_id"] == "34427469792@N01" && group["topic_id"] == "72157")
        #expect(try fields("https://www.flickr.com/photos/tags/sunset")["tag"] == "sunset")
    }

    @Test func hostileTextIsRefused() {
        let refused = [
            "", "   ", "https://", "javascript:alert(1)", "ftp://www.flickr.com/photos/a/1", "https://evil.com/photos/a/1",
            "https://www.flickr.com.evil.com/photos/a/1", "https://www.flickr.com/", "https://www.flickr.com/photos/",
            "https://www.flickr.com/photos/a%/1", "https://www.flickr.com/photos/a%0a/1", "https://www.flickr.com/photos/%FF/1",
            "https://live.staticflickr.com/x/1_a.jpg", "https://live.staticflickr.com/1/1_a_zz.jpg",
            "https://live.staticflickr.com/1/1_a_b_c.jpg", "https://live.staticflickr.com/1.jpg", "https://flic.kr/x/abc",
            String(repeating: "a", count: 100_000),
            "https://www.flickr.com/" + String(repeating: "photos/", count: 5000),
            "https://live.staticflickr.com/1/" + String(repeating: "9", count: 40) + "_a.jpg",
            // Hosts that only Unicode case mapping makes Flickr's: the Kelvin sign lowercases to "k".
            "https://www.flic\u{212A}r.com/photos/bees/2341623661/", "https://flic.\u{212A}r/p/2oJ4UTv",
            "https://live.staticflic\u{212A}r.com/2/1418878_1e92283336_m.jpg",
        ]
        for url in refused {
            #expect(throws: FlickrError.self, "\(url.prefix(60))") { try FlickrLink.parse(url) }
        }
    }
}
