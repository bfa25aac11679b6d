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
        /// ForkGeneration.current of `byKey`: a child of a fork opens its own files (a shared open
        /// would share the flock with the parent, which then would not exclude the child).
        var generation: UInt64 = 0
        /// A parent's files, in a child: never closed there (their mutex may have been held at the fork).
        var abandoned: [BudgetFile] = []
    }

    private static let files = Locked(Files())

    /// This process's file for `apiKey`, opened on first use.
    private static func file(forKey apiKey: String) throws(FlickrError) -> BudgetFile {
        try files.withLock { (state: inout Files) throws(FlickrError) -> BudgetFile in
            if state.generation != ForkGeneration.current {
                state.abandoned.append(contentsOf: state.byKey.values)
                state.byKey.removeAll()
                state.generation = ForkGeneration.current
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

    /// What the key's file allows a call.
    private enum Found {
        /// The budget's slot is taken: the call may start at `atMs`, or when its host's back-off ends.
        case start(atMs: Int64, heldUntilMs: Int64?)
        /// No slot before the call's deadline: nothing taken.
        case full(freeAtMs: Int64)
        /// Its host asked (HTTP 429) to wait past the call's deadline: nothing taken.
        case heldBack(untilMs: Int64)
    }

    /// Reserves a start for a call to `url` under the key's budget, when the settings set one: the
    /// monotonic time (ns) at which it may start, 0 when the budget is off. Throws FLICKR_EBUDGET,
    /// taking nothing, when that start is at or past the call's deadline (`wait.deadlineNs`).
    static func reserve(settings: Settings, url: String, within wait: WaitLimit) throws(FlickrError) -> UInt64 {
        let perHour = settings.number(.budgetPerHour)
        guard perHour > 0 else { return 0 }
        let file = try file(forKey: settings.apiKey)
        let nowNs = MonotonicClock.nowNs(), nowMs = wallClockMs()
        if wait.deadlineNs != 0, nowNs >= wait.deadlineNs { throw Engine.outOfTime }
        let deadlineMs = wait.deadlineNs == 0
            ? nil : nowMs.addingSaturated(Int64(clamping: (wait.deadlineNs &- min(nowNs, wait.deadlineNs)) / 1_000_000))
        let found = try file.withRing(holding: perHour, nowMs: nowMs, within: wait) { ring -> Found in
            // The host is hashed only when some host is held back (rare): a call pays nothing otherwise.
            let held = ring.storedBackoff.untilMs > nowMs ? ring.backoff(for: hostTag(url), nowMs: nowMs) : nil
            if let held, let deadlineMs, held >= deadlineMs { return .heldBack(untilMs: held) }
            switch ring.reserve(limit: perHour, nowMs: nowMs, windowMs: windowMs, deadlineMs: deadlineMs) {
            case .granted(let atMs): return .start(atMs: atMs, heldUntilMs: held)
            case .full(let freeAtMs): return .full(freeAtMs: freeAtMs)
            }
        }
        switch found {
        case .start(let atMs, let heldUntilMs):
            let startMs = max(atMs, heldUntilMs ?? atMs)
            return nowNs.addingSaturated(.nanoseconds(milliseconds: Int(clamping: max(0, startMs - nowMs))))
        case .full(let freeAtMs):
            throw FlickrError.budget(
                "the API key's budget (FLICKR_OPT_BUDGET_PER_HOUR: \(perHour) calls an hour, shared by every"
                    + " process using the key) has no slot before the call's time limit (FLICKR_OPT_TIMEOUT_MS)",
                waitMs: freeAtMs.subtractingSaturated(nowMs))
        case .heldBack(let untilMs):
            throw HostBackoff.refusal(
                "the API host \(HostBackoff.key(ofURL: url) ?? url)", waitMs: untilMs.subtractingSaturated(nowMs))
        }
    }

    /// Flickr answered `url` that the key is over its limit (HTTP 429): every context of the key, in
    /// every process, holds back its calls to that host (scheme, host and port) for
    /// `retryAfterSeconds` (30 s without one; at most BudgetRing.longestBackoffMs).
    @_optimize(size)
    static func backOff(settings: Settings, url: String, retryAfterSeconds: Int?, within wait: WaitLimit) {
        let perHour = settings.number(.budgetPerHour)
        guard perHour > 0, let file = try? file(forKey: settings.apiKey) else { return }
        let nowMs = wallClockMs(), host = hostTag(url)
        let waitMs = retryAfterSeconds.map { Int64(clamping: $0).multipliedSaturated(by: 1000) } ?? defaultBackoffMs
        _ = try? file.withRing(holding: perHour, nowMs: nowMs, within: wait) { ring in
            ring.backOff(untilMs: nowMs.addingSaturated(max(0, waitMs)), host: host, nowMs: nowMs)
        }
    }

    /// The back-off's name for the host of `url` in the file: 64 bits of the SHA-256 of its scheme,
    /// host and port, never 0 (a file's zeroes name no host).
    @_optimize(size)
    private static func hostTag(_ url: String) -> Int64 {
        let host = HostBackoff.key(ofURL: url) ?? url
        guard let digest = Crypto.sha256(Array(host.utf8)), digest.count >= 8 else { return 1 }
        let tag = digest.prefix(8).reduce(Int64(0)) { ($0 << 8) | Int64($1) }
        return tag == 0 ? 1 : tag
    }

    /// Unix time in ms: the only clock every process (and a later boot) reads alike.
    static func wallClockMs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec).multipliedSaturated(by: 1000).addingSaturated(Int64(ts.tv_nsec / 1_000_000))
    }
}
