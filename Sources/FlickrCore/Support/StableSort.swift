// SPDX-License-Identifier: MIT

extension Array {
    /// Sorts the elements in place, stably (equal elements keep their order), by `precedes`: an
    /// insertion sort up to 16 elements, a bottom-up merge sort above. The standard library's
    /// `sort` is 4 to 6 KB of code for each element type and comparison it is specialised for;
    /// eight of them were 38 KB of the library (bench/NOTES.md, Change 22). This is about a tenth.
    mutating func sortStably(by precedes: (Element, Element) -> Bool) {
        let count = self.count
        guard count > 1 else { return }
        if count <= 16 {
            withUnsafeMutableBufferPointer { elements in
                for index in 1..<count {
                    let element = elements[index]
                    var slot = index
                    while slot > 0 && precedes(element, elements[slot - 1]) {
                        elements[slot] = elements[slot - 1]
                        slot -= 1
                    }
                    elements[slot] = element
                }
            }
            return
        }
        // Runs of `width` merged pairwise from `source` into `target`, which then swap roles.
        var source = self
        var target = self
        var width = 1
        while width < count {
            source.withUnsafeBufferPointer { from in
                target.withUnsafeMutableBufferPointer { to in
                    var low = 0
                    while low < count {
                        let middle = Swift.min(low + width, count)
                        let high = Swift.min(middle + width, count)
                        var left = low
                        var right = middle
                        for slot in low..<high {
                            // The right run's element first only if it strictly precedes: stable.
                            if right < high && (left == middle || precedes(from[right], from[left])) {
                                to[slot] = from[right]
                                right += 1
                            } else {
                                to[slot] = from[left]
                                left += 1
                            }
                        }
                        low = high
                    }
                }
            }
            swap(&source, &target)
            width *= 2
        }
        self = source
    }

    /// The elements sorted stably by `precedes` (see `sortStably(by:)`).
    func sortedStably(by precedes: (Element, Element) -> Bool) -> [Element] {
        var copy = self
        copy.sortStably(by: precedes)
        return copy
    }
}
