// SPDX-License-Identifier: MIT

/// A harvest's counts (a resumed one's include the runs before): items given out, each once;
/// the sum of the totals of the slices paged through; duplicates dropped; calls; and the slices
/// still over the cap at the minimum size, by licence, with their totals (Flickr serves only the
/// first `cap` of each).
struct HarvestReport {
    var items: Int64 = 0
    var duplicates: Int64 = 0
    var matched: Int64 = 0
    var calls: Int64 = 0
    var slicesDone: Int64 = 0
    var slicesPending: Int64 = 0
    var overCap: [(HarvestSlice, Int64)] = []
    /// The sum of the totals of the slices first asked (not parts of an answered one): what the
    /// totals of the slices paged through or left over the cap may add up to (the checkpoint keeps it).
    var justified: Int64 = 0

    var missing: Int64 { Swift.max(0, matched - items) }
    var finished: Bool { slicesPending == 0 }
    var complete: Bool { finished && overCap.isEmpty && missing == 0 }

    /// The Python binding's `Report.to_json()`, field for field.
    var json: CheckpointJSON {
        .object([("items", .int(items)), ("matched", .int(matched)), ("missing", .int(missing)),
                 ("duplicates", .int(duplicates)), ("calls", .int(calls)), ("slices_done", .int(slicesDone)),
                 ("slices_pending", .int(slicesPending)), ("finished", .bool(finished)), ("complete", .bool(complete)),
                 ("over_cap", .array(overCap.map { slice, total in
                     .object([("min", .int(slice.lo)), ("max", .int(slice.hi)), ("from", .string(HarvestSlice.utc(slice.lo))),
                              ("to", .string(HarvestSlice.utc(slice.hi))),
                              ("license", slice.license.map(CheckpointJSON.int) ?? .null), ("total", .int(total))])
                 }))])
    }
}
