// SPDX-License-Identifier: MIT

import Glibc

/// Every item a search-like method matches, each once, past Flickr's cap on what one query
/// serves (4,000 results for flickr.photos.search). Asks page 1 of a date slice and reads its
/// total: over the cap, the slice is cut by time into as many parts as would each fit were its
/// items spread evenly, down to a minimum slice, below which it is asked once per licence; a slice
/// within the cap is paged through. Slices never overlap and ids are remembered besides (pages
/// shift while photos arrive), so each item is given once. With a checkpoint path, the state is
/// saved after each page the caller has taken in full (docs/harvest.md has the file's form).
///
/// Like a pager, used by one thread at a time; that is what makes the unguarded state safe.
package final class Harvester: @unchecked Sendable {
    private let context: Context
    private var query: HarvestQuery
    private var pending: [HarvestSlice]
    private var current: HarvestSlice?
    private var nextPage: Int64 = 0
    private var lastPage: Int64 = 0
    private var seen = HarvestIdSet()
    private var sliceIds: [UInt64] = []
    private var report = HarvestReport()
    private var extra: CheckpointJSON = .object([])
    // The page being given out: its answer (which owns the items) and its fresh items.
    private var page: Response?
    private var items: [UnsafePointer<ValueNode>] = []
    private var index = 0
    private var pageGiven = false
    private var listing: ListingGuard  // the pages of the slice being paged
    /// Most parts one split makes: a slice still over the cap is cut again when reached, so the
    /// pending list (and the checkpoint, rewritten after every page) stays small whatever a total says.
    static let maxParts: Int64 = 1024
    /// Most slices pending at once; a legitimate harvest keeps a few thousand (a few levels of 1,024).
    static let maxPending = 16_384

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(context: Context, method: String, parameters: [(String, String)],
                             options: [(String, String)]) throws(FlickrError)
    {
        try RESTCall.validate(method: method, parameters: parameters)
        var query = try HarvestQuery(method: method, parameters: parameters, options: options,
                                     now: Int64(time(nil)))
        let parts = HarvestSlice.parts(lo: query.lo, hi: query.hi, count: query.shards == 1 ? 1 : query.shards * 8)
        var pending = parts.enumerated().filter { Int64($0.offset) % query.shards == query.shard - 1 }.map { $0.element }
        var restored: HarvestState?
        if let path = query.checkpoint, let bytes = try CheckpointFile.read(path) {
            let state = try HarvestState(bytes: bytes, path: path, query: &query)
            pending = state.pending
            restored = state
        }
        self.init(context: context, query: query, pending: pending, restored: restored)
    }

    @_optimize(size)
    private init(context: Context, query: HarvestQuery, pending: [HarvestSlice], restored: HarvestState?) {
        self.context = context
        self.query = query
        self.pending = pending
        listing = ListingGuard(method: query.method)
        if let restored {
            current = restored.current
            nextPage = restored.nextPage
            lastPage = restored.lastPage
            sliceIds = restored.sliceIds
            for id in sliceIds { _ = seen.insert(id) }
            report = restored.report
            extra = restored.extra
        }
        countPending()
    }

    /// The harvest's counts so far as JSON (the form of the Python binding's report).
    package var reportJSON: String { report.json.text }

    /// The next item, borrowed from the current page (valid until the next call), or nil at the end.
    @_optimize(size)
    package func next() throws(FlickrError) -> UnsafePointer<ValueNode>? {
        while true {
            if index < items.count {
                index += 1
                return items[index - 1]
            }
            if pageGiven {  // the caller has taken the whole page: what the checkpoint records
                pageGiven = false
                try save()
            }
            guard try step() else {
                page = nil
                items = []
                try save()
                return nil
            }
        }
    }

    /// The caller's own JSON object kept in the checkpoint ("{}" when none).
    package var extraJSON: String { extra.text }

    /// Sets the caller's JSON object, written with the next checkpoint (a program's own progress,
    /// such as how much of its output matches the harvest so far). EINVAL unless it is an object.
    @_optimize(size)
    package func setExtra(_ text: String) throws(FlickrError) {
        guard text.utf8.count <= 1 << 20, let value = CheckpointJSON.parse(Array(text.utf8)), case .object = value else {
            throw .invalid("extra must be a JSON object of whole numbers, strings, arrays and objects, up to 1 MiB")
        }
        extra = value
    }

    /// Writes the checkpoint, if the harvest has a path.
    @_optimize(size)
    package func save() throws(FlickrError) {
        guard let path = query.checkpoint else { return }
        let state = HarvestState(query: query, pending: pending, current: current, nextPage: nextPage,
                                 lastPage: lastPage, sliceIds: sliceIds, report: report, extra: extra)
        try CheckpointFile.write(state.json.text, to: path)
    }

    /// Makes calls until a page gives new items (true) or the harvest ends (false).
    @_optimize(size)
    private func step() throws(FlickrError) -> Bool {
        while true {
            let answer: HarvestPage
            if let slice = current {
                if nextPage > lastPage {
                    current = nil
                    report.slicesDone = report.slicesDone.addingSaturated(1)
                    countPending()
                    continue
                }
                answer = try fetch(slice, page: nextPage)
                nextPage += 1
                if answer.ids.isEmpty { lastPage = 0 }
            } else {
                guard let slice = pending.first else { return false }
                answer = try fetch(slice, page: 1)
                if !slice.derived { report.justified = report.justified.addingSaturated(answer.total) }
                if answer.total > query.cap {
                    if try split(slice, total: answer.total) { continue }  // else claimed, over the cap
                } else {
                    try claim(slice, total: answer.total)
                }
                pending.removeFirst()
                current = slice
                nextPage = 2
                countPending()
                sliceIds = []
                listing = ListingGuard(method: query.method)
                let served = Swift.min(answer.total, query.cap)
                lastPage = Swift.min(answer.pages, (served + query.perPage - 1) / query.perPage)
                report.matched = report.matched.addingSaturated(answer.total)
            }
            items = []
            index = 0
            for (item, id) in zip(answer.items, answer.ids) {
                if seen.insert(id) {
                    items.append(item)
                    sliceIds.append(id)
                } else {
                    report.duplicates = report.duplicates.addingSaturated(1)
                }
            }
            _ = try listing.check(page: nextPage - 1, pages: answer.pages, total: answer.total, count: answer.ids.count,
                                  fresh: items.count, fingerprint: ListingGuard.fingerprint(answer.ids))
            page = answer.response
            report.items = report.items.addingSaturated(Int64(items.count))
            if !items.isEmpty {
                pageGiven = true
                return true
            }
        }
    }

    /// Slices not done: those waiting and the one being paged.
    @_optimize(size)
    private func countPending() {
        report.slicesPending = Int64(pending.count) + (current == nil ? 0 : 1)
    }

    /// Refuses a slice about to be paged (or left over the cap) whose total, with those of the slices
    /// paged before, is more than the harvest's first answers can justify: the parts of a range hold
    /// what the range held (twice that, and a cap, for counts that move while the harvest runs).
    /// A server answering total=10^12 to every query would otherwise be sliced and paged forever.
    @_optimize(size)
    private func claim(_ slice: HarvestSlice, total: Int64) throws(FlickrError) {
        let claimed = report.overCap.reduce(report.matched) { $0.addingSaturated($1.1) }.addingSaturated(total)
        let bound = report.justified.multipliedSaturated(by: 2).addingSaturated(query.cap)
        guard claimed <= bound else {
            throw FlickrError(.parse, .message([
                query.method, ": the slice ", HarvestSlice.utc(slice.lo), " to ", HarvestSlice.utc(slice.hi),
                slice.license.map { " (license " + String($0) + ")" } ?? "", " answers total=", String(total),
                ", but its parts and the slices before it would then hold ", String(claimed),
                " items, more than twice the ", String(report.justified),
                " the whole range answered: the server's totals are not counts"]))
        }
    }

    /// Replaces an over-cap slice by its parts; false when it is as small as it may be.
    @_optimize(size)
    private func split(_ slice: HarvestSlice, total: Int64) throws(FlickrError) -> Bool {
        let parts: [HarvestSlice]
        if slice.seconds > query.minSlice {
            // As many parts as would each hold 3/4 of the cap were the items spread evenly.
            let wanted = Swift.max(2, (total * 4 + query.cap * 3 - 1) / (query.cap * 3))  // total <= 2^53
            let count = Swift.min(wanted, slice.seconds / query.minSlice + 1, Harvester.maxParts)
            parts = HarvestSlice.parts(lo: slice.lo, hi: slice.hi, count: count, license: slice.license, derived: true)
        } else if slice.license == nil {
            parts = try licenses().map { HarvestSlice(lo: slice.lo, hi: slice.hi, license: $0, derived: true) }
        } else {
            try claim(slice, total: total)
            report.overCap.append((slice, total))
            return false
        }
        guard pending.count - 1 + parts.count <= Harvester.maxPending else {
            throw FlickrError(.parse, .message([
                query.method, ": cutting a slice of total=", String(total), " would leave ",
                String(pending.count - 1 + parts.count), " slices pending, more than the ",
                String(Harvester.maxPending), " a harvest keeps: the server's totals cannot be counts"]))
        }
        pending.replaceSubrange(0..<1, with: parts)
        countPending()
        return true
    }

    @_optimize(size)
    private func fetch(_ slice: HarvestSlice, page number: Int64) throws(FlickrError) -> HarvestPage {
        var arguments = query.parameters + [("page", String(number)), ("per_page", String(query.perPage))]
        arguments += slice.arguments(taken: query.taken)
        if slice.license == nil, let license = query.license { arguments.append(("license", license)) }
        report.calls = report.calls.addingSaturated(1)
        let call = try RESTCall(method: query.method, parameters: arguments, verb: .get)
        return try HarvestPage(try context.perform(call), method: query.method)
    }

    @_optimize(size)
    private func licenses() throws(FlickrError) -> [Int64] {
        if let known = query.licenses { return known }
        report.calls = report.calls.addingSaturated(1)
        let method = "flickr.photos.licenses.getInfo"
        let response = try context.perform(try RESTCall(method: method, parameters: [], verb: .get))
        guard let list = response.root.lookup(path: "licenses.license") else {
            throw FlickrError(.parse, "\(method): no licence list")
        }
        var ids: [Int64] = []
        for index in 0..<(list.kind == .array ? list.count : 1) {
            let entry = list.kind == .array ? list.element(at: index) : list
            guard let text = entry?.member("id")?.string, let id = HarvestPage.count(text) else {
                throw FlickrError(.parse, "\(method): a licence has no numeric id")
            }
            if !ids.contains(id) { ids.append(id) }
        }
        guard !ids.isEmpty else { throw FlickrError(.parse, "\(method): no licence list") }
        let sorted = ids.sortedStably(by: <)
        query.licenses = sorted
        return sorted
    }
}
