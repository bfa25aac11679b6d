// SPDX-License-Identifier: MIT

/// The ids a harvest gave out, in about 8 bytes each: a sorted array and a small set of recent
/// ones merged into it when full (a harvest of millions of items remembers every id).
struct HarvestIdSet {
    private static let bufferLimit = 65_536
    private var sorted: [UInt64] = []
    private var recent = Set<UInt64>()

    var count: Int { sorted.count + recent.count }

    func contains(_ id: UInt64) -> Bool {
        if recent.contains(id) { return true }
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = low + (high - low) / 2
            if sorted[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == id
    }

    /// Adds `id`; true if it was not there yet.
    mutating func insert(_ id: UInt64) -> Bool {
        if contains(id) { return false }
        recent.insert(id)
        if recent.count >= HarvestIdSet.bufferLimit {
            sorted.append(contentsOf: recent)
            sorted.sort()
            recent.removeAll(keepingCapacity: true)
        }
        return true
    }
}
