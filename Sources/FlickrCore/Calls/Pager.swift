// SPDX-License-Identifier: MIT

/// Walks every item of every page of a paged Flickr method, fetching pages
/// as the walk reaches them. It reads Flickr's page/pages/perpage/total and
/// stops on an empty page, after the last page (Flickr's `pages`, bounded by the
/// pages `total` fills), at page 10,000, and at 4,000 results for
/// flickr.photos.search (Flickr returns no more than that). A page that repeats
/// the last one or brings no new id fails the walk (`ListingGuard`).
///
/// The item list is found automatically — the entry of the first child of
/// `<rsp>` that carries page attributes (photos.photo, photosets.photoset...)
/// — or given as a key path ("photos.photo").
///
/// Like any iterator, a pager is used by one thread at a time (it may move
/// between threads); that is what makes the unguarded state below safe.
package final class Pager: @unchecked Sendable {
    static let maxPage = 10_000

    private struct State {
        var page: Response?
        var items: UnsafePointer<ValueNode>?
        var index = 0
        var nextPage: Int
        var yielded = 0
        var finished = false
        var total: Int64 = -1
        var answered: Int64 = 0  // the number of the last page the server answered
        var guardian: ListingGuard
        var ids = HarvestIdSet()  // every item id given, as 64-bit keys: "no new id" is seen
        var broken: FlickrError?  // the guard's verdict, given again: the listing cannot go on
    }

    private let context: Context
    private let method: String
    private let parameters: [(String, String)]
    private let itemPath: [Substring]?
    private var s: State

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(context: Context, method: String, parameters: [(String, String)], itemPath: String?)
        throws(FlickrError)
    {
        var firstPage = 1
        var rest: [(String, String)] = []
        for (name, value) in parameters {
            if name == "page" {
                guard let number = Int(value), (1...Pager.maxPage).contains(number) else {
                    throw .invalid("page must be a number from 1 to \(Pager.maxPage)")
                }
                firstPage = number
            } else {
                rest.append((name, value))
            }
        }
        if !rest.contains(where: { $0.0 == "per_page" }) {
            rest.append(("per_page", String(FlickrLimits.maxPerPage)))  // the fewest calls
        }
        var segments: [Substring]?
        if let itemPath {
            let split = itemPath.split(separator: ".", omittingEmptySubsequences: false)
            guard split.count >= 2, !split.contains(where: { $0.isEmpty }) else {
                throw .invalid("item_path must look like \"photos.photo\"")
            }
            segments = split
        }
        try RESTCall.validate(method: method, parameters: rest)  // same validation as a call
        self.init(context: context, method: method, parameters: rest, itemPath: segments, firstPage: firstPage)
    }

    @_optimize(size)
    private init(context: Context, method: String, parameters: [(String, String)], itemPath: [Substring]?, firstPage: Int) {
        self.context = context
        self.method = method
        self.parameters = parameters
        self.itemPath = itemPath
        s = State(nextPage: firstPage, guardian: ListingGuard(method: method))
    }

    /// The total Flickr announced on the last page fetched, or -1 before the first.
    package var total: Int64 { s.total }

    /// The number of the last page the server answered, or 0 before the first.
    package var page: Int64 { s.answered }

    /// The next item, borrowed from the current page (valid until the next call), or nil at the end.
    @_optimize(size)
    package func next() throws(FlickrError) -> UnsafePointer<ValueNode>? {
        while true {
            if let items = s.items, s.index < itemCount(items) {
                if let cap = Pager.resultCap(for: method), s.yielded >= cap {
                    s.finished = true
                    return nil
                }
                let item = element(items, s.index)
                s.index += 1
                s.yielded += 1
                return item
            }
            // Past the cap Flickr repeats its last page: the walk ends before asking it.
            if let cap = Pager.resultCap(for: method), s.yielded >= cap { s.finished = true }
            if s.finished { return nil }
            if let broken = s.broken { throw broken }
            try fetch()
        }
    }

    @_optimize(size)
    private func fetch() throws(FlickrError) {
        let number = s.nextPage
        let call = try RESTCall(method: method, parameters: parameters + [("page", String(number))], verb: .get)
        let response = try context.perform(call)
        guard let (container, items) = locate(in: response.root) else {
            throw FlickrError(.parse, "\(method) answered without a paged list"
                              + (itemPath.map { " at \($0.joined(separator: "."))" } ?? ""))
        }
        s.answered = Int64(number)
        let attribute = { (name: String) in container.member(name)?.string.flatMap { HarvestPage.count($0) } }
        let pages = attribute("pages")
        let announced = attribute("total")
        let count = items.map(itemCount) ?? 0
        var keys: [UInt64] = []
        var fresh = 0
        for index in 0..<count {
            guard let item = items.flatMap({ element($0, index) }),
                  let id = (item.member("id") ?? item.member("nsid"))?.string else { fresh += 1; continue }
            let key = ListingGuard.key(id)
            keys.append(key)
            if s.ids.insert(key) { fresh += 1 }
        }
        let last: Int64?
        do {
            last = try s.guardian.check(page: Int64(number), pages: pages, total: announced, count: count, fresh: fresh,
                                        fingerprint: keys.isEmpty ? nil : ListingGuard.fingerprint(keys))
        } catch {
            s.broken = error
            throw error
        }
        s.total = announced ?? s.total
        s.page = response
        s.items = items
        s.index = 0
        s.nextPage = number + 1
        s.finished = Pager.isLastPage(number: number, pages: last.map { Int(clamping: $0) }, count: count)
    }

    /// Whether page `number` ends the walk: it was empty, it was the last one Flickr
    /// announced (or no count was given), or it reached Flickr's page limit. A short
    /// page is not the end by itself (getRecent answers 99 items for perpage="100").
    @_optimize(size)
    static func isLastPage(number: Int, pages: Int?, count: Int) -> Bool {
        count == 0 || number >= (pages ?? number) || number >= maxPage
    }

    /// How many results Flickr serves at most for a method's query, when it caps them.
    @_optimize(size)
    static func resultCap(for method: String) -> Int? {
        method == "flickr.photos.search" ? FlickrLimits.searchResultCap : nil
    }

    /// The page container (for its attributes) and the item list (nil when the page has none).
    @_optimize(size)
    private func locate(in root: UnsafePointer<ValueNode>)
        -> (container: UnsafePointer<ValueNode>, items: UnsafePointer<ValueNode>?)?
    {
        if let itemPath {
            let containerPath = itemPath.dropLast().joined(separator: ".")
            guard let container = root.lookup(path: containerPath), container.kind == .object else { return nil }
            return (container, container.member(String(itemPath[itemPath.count - 1])))
        }
        return Pager.pagedList(in: root)
    }

    /// The list inside the first child of `root` with page attributes (photos.photo...), and that
    /// child; the list is nil for an empty page. Shared with the harvest.
    @_optimize(size)
    static func pagedList(in root: UnsafePointer<ValueNode>)
        -> (container: UnsafePointer<ValueNode>, items: UnsafePointer<ValueNode>?)?
    {
        for index in 0..<root.count {
            guard let candidate = root.element(at: index), candidate.kind == .object,
                candidate.member("page") != nil, candidate.member("pages") != nil || candidate.member("total") != nil
            else { continue }
            for entry in 0..<candidate.count {
                if let value = candidate.element(at: entry), value.kind != .string {
                    return (candidate, value)
                }
            }
            return (candidate, nil)  // an empty page: attributes only
        }
        return nil
    }

    /// A single item (an object where a list would be) counts as a list of one.
    @_optimize(size)
    private func itemCount(_ items: UnsafePointer<ValueNode>) -> Int {
        items.kind == .array ? items.count : 1
    }

    @_optimize(size)
    private func element(_ items: UnsafePointer<ValueNode>, _ index: Int) -> UnsafePointer<ValueNode>? {
        items.kind == .array ? items.element(at: index) : items
    }
}
