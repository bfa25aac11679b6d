// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The ring's arithmetic on plain memory, with a short window standing in for the hour (the window
/// is a parameter of `reserve`; the library passes KeyBudget.windowMs).
@Suite struct BudgetRingTests {
    /// Memory for a ring of `capacity` entries (8-byte aligned), zeroed.
    final class Memory {
        let base: UnsafeMutableRawPointer
        let length: Int
        init(bytes: Int) {
            length = bytes
            base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 8)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        }
        deinit { base.deallocate() }
        func ring(capacity: Int, nowMs: Int64 = 0) -> BudgetRing {
            BudgetRing.format(base, length: length, capacity: capacity, nowMs: nowMs)!
        }
    }

    @Test func atMostLimitStartsInAnyWindow() {
        // A seeded walk of 2,000 callers arriving at random times, some with deadlines.
        var random = SplitMix64(seed: 7)
        let limit = 5, window: Int64 = 1000
        let memory = Memory(bytes: BudgetRing.bytes(capacity: limit))
        let ring = memory.ring(capacity: limit)
        var now: Int64 = 10_000, starts: [Int64] = [], refused = 0
        for _ in 0..<2000 {
            now += Int64(random.next() % 300)
            let deadline: Int64? = random.next() % 2 == 0 ? now + Int64(random.next() % 2000) : nil
            switch ring.reserve(limit: limit, nowMs: now, windowMs: window, deadlineMs: deadline) {
            case .granted(let at):
                #expect(at >= now)
                if let deadline { #expect(at < deadline) }
                starts.append(at)
            case .full(let freeAt):
                #expect(deadline != nil && freeAt >= deadline!)
                refused += 1
            }
        }
        starts.sort()
        for (index, start) in starts.enumerated() {
            let inWindow = starts[index...].prefix { $0 < start + window }.count
            #expect(inWindow <= limit, "\(inWindow) starts in the window from \(start)")
        }
        // The budget was used, not only respected: the busiest windows are full.
        let full = starts.indices.filter { index in
            starts[index...].prefix { $0 < starts[index] + window }.count == limit
        }.count
        print("ring: \(starts.count) starts, \(refused) refused, \(full) full windows")
        #expect(full > 100 && refused > 0)
    }

    @Test func aFullBudgetSaysWhenASlotFreesAndTakesNothing() {
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 3))
        let ring = memory.ring(capacity: 3)
        for _ in 0..<3 { #expect(ring.reserve(limit: 3, nowMs: 100, windowMs: 1000, deadlineMs: 200) == .granted(atMs: 100)) }
        #expect(ring.reserve(limit: 3, nowMs: 150, windowMs: 1000, deadlineMs: 1000) == .full(freeAtMs: 1100))
        #expect(ring.count == 3)
        #expect(ring.reserve(limit: 3, nowMs: 150, windowMs: 1000, deadlineMs: nil) == .granted(atMs: 1100))
        // The next queues behind that reservation, and the ring stays ordered.
        #expect(ring.reserve(limit: 3, nowMs: 160, windowMs: 1000, deadlineMs: nil) == .granted(atMs: 1100))
        #expect(ring.entries == [100, 1100, 1100])
    }

    @Test func aBackOffHoldsItsHostOnlyAndNoLongerThanAnHour() {
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 10))
        let ring = memory.ring(capacity: 10)
        ring.backOff(untilMs: 5000, host: 7, nowMs: 100)
        ring.backOff(untilMs: 3000, host: 7, nowMs: 100)  // never shortened
        ring.backOff(untilMs: 4000, host: 8, nowMs: 100)  // another host's, ending sooner: the file keeps host 7's
        #expect(ring.backoff(for: 7, nowMs: 200) == 5000)
        #expect(ring.backoff(for: 8, nowMs: 200) == nil)
        #expect(ring.backoff(for: 7, nowMs: 5000) == nil)  // over
        // The ring's slots are not held by it: calls to other hosts go on.
        #expect(ring.reserve(limit: 10, nowMs: 200, windowMs: 1000, deadlineMs: 300) == .granted(atMs: 200))
        // 25 hours asked: an hour held; a longer one in the file (damaged) is not believed.
        ring.backOff(untilMs: 90_000_000, host: 9, nowMs: 1000)
        #expect(ring.backoff(for: 9, nowMs: 1000) == 1000 + BudgetRing.longestBackoffMs)
        _ = BudgetRing.format(memory.base, length: memory.length, capacity: 10, backoff: (90_000_000, 9), nowMs: 1000)
        #expect(BudgetRing.open(memory.base, length: memory.length)?.backoff(for: 9, nowMs: 1000) == nil)
        _ = BudgetRing.format(memory.base, length: memory.length, capacity: 10, backoff: (2000, 9), nowMs: 1000)
        #expect(BudgetRing.open(memory.base, length: memory.length)?.backoff(for: 9, nowMs: 1000) == 2000)
    }

    @Test func waitsAreSaidInUnitsPeopleRead() {
        let said = [1, 250, 2500, 59_999, 3_599_353, 90_000_000].map { FlickrError.duration(ms: Int64($0)) }
        print("waits: \(said)")
        #expect(said == ["1 ms", "250 ms", "2.5 s", "59 s", "59 min 59 s", "25 h 0 min"])
        #expect(FlickrError.budget("full", waitMs: 3_599_353).message == "full: a slot frees up in 59 min 59 s")
    }

    @Test func aClockGoingBackMovesTheStartsWithIt() {
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 2))
        let ring = memory.ring(capacity: 2, nowMs: 1_000_000)
        _ = ring.reserve(limit: 2, nowMs: 1_000_000, windowMs: 1000, deadlineMs: nil)
        _ = ring.reserve(limit: 2, nowMs: 1_000_100, windowMs: 1000, deadlineMs: nil)
        // The clock is set back 500 s: the starts were 0 and 100 ms ago, not 500 s in the future.
        #expect(ring.reserve(limit: 2, nowMs: 500_100, windowMs: 1000, deadlineMs: 500_100 + 5000)
            == .granted(atMs: 501_000))
        // Less than the slack is jitter between processes' clocks: nothing moves.
        #expect(ring.reserve(limit: 2, nowMs: 500_000, windowMs: 1000, deadlineMs: nil) == .granted(atMs: 501_100))
    }

    @Test func fewerAllowedThanTheRingHoldsCountsTheNewestOnly() {
        // N changes between processes: the ring holds the most any asked for; each counts its own N back.
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 10))
        let ring = memory.ring(capacity: 10)
        for t: Int64 in [0, 10, 20, 30] { _ = ring.reserve(limit: 10, nowMs: t, windowMs: 1000, deadlineMs: nil) }
        #expect(ring.reserve(limit: 2, nowMs: 40, windowMs: 1000, deadlineMs: 50) == .full(freeAtMs: 1020))
        #expect(ring.reserve(limit: 5, nowMs: 40, windowMs: 1000, deadlineMs: 50) == .granted(atMs: 40))
    }

    @Test func anyHeaderOutOfLineIsRefused() {
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 4))
        let raw = memory.base
        #expect(BudgetRing.open(raw, length: memory.length) == nil)  // zeroes: no magic
        _ = memory.ring(capacity: 4)
        #expect(BudgetRing.open(raw, length: memory.length)?.capacity == 4)
        #expect(BudgetRing.open(raw, length: memory.length - 1) == nil)  // the ring would overrun
        #expect(BudgetRing.open(raw, length: 10) == nil)
        let cases: [(field: Int, value: Int64)] = [
            (1, 2), (2, 0), (2, -1), (2, 5), (2, Int64(BudgetRing.maxCapacity) + 1), (2, .max), (3, 4), (3, -1),
            (4, 5), (4, -1), (4, .min),
        ]
        for (field, value) in cases {
            _ = memory.ring(capacity: 4)
            raw.storeBytes(of: value, toByteOffset: field * 8, as: Int64.self)
            #expect(BudgetRing.open(raw, length: memory.length) == nil, "field \(field) = \(value)")
        }
        print("ring: \(cases.count) bad headers refused")
    }

    @Test func absurdTimesInAValidHeaderNeverTrapNorHoldLong() {
        // Whatever a writer put in the entries and times, reserve's sums saturate and the wait is bounded.
        var random = SplitMix64(seed: 11)
        let memory = Memory(bytes: BudgetRing.bytes(capacity: 4))
        let extremes: [Int64] = [.min, .max, -1, 0, 1, .max - 1, .min + 1]
        for round in 0..<500 {
            _ = memory.ring(capacity: 4)
            for offset in stride(from: 40, to: memory.length, by: 8) {
                let value = round % 2 == 0 ? extremes[Int(random.next() % 7)] : Int64(bitPattern: random.next())
                memory.base.storeBytes(of: value, toByteOffset: offset, as: Int64.self)
            }
            guard let ring = BudgetRing.open(memory.base, length: memory.length) else { continue }
            let now = Int64(bitPattern: random.next() >> 2)
            switch ring.reserve(limit: 1 + Int(random.next() % 4), nowMs: now, windowMs: 3_600_000, deadlineMs: nil) {
            case .granted(let at): #expect(at >= now && at <= now.addingSaturated(BudgetRing.maxAheadMs))
            case .full: Issue.record("no deadline, yet refused")
            }
        }
    }
}
