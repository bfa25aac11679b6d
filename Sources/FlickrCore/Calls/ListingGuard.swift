// SPDX-License-Identifier: MIT

/// The checks a paged listing's answers must pass, shared by the pager (flickr_pages_*, Python's
/// walk and so the backup's listing) and the harvest's page loop. A server that repeats a page,
/// serves pages of ids given already, or announces more pages than its total can fill would
/// otherwise be walked page after page for nothing but the key's budget (issue 40: a listing
/// announcing 10^12 pages and repeating page 1 made 416 calls in 20 s and never ended). Each
/// failure is FLICKR_EPARSE saying which method, which page and why.
struct ListingGuard {
    let method: String
    private var previous: UInt64?  // the fingerprint of the last non-empty page's ids
    private var previousNumber: Int64 = 0
    private var pageSize: Int64 = 0  // items on the first non-empty page: the server's page size

    init(method: String) {
        self.method = method
    }

    /// Checks page `number` and returns the last page the listing can have (nil: no bound known):
    /// Flickr's `pages`, bounded by how many pages of the first page's size `total` fills.
    /// `fingerprint` sums up the page's ids in order (nil when its items have none), `fresh` is how
    /// many of its `count` items are new to the listing.
    @_optimize(size)
    mutating func check(page number: Int64, pages: Int64?, total: Int64?, count: Int, fresh: Int,
                        fingerprint: UInt64?) throws(FlickrError) -> Int64? {
        let place = String.message([method, " page ", String(number)])
        if let pages, let total, pages > Swift.max(total, 1) {
            throw FlickrError(.parse, .message([place, " announces ", String(pages), " pages for ", String(total),
                                                " items: a listing cannot have more pages than items"]))
        }
        if count > 0 {
            if let fingerprint, fingerprint == previous {
                throw FlickrError(.parse, .message([place, " repeats page ", String(previousNumber), " (the same ",
                                                    String(count), " ids): the server's listing does not move on"]))
            }
            if fresh <= 0 {
                throw FlickrError(.parse, .message([place, " brings no new id (its ", String(count), " items were all",
                                                    " given already): the server's listing does not move on"]))
            }
            previous = fingerprint
            previousNumber = number
            if pageSize == 0 { pageSize = Int64(count) }
        }
        var last = pages
        if let total, pageSize > 0 {
            let filled = Swift.max(1, total / pageSize + (total % pageSize == 0 ? 0 : 1))
            last = Swift.min(last ?? filled, filled)
        }
        return last
    }

    /// A page's ids summed up in order (FNV-1a over each id's bytes, then a separator).
    @_optimize(size)
    static func fingerprint<S: Sequence>(_ ids: S) -> UInt64 where S.Element == UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for id in ids {
            var value = id
            for _ in 0..<8 {
                hash = (hash ^ (value & 0xff)) &* 0x0000_0100_0000_01b3
                value >>= 8
            }
            hash = (hash ^ 0x2c) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// An id that is text (an NSID, a numeric id) as a 64-bit key: FNV-1a over its bytes.
    @_optimize(size)
    static func key(_ text: String) -> UInt64 {
        CacheLock.fnv1a(text)
    }
}
