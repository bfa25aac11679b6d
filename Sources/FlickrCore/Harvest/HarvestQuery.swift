// SPDX-License-Identifier: MIT

/// What a harvest asks: the method and its parameters (without the date bounds, page, per_page
/// and license, which the harvest sets), the date range, the minimum slice and the shard. Read
/// from the C options, and written into the checkpoint as the Python binding writes it (a
/// checkpoint of one resumes in the other).
struct HarvestQuery {
    var method: String
    var parameters: [(String, String)]
    var taken = false
    var lo: Int64
    var hi: Int64
    /// Whether the caller gave the range's end; else it is a day past now, and a resumed harvest
    /// keeps its first run's.
    var hiGiven = false
    var minSlice: Int64 = 60
    var shard: Int64 = 1
    var shards: Int64 = 1
    var cap = Int64(FlickrLimits.searchResultCap)
    var perPage = Int64(FlickrLimits.maxPerPage)
    var license: String?
    var licenses: [Int64]?
    var checkpoint: String?

    @_optimize(size)
    init(method: String, parameters: [(String, String)], options: [(String, String)], now: Int64) throws(FlickrError) {
        self.method = method
        for (name, value) in options {
            switch name {
            case "dates":
                guard value == "upload" || value == "taken" else { throw .invalid("dates must be upload or taken, not \(value)") }
                taken = value == "taken"
            case "min_slice":
                guard let seconds = HarvestQuery.whole(value), seconds >= 1 else {
                    throw .invalid("min_slice must be a number of seconds, at least 1")
                }
                minSlice = seconds
            case "shard":
                let parts = value.split(separator: "/", omittingEmptySubsequences: false)
                guard parts.count == 2, let k = HarvestQuery.whole(String(parts[0])), let n = HarvestQuery.whole(String(parts[1])),
                      1 <= k, k <= n, n <= 10_000 else { throw .invalid("shard must be K/N with 1 <= K <= N <= 10000") }
                shard = k
                shards = n
            case "checkpoint":
                guard !value.isEmpty else { throw .invalid("checkpoint must be a file path") }
                checkpoint = value
            default:
                throw .invalid("unknown harvest option \(name) (dates, min_slice, shard, checkpoint)")
            }
        }
        let (low, high) = taken ? ("min_taken_date", "max_taken_date") : ("min_upload_date", "max_upload_date")
        lo = taken ? HarvestSlice.earliestTaken : HarvestSlice.earliestUpload
        hi = now + 86400
        self.parameters = []
        for (name, value) in parameters {
            switch name {
            case low, high:
                guard let stamp = HarvestQuery.whole(value) else {
                    throw .invalid("\(name) must be unix seconds for a harvest, not \(value)")
                }
                if name == low { lo = stamp } else { hi = stamp; hiGiven = true }
            case "license":
                var ids: [Int64] = []
                for part in value.split(separator: ",") where !part.allSatisfy({ $0 == " " }) {
                    guard let id = HarvestQuery.whole(String(part)), id >= 0 else {
                        throw .invalid("license must be licence ids, comma-separated, not \(value)")
                    }
                    if !ids.contains(id) { ids.append(id) }
                }
                guard !ids.isEmpty else { throw .invalid("license must be licence ids, comma-separated, not \(value)") }
                license = value
                licenses = ids.sortedStably(by: <)
            case "page", "per_page", "min_upload_date", "max_upload_date", "min_taken_date", "max_taken_date":
                continue  // the harvest's own (the other date kind is the caller's filter: kept below)
            default:
                self.parameters.append((name, value))
            }
        }
        // The other kind of dates filters the query; kept as given.
        for (name, value) in parameters where (taken ? ["min_upload_date", "max_upload_date"]
                                               : ["min_taken_date", "max_taken_date"]).contains(name) {
            self.parameters.append((name, value))
        }
        guard -HarvestSlice.latest <= lo, lo <= hi, hi <= HarvestSlice.latest else {
            throw .invalid("\(low) must not be after \(high)")
        }
    }

    /// Digits with an optional minus, at most 12 of them (unix seconds, counts), as Python reads them.
    @_optimize(size)
    static func whole(_ text: String) -> Int64? {
        var body = Substring(text)
        while body.first == " " { body = body.dropFirst() }
        while body.last == " " { body = body.dropLast() }
        let negative = body.first == "-"
        let digits = negative ? body.dropFirst() : body
        guard !digits.isEmpty, digits.count <= 12, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let value = Int64(digits) else { return nil }
        return negative ? -value : value
    }

    /// The query as the checkpoint holds it (and compares it).
    var json: CheckpointJSON {
        .object([("method", .string(method)), ("params", .object(parameters.map { ($0.0, .string($0.1)) })),
                 ("dates", .string(taken ? "taken" : "upload")), ("min", .int(lo)), ("max", .int(hi)),
                 ("min_slice", .int(minSlice)), ("shard", .array([.int(shard), .int(shards)])), ("cap", .int(cap)),
                 ("per_page", .int(perPage)), ("license", license.map(CheckpointJSON.string) ?? .null)])
    }
}
