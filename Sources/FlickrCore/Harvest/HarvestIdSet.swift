// SPDX-License-Identifier: MIT

/// The ids a harvest gave out, in about 8 bytes each: a sorted array and a small set of recent
/// ones merged into it when full (a harvest of millions of items remembers every id).
struct HarvestIdSet {
    private static let bufferLimit = 65_536
    private var sorted: [UInt64] = []
    private var recent = Set<UInt64>()

    var count: Int { sorted.count + recent.count }

    @_optimize(size)
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
    @_optimize(size)
    mutating func insert(_ id: UInt64) -> Bool {
        if contains(id) { return false }
        recent.insert(id)
        if recent.count >= HarvestIdSet.bufferLimit {
            sorted = HarvestIdSet.merged(sorted, Array(recent).sortedStably(by: <))
            recent.removeAll(keepingCapacity: true)
        }
        return true
    }

    /// Two sorted arrays of distinct ids as one, in one pass (sorting the whole array again at
    /// every merge would cost n log n each time for a harvest of millions).
    @_optimize(size)
    private static func merged(_ old: [UInt64], _ new: [UInt64]) -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(old.count + new.count)
        var left = 0
        var right = 0
        while left < old.count || right < new.count {
            if right == new.count || (left < old.count && old[left] < new[right]) {
                out.append(old[left])
                left += 1
            } else {
                out.append(new[right])
                right += 1
            }
        }
        return out
    }
}
