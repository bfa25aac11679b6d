// SPDX-License-Identifier: MIT

/// The key's budget as it lies in its shared file: a header, then a ring of the start times (Unix
/// ms) of the latest calls, oldest to newest from `head`. A call may start once the N-th latest
/// start is a window (an hour) old: one look at one slot, however long the ring, so the check is
/// exact over the rolling hour and costs the same at 3,600 an hour as at 10.
///
/// Times are reserved, not only recorded: a call that must wait writes the time it will start, so
/// that the next caller queues behind it. Entries therefore never decrease along the ring.
///
/// Everything here is read from a file another process (or a crash, or a person) may have
/// written, so nothing read is trusted before it is checked: `open` refuses a header whose magic,
/// version, capacity, head or count is out of line, and every sum saturates.
///
/// Layout (native byte order, 8-byte fields): magic, version, capacity, head, count,
/// backoffUntilMs, lastNowMs, backoffHost; then `capacity` entries. The back-off (an HTTP 429) is
/// one API host's: `backoffHost` names it by a hash (never 0).
package struct BudgetRing {
    static let magic: UInt64 = 0x3154_4744_5542_464C  // "LFBUDGT1" as little-endian bytes
    static let version: Int64 = 1
    static let headerBytes = 64
    /// The most calls an hour FLICKR_OPT_BUDGET_PER_HOUR accepts (the header says): a ring of 800 KB.
    package static let maxCapacity = Int(clamping: ContextOption.budgetPerHour.range.upperBound)
    /// A clock that went back by more than this moves every entry back with it.
    static let clockSlackMs: Int64 = 1000
    /// No start is ever reserved further ahead than this (the longest time limit, 24 h, plus an
    /// hour): a file holding absurd times cannot hold calls back for longer.
    static let maxAheadMs: Int64 = 25 * 3_600_000
    /// The longest back-off a 429 sets, and believes in the file (docs/budget.md, "The key's back-off").
    static let longestBackoffMs: Int64 = 3_600_000

    private enum Field: Int {
        case magic = 0, version, capacity, head, count, backoffUntilMs, lastNowMs, backoffHost
    }

    private let base: UnsafeMutableRawPointer
    /// Checked by `open`: 1...maxCapacity, and the ring fits the mapping.
    package let capacity: Int

    /// The bytes a file of `capacity` entries needs.
    package static func bytes(capacity: Int) -> Int { headerBytes + 8 * capacity }

    /// The ring in `length` bytes at `base` (8-byte aligned), or nil when they do not hold a valid one.
    package static func open(_ base: UnsafeMutableRawPointer, length: Int) -> BudgetRing? {
        guard length >= headerBytes else { return nil }
        let raw = UnsafeRawPointer(base)
        guard raw.load(as: UInt64.self) == magic, raw.load(fromByteOffset: 8, as: Int64.self) == version else {
            return nil
        }
        let capacity = raw.load(fromByteOffset: 16, as: Int64.self)
        guard capacity >= 1, capacity <= Int64(maxCapacity), bytes(capacity: Int(capacity)) <= length else {
            return nil
        }
        let ring = BudgetRing(base: base, capacity: Int(capacity))
        guard (0..<capacity).contains(ring[.head]), (0...capacity).contains(ring[.count]) else { return nil }
        return ring
    }

    /// Writes an empty ring of `capacity` entries (1...maxCapacity, fitting `length`) holding the
    /// `kept` start times (oldest first; only the newest `capacity` are kept).
    @_optimize(size)
    package static func format(
        _ base: UnsafeMutableRawPointer, length: Int, capacity: Int, keeping kept: [Int64] = [],
        backoff: (untilMs: Int64, host: Int64) = (0, 0), nowMs: Int64
    ) -> BudgetRing? {
        guard capacity >= 1, capacity <= maxCapacity, bytes(capacity: capacity) <= length else { return nil }
        let ring = BudgetRing(base: base, capacity: capacity)
        let newest = kept.suffix(capacity)
        for (index, time) in newest.enumerated() { ring.setEntry(index, time) }
        for index in newest.count..<capacity { ring.setEntry(index, 0) }
        ring[.version] = version
        ring[.capacity] = Int64(capacity)
        ring[.head] = Int64(newest.count % capacity)
        ring[.count] = Int64(newest.count)
        ring[.backoffUntilMs] = backoff.untilMs
        ring[.backoffHost] = backoff.host
        ring[.lastNowMs] = nowMs
        base.storeBytes(of: magic, as: UInt64.self)  // last: a torn format is never taken for a valid one
        return ring
    }

    private init(base: UnsafeMutableRawPointer, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    private subscript(field: Field) -> Int64 {
        get { base.load(fromByteOffset: field.rawValue * 8, as: Int64.self) }
        nonmutating set { base.storeBytes(of: newValue, toByteOffset: field.rawValue * 8, as: Int64.self) }
    }

    /// Entry `index` (0..<capacity, checked by every caller).
    private func entry(_ index: Int) -> Int64 {
        base.load(fromByteOffset: BudgetRing.headerBytes + 8 * index, as: Int64.self)
    }

    private func setEntry(_ index: Int, _ value: Int64) {
        base.storeBytes(of: value, toByteOffset: BudgetRing.headerBytes + 8 * index, as: Int64.self)
    }

    /// How many start times the ring holds.
    package var count: Int { Int(self[.count]) }
    /// The back-off as the file holds it, to carry into a larger ring.
    package var storedBackoff: (untilMs: Int64, host: Int64) { (self[.backoffUntilMs], self[.backoffHost]) }

    /// The `back`-th latest start (1: the newest); `back` in 1...count.
    private func latest(_ back: Int) -> Int64 {
        entry((Int(self[.head]) + capacity - back) % capacity)
    }

    /// The start times held, oldest first (to carry them into a larger ring).
    package var entries: [Int64] {
        (0..<count).reversed().map { latest($0 + 1) }
    }

    /// What a reservation found.
    package enum Outcome: Equatable {
        /// A start is reserved at this time (Unix ms; now or later).
        case granted(atMs: Int64)
        /// The first free start is at this time, at or past the caller's deadline: nothing was taken.
        case full(freeAtMs: Int64)
    }

    /// Reserves the first start at which at most `limit` (1...capacity) starts fall in any window
    /// of `windowMs`, not before the latest reservation (so the ring stays ordered); refuses, taking
    /// nothing, when that is at or past `deadlineMs`. A host's back-off is not in it (`backoff(for:)`):
    /// a reservation waiting one out would hold back the calls to every other host behind it.
    package func reserve(limit: Int, nowMs: Int64, windowMs: Int64, deadlineMs: Int64?) -> Outcome {
        followClock(nowMs: nowMs)
        let held = count
        var due = nowMs
        if held > 0 { due = max(due, latest(1)) }
        if limit >= 1, limit <= held { due = max(due, latest(limit).addingSaturated(windowMs)) }
        due = min(due, nowMs.addingSaturated(BudgetRing.maxAheadMs))
        if let deadlineMs, due >= deadlineMs { return .full(freeAtMs: due) }
        let head = Int(self[.head])
        setEntry(head, due)
        self[.head] = Int64((head + 1) % capacity)
        self[.count] = Int64(min(held + 1, capacity))
        return .granted(atMs: due)
    }

    /// Holds the calls to `host` (a hash, not 0) back until `untilMs`, at most `longestBackoffMs`
    /// from now (the server said it is over its limit); never shortens that host's. The file holds
    /// one host's back-off: another host's replaces it when it ends later.
    package func backOff(untilMs: Int64, host: Int64, nowMs: Int64) {
        followClock(nowMs: nowMs)
        let bounded = min(untilMs, nowMs.addingSaturated(BudgetRing.longestBackoffMs))
        let current = self[.backoffUntilMs]
        let believed = current > nowMs && current <= nowMs.addingSaturated(BudgetRing.longestBackoffMs)
        if bounded > (believed ? current : nowMs) {
            self[.backoffUntilMs] = bounded
            self[.backoffHost] = host
        }
    }

    /// When the back-off of the calls to `host` ends, if one holds them now: the file's back-off when
    /// it is that host's and ends within `longestBackoffMs` (a later end is not believed: damaged).
    package func backoff(for host: Int64, nowMs: Int64) -> Int64? {
        let until = self[.backoffUntilMs]
        guard until > nowMs, self[.backoffHost] == host,
            until <= nowMs.addingSaturated(BudgetRing.longestBackoffMs) else { return nil }
        return until
    }

    /// When the wall clock went back (by more than a second) since the last writer, every time
    /// held moves back as far, so the starts keep their true distance from now and nothing waits
    /// for the lost stretch to pass again. A clock that jumps forward cannot be told from a quiet
    /// spell: the entries then just age faster.
    private func followClock(nowMs: Int64) {
        let last = self[.lastNowMs]
        let back = last.subtractingSaturated(nowMs)
        if back > BudgetRing.clockSlackMs {
            for index in 0..<count { setEntry(index, entry(index).subtractingSaturated(back)) }
            self[.backoffUntilMs] = self[.backoffUntilMs].subtractingSaturated(back)
            self[.lastNowMs] = nowMs
        } else if nowMs > last {
            self[.lastNowMs] = nowMs
        }
    }
}
