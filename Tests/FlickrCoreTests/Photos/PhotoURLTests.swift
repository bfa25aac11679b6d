// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Attribute lookups over a flat dictionary, the way a photo element reads.
private func lookup(_ attributes: [String: String]) -> (String) -> String? {
    { attributes[$0] }
}

private func sourceError(_ size: String, _ attributes: [String: String]) -> FlickrError? {
    do {
        _ = try PhotoURL.source(size: size, field: lookup(attributes))
        return nil
    } catch {
        return error
    }
}

private func pageError(_ attributes: [String: String]) -> FlickrError? {
    do {
        _ = try PhotoURL.page(field: lookup(attributes))
        return nil
    } catch {
        return error
    }
}

@Suite struct PhotosURLTests {
    /// From fixtures/flickr.photos.getInfo.xml (photo 5628095432) with owner as an object.
    static let getInfo: [String: String] = [
        "id": "5628095432", "secret": "678f9b91c1", "server": "5150", "farm": "6", "originalsecret": "815e3b9f27",
        "originalformat": "jpg", "owner.nsid": "24573443@N04", "owner.username": "boncey_test",
        "owner.path_alias": "boncey_test",
    ]

    /// From fixtures/flickr.interestingness.getList.xml (photo 53681926374, extras url_*, original_format).
    static let searchResult: [String: String] = [
        "id": "53681926374", "owner": "21058160@N07", "secret": "b7bef21d69", "server": "65535", "farm": "66",
        "originalsecret": "82960de8f2", "originalformat": "jpg", "pathalias": "yabberdab",
        "url_t": "https://live.staticflickr.com/65535/53681926374_b7bef21d69_t.jpg",
        "url_s": "https://live.staticflickr.com/65535/53681926374_b7bef21d69_m.jpg",
        "url_sq": "https://live.staticflickr.com/65535/53681926374_b7bef21d69_s.jpg",
        "url_o": "https://live.staticflickr.com/65535/53681926374_82960de8f2_o.jpg",
        "url_l": "https://live.staticflickr.com/65535/53681926374_b7bef21d69_b.jpg",
        "url_m": "https://live.staticflickr.com/65535/53681926374_b7bef21d69.jpg",
    ]

    /// The photourl fuzz target's finding (Tests/fuzz/regressions/photourl): a url_o of "Https://"
    /// came back as given; the scheme is now lower case like every URL the library builds.
    @Test func extraURLSchemesAreLowerCase() throws {
        let photo = lookup(["id": "5", "secret": "s", "server": "1", "url_o": "Https://live.staticflickr.com/1/5_x_o.jpg",
                            "url_h": "HTTP://127.0.0.1:8080/photos/1/5_y_h.jpg"])
        #expect(try PhotoURL.source(size: "o", field: photo) == "https://live.staticflickr.com/1/5_x_o.jpg")
        #expect(try PhotoURL.source(size: "h", field: photo) == "http://127.0.0.1:8080/photos/1/5_y_h.jpg")
    }

    @Test func sizeList() {
        #expect(PhotoURL.sizes == ["s", "q", "t", "m", "n", "w", "", "z", "c", "b", "h", "k", "3k", "4k", "5k", "6k", "o"])
    }

