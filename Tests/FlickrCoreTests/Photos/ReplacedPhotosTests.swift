// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct ReplacedPhotosTests {
    @Test func aReplaceOutdatesEveryImageNotDownloadedSince() {
        let id = "990000000001", path = "/nowhere/a/flickr-cache-990000000001_ab_s.jpg"
        #expect(ReplacedPhotos.isCurrent(path, photoID: id))  // never replaced: anything goes
        let before = ReplacedPhotos.stamp(for: id)
        ReplacedPhotos.wrote(path, stamp: before)
        #expect(ReplacedPhotos.isCurrent(path, photoID: id))
        ReplacedPhotos.record(id)
        #expect(!ReplacedPhotos.isCurrent(path, photoID: id))
        #expect(!ReplacedPhotos.isCurrent("/nowhere/b/flickr-cache-990000000001_ab_s.jpg", photoID: id))
        ReplacedPhotos.wrote(path, stamp: before)  // a download begun before the replace ended
        #expect(!ReplacedPhotos.isCurrent(path, photoID: id))
        ReplacedPhotos.wrote(path, stamp: ReplacedPhotos.stamp(for: id))
        #expect(ReplacedPhotos.isCurrent(path, photoID: id))
        ReplacedPhotos.record(id)  // a second replace outdates it again
        #expect(!ReplacedPhotos.isCurrent(path, photoID: id))
        #expect(ReplacedPhotos.isCurrent(path, photoID: nil))
        #expect(ReplacedPhotos.stamp(for: nil) == nil)
    }
}
