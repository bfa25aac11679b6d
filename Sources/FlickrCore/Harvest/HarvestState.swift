// SPDX-License-Identifier: MIT

/// A harvest's checkpoint: the query, the slices pending, the slice being paged (its next page
/// and the ids it gave so far), the counts, the over-cap slices and the caller's `extra` (the
/// Python CLI's output size), in the JSON the Python binding writes too.
struct HarvestState {
    static let version: Int64 = 1
    var query: HarvestQuery
    var pending: [HarvestSlice]
    var current: HarvestSlice?
    var nextPage: Int64 = 0
    var lastPage: Int64 = 0
    var sliceIds: [UInt64] = []
    var report = HarvestReport()
    var extra: CheckpointJSON = .object([])

    var json: CheckpointJSON {
        let counts: CheckpointJSON = .object([
            ("items", .int(report.items)), ("duplicates", .int(report.duplicates)), ("matched", .int(report.matched)),
            ("calls", .int(report.calls)), ("slices_done", .int(report.slicesDone)),
            ("justified", .int(report.justified))])
        let slice: CheckpointJSON? = current.map { current in
            .object([("slice", HarvestState.json(current)), ("next_page", .int(nextPage)), ("last_page", .int(lastPage)),
                     ("ids", .array(sliceIds.map(CheckpointJSON.number)))])
        }
        return .object([("query", query.json), ("pending", .array(pending.map(HarvestState.json))),
                        ("current", slice ?? .null), ("counts", counts),
                        ("over_cap", .array(report.overCap.map { .array([HarvestState.json($0.0), .int($0.1)]) })),
                        ("extra", extra), ("version", .int(HarvestState.version))])
    }

    @_optimize(size)
    private static func json(_ slice: HarvestSlice) -> CheckpointJSON {
        let fields: [CheckpointJSON] = [.int(slice.lo), .int(slice.hi), slice.license.map(CheckpointJSON.int) ?? .null]
        return .array(slice.derived ? fields + [.int(1)] : fields)  // a first run's checkpoint had three fields
    }
}

extension HarvestState {
    /// The state a checkpoint file holds, for `query` (whose range end is the checkpoint's when the
    /// caller gave none). EINVAL when the file is no checkpoint or one of another harvest.
    @_optimize(size)
    init(bytes: [UInt8], path: String, query: inout HarvestQuery) throws(FlickrError) {
        guard let root = CheckpointJSON.parse(bytes), root["version"]?.int == HarvestState.version,
              let savedQuery = root["query"] else {
            throw .invalid("\(path) is not a harvest checkpoint (version \(HarvestState.version))")
        }
        if !query.hiGiven, let hi = savedQuery["max"]?.int, hi >= query.lo, hi <= HarvestSlice.latest {
            query.hi = hi
        }
        guard savedQuery == query.json else {
            throw .invalid("\(path) is the checkpoint of another harvest (query, range or shard differ)")
        }
        self.query = query
        let unusable = { (field: String) in FlickrError.invalid("\(path) is not a usable harvest checkpoint: bad \(field)") }
        guard let pendingList = root["pending"]?.array else { throw unusable("pending") }
        guard let counts = root["counts"] else { throw unusable("counts") }
        guard let overCap = root["over_cap"]?.array else { throw unusable("over_cap") }
        guard let current = root["current"] else { throw unusable("current") }
        pending = []
        for entry in pendingList {
            guard let slice = HarvestState.slice(entry) else { throw unusable("pending") }
            pending.append(slice)
        }
        if !current.isNull {
            // No page past what a slice within the cap has: the harvest counts on from next_page.
            let pageLimit = (query.cap + query.perPage - 1) / query.perPage
            guard let slice = current["slice"].flatMap(HarvestState.slice), let next = current["next_page"]?.int,
                  let last = current["last_page"]?.int, 0 <= next, next <= pageLimit + 1, 0 <= last, last <= pageLimit,
                  let ids = current["ids"]?.array
            else { throw unusable("current") }
            self.current = slice
            nextPage = next
            lastPage = last
            for id in ids {
                guard let value = id.uint else { throw unusable("current.ids") }
                sliceIds.append(value)
            }
        }
        var numbers: [Int64] = []
        for name in ["items", "duplicates", "matched", "calls", "slices_done"] {
            guard let value = counts[name]?.int, value >= 0 else { throw unusable("counts.\(name)") }
            numbers.append(value)
        }
        report.items = numbers[0]
        report.duplicates = numbers[1]
        report.matched = numbers[2]
        report.calls = numbers[3]
        report.slicesDone = numbers[4]
        for entry in overCap {
            guard let pair = entry.array, pair.count == 2, let slice = HarvestState.slice(pair[0]), let total = pair[1].int,
                  total >= 0 else { throw unusable("over_cap") }
            report.overCap.append((slice, total))
        }
        report.slicesPending = Int64(pending.count)
        // Before the count was kept (a first version's checkpoint), what was claimed so far is taken as justified.
        report.justified = counts["justified"]?.int.map { Swift.max(0, $0) }
            ?? report.overCap.reduce(report.matched) { $0.addingSaturated($1.1) }
        if let saved = root["extra"], case .object = saved { extra = saved }
    }

    @_optimize(size)
    private static func slice(_ value: CheckpointJSON) -> HarvestSlice? {
        guard let parts = value.array, parts.count == 3 || parts.count == 4, let lo = parts[0].int, let hi = parts[1].int,
              -HarvestSlice.latest <= lo, lo <= hi, hi <= HarvestSlice.latest else { return nil }
        let derived = parts.count == 4 && parts[3].int == 1
        guard parts.count == 3 || derived || parts[3].int == 0 else { return nil }
        if parts[2].isNull { return HarvestSlice(lo: lo, hi: hi, license: nil, derived: derived) }
        guard let license = parts[2].int, license >= 0 else { return nil }
        return HarvestSlice(lo: lo, hi: hi, license: license, derived: derived)
    }
}
