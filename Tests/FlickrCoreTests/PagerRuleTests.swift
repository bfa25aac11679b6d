// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct PagerRuleTests {
    @Test func lastPageRules() {
        #expect(Pager.isLastPage(number: 1, pages: 3, count: 0), "an empty page ends the walk")
        #expect(!Pager.isLastPage(number: 1, pages: 3, count: 99), "a short page does not")
        #expect(Pager.isLastPage(number: 3, pages: 3, count: 10))
        #expect(Pager.isLastPage(number: 4, pages: 3, count: 10), "past the announced last page")
        #expect(Pager.isLastPage(number: 1, pages: nil, count: 10), "no page count: one page")
        #expect(Pager.isLastPage(number: 10_000, pages: 50_000, count: 500), "Flickr's page limit")
        #expect(!Pager.isLastPage(number: 9_999, pages: 50_000, count: 500))
    }

    @Test func searchIsCappedAtFourThousand() {
        #expect(Pager.resultCap(for: "flickr.photos.search") == 4_000)
        #expect(Pager.resultCap(for: "flickr.people.getPhotos") == nil)
    }
}
