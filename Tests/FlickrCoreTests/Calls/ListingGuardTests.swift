// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The listing checks the pager and the harvest share (issue 40's lying listings).
@Suite struct ListingGuardTests {
    private func failure(_ body: () throws(FlickrError) -> Void) -> String? {
        do { try body() } catch { return error.message }
        return nil
    }

    @Test func aRepeatedPageFails() throws {
        var listing = ListingGuard(method: "flickr.people.getPhotos")
        let ids: [UInt64] = [1, 2, 3]
        _ = try listing.check(page: 1, pages: 1_000_000_000_000, total: 1_000_000_000_000, count: 3, fresh: 3,
                              fingerprint: ListingGuard.fingerprint(ids))
        let message = failure { () throws(FlickrError) in
            _ = try listing.check(page: 2, pages: 1_000_000_000_000, total: 1_000_000_000_000, count: 3, fresh: 3,
                                  fingerprint: ListingGuard.fingerprint(ids))
        }
        #expect(message?.contains("flickr.people.getPhotos page 2 repeats page 1") == true, "\(message ?? "no error")")
    }

    @Test func aPageWithNoNewIdFails() throws {
        var listing = ListingGuard(method: "m")
        _ = try listing.check(page: 1, pages: 3, total: 6, count: 2, fresh: 2, fingerprint: ListingGuard.fingerprint([1, 2]))
        let message = failure { () throws(FlickrError) in
            _ = try listing.check(page: 2, pages: 3, total: 6, count: 2, fresh: 0, fingerprint: ListingGuard.fingerprint([2, 1]))
        }
        #expect(message?.contains("m page 2 brings no new id") == true, "\(message ?? "no error")")
    }

    @Test func morePagesThanItemsFails() {
        var listing = ListingGuard(method: "m")
        let message = failure { () throws(FlickrError) in
            _ = try listing.check(page: 1, pages: 1_000_000_000_000, total: 510, count: 500, fresh: 500, fingerprint: 7)
        }
        #expect(message?.contains("announces 1000000000000 pages for 510 items") == true, "\(message ?? "no error")")
        // An empty listing's "pages=1, total=0" and "pages=0" are Flickr's own.
        #expect(failure { () throws(FlickrError) in _ = try listing.check(page: 1, pages: 1, total: 0, count: 0, fresh: 0, fingerprint: nil) } == nil)
    }

    @Test func pagesAreBoundedByWhatTheTotalFills() throws {
        var listing = ListingGuard(method: "m")
        // pages inflated: the total fills 2 pages of 500.
        #expect(try listing.check(page: 1, pages: 900, total: 1000, count: 500, fresh: 500, fingerprint: 1) == 2)
        // no pages announced: the total alone bounds the walk (99 a page: 11 pages for 1,000).
        var short = ListingGuard(method: "m")
        #expect(try short.check(page: 1, pages: nil, total: 1000, count: 99, fresh: 99, fingerprint: 1) == 11)
        // neither: no bound (the pager then ends after this page).
        var bare = ListingGuard(method: "m")
        #expect(try bare.check(page: 1, pages: nil, total: nil, count: 5, fresh: 5, fingerprint: 1) == nil)
        // Huge counts never trap.
        var huge = ListingGuard(method: "m")
        #expect(try huge.check(page: 1, pages: 1 << 53, total: 1 << 53, count: 1, fresh: 1, fingerprint: 1) == 1 << 53)
    }

    @Test func fingerprintsFollowOrderAndKeysDiffer() {
        #expect(ListingGuard.fingerprint([1, 2]) != ListingGuard.fingerprint([2, 1]))
        #expect(ListingGuard.fingerprint([]) != ListingGuard.fingerprint([0]))
        #expect(ListingGuard.key("123@N01") != ListingGuard.key("123@N02"))
    }
}