    /// Every shared-secret size, checked against fixtures/flickr.photos.getSizes.xml for the same photo.
    @Test(arguments: [
        ("s", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_s.jpg"),
        ("q", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_q.jpg"),
        ("t", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_t.jpg"),
        ("m", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_m.jpg"),
        ("n", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_n.jpg"),
        ("w", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_w.jpg"),
        ("", "https://live.staticflickr.com/5150/5628095432_678f9b91c1.jpg"),
        ("z", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_z.jpg"),
        ("c", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_c.jpg"),
        ("b", "https://live.staticflickr.com/5150/5628095432_678f9b91c1_b.jpg"),
        ("o", "https://live.staticflickr.com/5150/5628095432_815e3b9f27_o.jpg"),
    ])
    func getInfoSizes(size: String, expected: String) throws {
        #expect(try PhotoURL.source(size: size, field: lookup(Self.getInfo)) == expected)
    }

    /// The URLs Flickr itself returned as url_* extras match what we build from id/secret/server.
    @Test(arguments: [("s", "url_sq"), ("t", "url_t"), ("m", "url_s"), ("", "url_m"), ("b", "url_l"), ("o", "url_o")])
    func searchResultMatchesExtras(size: String, extra: String) throws {
        var withoutExtras = Self.searchResult
        for key in withoutExtras.keys where key.hasPrefix("url_") { withoutExtras[key] = nil }
        let built = try PhotoURL.source(size: size, field: lookup(withoutExtras))
        #expect(built == Self.searchResult[extra])
        #expect(try PhotoURL.source(size: size, field: lookup(Self.searchResult)) == Self.searchResult[extra])
    }

    @Test func searchResultOtherSharedSizes() throws {
        #expect(try PhotoURL.source(size: "q", field: lookup(Self.searchResult))
            == "https://live.staticflickr.com/65535/53681926374_b7bef21d69_q.jpg")
        #expect(try PhotoURL.source(size: "z", field: lookup(Self.searchResult))
            == "https://live.staticflickr.com/65535/53681926374_b7bef21d69_z.jpg")
    }

    @Test func originalPrefersURLExtra() throws {
        let photo = ["id": "1", "secret": "a", "server": "2", "url_o": "https://live.staticflickr.com/2/1_b_o.png"]
        #expect(try PhotoURL.source(size: "o", field: lookup(photo)) == "https://live.staticflickr.com/2/1_b_o.png")
        var png = Self.getInfo
        png["originalformat"] = "png"
        #expect(try PhotoURL.source(size: "o", field: lookup(png))
            == "https://live.staticflickr.com/5150/5628095432_815e3b9f27_o.png")
    }

    @Test func originalMissingPieces() throws {
        var photo = Self.getInfo
        photo["originalsecret"] = nil
        let noSecret = try #require(sourceError("o", photo))
        #expect(noSecret.code == .invalidArgument)
        #expect(noSecret.message.hasPrefix("\"originalsecret\" is missing"))
        photo = Self.getInfo
        photo["originalformat"] = ""
        let noFormat = try #require(sourceError("o", photo))
        #expect(noFormat.message.hasPrefix("\"originalformat\" is missing"))
        photo["originalformat"] = "jp/g"
        #expect(sourceError("o", photo)?.code == .invalidArgument)
    }

    /// h from getSizes: its own secret 6ac3753351, not the photo's 678f9b91c1.
    @Test func ownSecretSizesFromExtras() throws {
        var photo = Self.getInfo
        photo["url_h"] = "https://live.staticflickr.com/5150/5628095432_6ac3753351_h.jpg"
        #expect(try PhotoURL.source(size: "h", field: lookup(photo))
            == "https://live.staticflickr.com/5150/5628095432_6ac3753351_h.jpg")
        photo["url_k"] = "https://live.staticflickr.com/5150/5628095432_0123456789_k.jpg"
        #expect(try PhotoURL.source(size: "k", field: lookup(photo))
            == "https://live.staticflickr.com/5150/5628095432_0123456789_k.jpg")
        photo["url_3k"] = "https://live.staticflickr.com/5150/5628095432_abcdefabcd_3k.jpg"
        #expect(try PhotoURL.source(size: "3k", field: lookup(photo))
            == "https://live.staticflickr.com/5150/5628095432_abcdefabcd_3k.jpg")
    }

    @Test(arguments: ["h", "k", "3k", "4k", "5k", "6k"])
    func ownSecretSizesWithoutExtras(size: String) throws {
        let error = try #require(sourceError(size, Self.getInfo))
        #expect(error.code == .invalidArgument)
        #expect(error.message.hasPrefix("\"url_\(size)\" is missing"))
        #expect(error.message.contains("request extras=url_\(size) or call flickr.photos.getSizes"))
        var empty = Self.getInfo
        empty["url_\(size)"] = ""
        #expect(sourceError(size, empty)?.code == .invalidArgument)
    }

    @Test func extraThatIsNotAURL() {
        var photo = Self.getInfo
        photo["url_k"] = "javascript:alert(1)"
        #expect(sourceError("k", photo)?.code == .invalidArgument)
    }

    @Test(arguments: ["id", "secret", "server"])
    func missingSharedField(name: String) throws {
        for size in ["s", "", "b"] {
            var photo = Self.searchResult
            photo[name] = nil
            let missing = try #require(sourceError(size, photo))
            #expect(missing.code == .invalidArgument)
            #expect(missing.message.hasPrefix("\"\(name)\" is missing"))
            photo[name] = ""
            #expect(sourceError(size, photo)?.message.hasPrefix("\"\(name)\" is missing") == true)
        }
    }

    @Test func unsafeValuesRejected() {
        for (name, bad) in [
            ("id", "12a"), ("id", "-1"), ("id", "1/2"), ("server", "65535/../x"), ("server", ".."), ("server", "a b"),
            ("secret", "ab?c"), ("secret", "x#"), ("secret", "%2F"),
        ] {
            var photo = Self.searchResult
            photo[name] = bad
            #expect(sourceError("m", photo)?.code == .invalidArgument, "\(name)=\(bad)")
        }
    }

    @Test(arguments: ["x", "l", "f", "M", " m", "o ", "sq", "500", "_m"])
    func unknownSize(size: String) throws {
        let error = try #require(sourceError(size, Self.getInfo))
        #expect(error.code == .invalidArgument)
        #expect(error.message.contains("unknown photo size"))
        #expect(error.message.contains("s, q, t, m, n, w"))
        #expect(error.message.contains("3k, 4k, 5k, 6k, o"))
    }

    // MARK: Page URLs

    @Test func pageFromPathAlias() throws {
        #expect(try PhotoURL.page(field: lookup(Self.searchResult)) == "https://www.flickr.com/photos/yabberdab/53681926374/")
        // getInfo-style owner object: matches <url type="photopage"> of the fixture.
        #expect(try PhotoURL.page(field: lookup(Self.getInfo)) == "https://www.flickr.com/photos/boncey_test/5628095432/")
        #expect(try PhotoURL.page(field: lookup(["id": "1", "path_alias": "alias", "owner": "1@N01"]))
            == "https://www.flickr.com/photos/alias/1/")
    }

    @Test func pageFromNSID() throws {
        var search = Self.searchResult
        search["pathalias"] = ""  // users without an alias come back with an empty attribute
        #expect(try PhotoURL.page(field: lookup(search)) == "https://www.flickr.com/photos/21058160@N07/53681926374/")
        var info = Self.getInfo
        info["owner.path_alias"] = nil
        #expect(try PhotoURL.page(field: lookup(info)) == "https://www.flickr.com/photos/24573443@N04/5628095432/")
        // An owner element whose text is empty still yields its nsid.
        info["owner"] = ""
        #expect(try PhotoURL.page(field: lookup(info)) == "https://www.flickr.com/photos/24573443@N04/5628095432/")
    }

    @Test func pageEncodesComponents() throws {
        #expect(try PhotoURL.page(field: lookup(["id": "1?x", "owner": "a/b c"]))
            == "https://www.flickr.com/photos/a%2Fb%20c/1%3Fx/")
    }

