// SPDX-License-Identifier: MIT

import Glibc

/// FLICKR_OPT_BUDGET_PER_HOUR: each API key's calls per rolling hour, shared by every process of
/// the user through the key's `BudgetFile` (docs/budget.md). This is the process's side: one open
/// file per key for all its contexts, and the conversion between the file's wall-clock times and
/// the monotonic clock the engine schedules by.
package enum KeyBudget {
    package static let windowMs: Int64 = 3_600_000
    /// How long the key backs off after an HTTP 429 that names no Retry-After.
    static let defaultBackoffMs: Int64 = 30_000

    private struct Files {
        var byKey: [String: BudgetFile] = [:]
        /// ForkGuard.generation of `byKey`: a child of a fork opens its own files (a shared open
        /// would share the flock with the parent, which then would not exclude the child).
        var generation: UInt64 = 0
        /// A parent's files, in a child: never closed there (their mutex may have been held at the fork).
        var abandoned: [BudgetFile] = []
    }

    private static let files = Locked(Files())

    /// This process's file for `apiKey`, opened on first use.
    private static func file(forKey apiKey: String) throws(FlickrError) -> BudgetFile {
        try files.withLock { (state: inout Files) throws(FlickrError) -> BudgetFile in
            if state.generation != ForkGuard.generation {
                state.abandoned.append(contentsOf: state.byKey.values)
                state.byKey.removeAll()
                state.generation = ForkGuard.generation
            }
            if let file = state.byKey[apiKey] { return file }
            let file = try BudgetFile(
                directory: try BudgetDirectory.forCache(), name: try BudgetDirectory.fileName(forKey: apiKey))
            state.byKey[apiKey] = file
            return file
        }
    }

    static func lockForFork() { files.lockForFork() }
    static func unlockAfterFork() { files.unlockAfterFork() }

    /// Reserves a start for a call under the key's budget, when the settings set one: the monotonic
    /// time (ns) at which it may start, 0 when the budget is off. Throws FLICKR_EBUDGET, taking
    /// nothing, when that start is at or past the call's deadline (`wait.deadlineNs`).
    static func reserve(settings: Settings, within wait: WaitLimit) throws(FlickrError) -> UInt64 {
        let perHour = settings.number(.budgetPerHour)
        guard perHour > 0 else { return 0 }
        let file = try file(forKey: settings.apiKey)
        let nowNs = Engine.nowNs(), nowMs = wallClockMs()
        if wait.deadlineNs != 0, nowNs >= wait.deadlineNs { throw Engine.outOfTime }
        let deadlineMs = wait.deadlineNs == 0
            ? nil : nowMs.addingSaturated(Int64(clamping: (wait.deadlineNs &- min(nowNs, wait.deadlineNs)) / 1_000_000))
        let outcome = try file.withRing(holding: perHour, nowMs: nowMs, within: wait) { ring in
            ring.reserve(limit: perHour, nowMs: nowMs, windowMs: windowMs, deadlineMs: deadlineMs)
        }
        switch outcome {
        case .granted(let atMs):
            return nowNs.addingSaturated(.nanoseconds(milliseconds: Int(clamping: max(0, atMs - nowMs))))
        case .full(let freeAtMs):
            throw FlickrError.budget(
                "the API key's budget (FLICKR_OPT_BUDGET_PER_HOUR: \(perHour) calls an hour, shared by every"
                    + " process using the key) has no slot before the call's time limit (FLICKR_OPT_TIMEOUT_MS)",
                waitMs: freeAtMs.subtractingSaturated(nowMs))
        }
    }

    /// Flickr answered that the key is over its limit (HTTP 429): every context of the key, in every
    /// process, holds back for `retryAfterSeconds` (30 s without one; at most 25 h).
    static func backOff(settings: Settings, retryAfterSeconds: Int?, within wait: WaitLimit) {
        let perHour = settings.number(.budgetPerHour)
        guard perHour > 0, let file = try? file(forKey: settings.apiKey) else { return }
        let nowMs = wallClockMs()
        let waitMs = retryAfterSeconds.map { Int64(clamping: $0).multipliedSaturated(by: 1000) } ?? defaultBackoffMs
        _ = try? file.withRing(holding: perHour, nowMs: nowMs, within: wait) { ring in
            ring.backOff(untilMs: nowMs.addingSaturated(max(0, waitMs)), nowMs: nowMs)
        }
    }

    /// Unix time in ms: the only clock every process (and a later boot) reads alike.
    static func wallClockMs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec).multipliedSaturated(by: 1000).addingSaturated(Int64(ts.tv_nsec / 1_000_000))
    }
}
