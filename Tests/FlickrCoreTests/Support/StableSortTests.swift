// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Support/StableSort.swift: the library's one sort, against the standard library's.
@Suite struct StableSortTests {
    @Test func sortsLikeTheStandardLibraryAtEverySize() {
        var generator = SystemRandomNumberGenerator()
        var checked = 0
        for count in [0, 1, 2, 3, 15, 16, 17, 31, 32, 33, 100, 1_000, 4_097] {
            for _ in 0..<5 {
                // Few distinct keys, so that equal keys are many; the offset tells their order.
                let keys = (0..<count).map { offset in (key: Int.random(in: 0..<max(1, count / 4), using: &generator), offset: offset) }
                let mine = keys.sortedStably { $0.key < $1.key }
                let theirs = keys.sorted { $0.key < $1.key }  // stable as well
                #expect(mine.map(\.offset) == theirs.map(\.offset), "\(count) elements")
                checked += 1
            }
        }
        print("StableSortTests: \(checked) arrays sorted")
    }

    @Test func keepsEqualElementsInTheirOrder() {
        var words = ["pear", "fig", "apple", "kiwi", "plum", "date", "lime", "sloe", "yuzu", "nut", "oat", "rye",
                     "figs", "pears", "dates", "limes", "kiwis", "plums"]
        words.sortStably { $0.count < $1.count }
        #expect(words == ["fig", "nut", "oat", "rye", "pear", "kiwi", "plum", "date", "lime", "sloe", "yuzu",
                          "figs", "apple", "pears", "dates", "limes", "kiwis", "plums"])
        #expect([3, 1, 2].sortedStably(by: >) == [3, 2, 1])
    }
}