    @Test func pageMissingPieces() throws {
        let noID = try #require(pageError(["owner": "1@N01"]))
        #expect(noID.code == .invalidArgument)
        #expect(noID.message.hasPrefix("\"id\" is missing"))
        let noOwner = try #require(pageError(["id": "1", "pathalias": ""]))
        #expect(noOwner.code == .invalidArgument)
        #expect(noOwner.message.hasPrefix("\"owner\" is missing"))
    }

    // MARK: Short URLs

    @Test func shortURLs() throws {
        #expect(try PhotoURL.short(photoID: "5628095432") == "https://flic.kr/p/9zksG9")
        #expect(try PhotoURL.short(photoID: "53683417952") == "https://flic.kr/p/2pMPxRA")
        #expect(try PhotoURL.short(photoID: "0") == "https://flic.kr/p/1")
        for bad in ["", "abc", "-1", "+1", " 1", "1 ", "12a", "99999999999999999999", "٣"] {
            do {
                _ = try PhotoURL.short(photoID: bad)
                Issue.record("accepted \(bad)")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
    }
}

@Suite struct PhotosBase58Tests {
    /// docs/protocol.md §11.8.
    @Test(arguments: [
        ("4325695128", "7Afjsu"), ("2811466321", "5hruZg"), ("5169665786", "8SPTwJ"), ("4425073240", "7K2E7d"),
        ("5628095432", "9zksG9"), ("53683417952", "2pMPxRA"), ("0", "1"),
    ])
    func vectors(id: String, expected: String) {
        #expect(Base58.encode(photoID: id) == expected)
    }

    @Test func edges() {
        #expect(Base58.encode(photoID: "57") == "Z")
        #expect(Base58.encode(photoID: "58") == "21")
        #expect(Base58.encode(photoID: "007") == "8")
        #expect(Base58.encode(photoID: "18446744073709551615") == Base58.encode(UInt64.max))
        #expect(Base58.encode(UInt64.max) == "JPwcyDCgEup")
        #expect(Base58.encode(photoID: "18446744073709551616") == nil)
        for bad in ["", "-5", "+5", " 5", "5 ", "5x", "0x10", "1.0", "1e3", "١٢"] {
            #expect(Base58.encode(photoID: bad) == nil, "\(bad)")
        }
        #expect(!Base58.alphabet.contains(UInt8(ascii: "0")))
        #expect(!Base58.alphabet.contains(UInt8(ascii: "O")))
        #expect(!Base58.alphabet.contains(UInt8(ascii: "I")))
        #expect(!Base58.alphabet.contains(UInt8(ascii: "l")))
        #expect(Base58.alphabet.count == 58)
    }
}
