// SPDX-License-Identifier: MIT

/// The image hosts' own limits: a download answered HTTP 429 holds back every download from that
/// host (scheme, host and port), in every context of the process, for its Retry-After (10 s
/// without one; at most an hour). Downloads never count against the API key's budget.
package enum HostBackoff {
    static let defaultMs = 10_000
    static let longestMs = 3_600_000
    /// Hosts remembered at once (expired ones go first): a bound, whatever the hosts.
    static let maxHosts = 64

    /// Monotonic ns until which each host is held back.
    private static let until = Locked<[String: UInt64]>([:])

    @_optimize(size)
    static func lockForFork() { until.lockForFork() }
    @_optimize(size)
    static func unlockAfterFork() { until.unlockAfterFork() }

    /// False when no host has been held back in this process (the common case: no URL is parsed then).
    static var isHoldingAny: Bool { until.withLock { !$0.isEmpty } }

    /// The host part of `url` that a back-off applies to, or nil when it cannot be read.
    @_optimize(size)
    static func key(ofURL url: String) -> String? {
        guard let parsed = try? EndpointURL(parsing: url, what: "the photo URL") else { return nil }
        return "\(parsed.scheme)://\(parsed.host):\(parsed.effectivePort)"
    }

    /// The host answered 429: hold it back from now.
    @_optimize(size)
    static func note(_ host: String, retryAfterSeconds: Int?) {
        let waitMs = min(retryAfterSeconds.map { $0.multipliedSaturated(by: 1000) } ?? defaultMs, longestMs)
        let now = MonotonicClock.nowNs()
        let end = now.addingSaturated(.nanoseconds(milliseconds: max(0, waitMs)))
        until.withLock { table in
            table = table.filter { $0.value > now }
            if table.count >= maxHosts, table[host] == nil, let first = table.keys.first { table[first] = nil }
            table[host] = max(table[host] ?? 0, end)
        }
    }

    /// When a download from `host` may start (monotonic ns; 0: at once). Throws FLICKR_EBUDGET
    /// when that is at or past the call's deadline (`deadlineNs`, 0 for none).
    @_optimize(size)
    static func start(for host: String, deadlineNs: UInt64) throws(FlickrError) -> UInt64 {
        let now = MonotonicClock.nowNs()
        guard let end = until.withLock({ $0[host] }), end > now else { return 0 }
        if deadlineNs != 0, end >= deadlineNs {
            throw refusal("the image host \(host)", waitMs: Int64(clamping: (end - now) / 1_000_000))
        }
        return end
    }

    /// FLICKR_EBUDGET for a call to `host` ("the image host https://..."), which answered HTTP 429
    /// and asked to wait `waitMs` more, past the call's time limit.
    @_optimize(size)
    static func refusal(_ host: String, waitMs: Int64) -> FlickrError {
        FlickrError.budget(
            "\(host) answered HTTP 429 (too many requests) and asked to wait past the call's time limit"
                + " (FLICKR_OPT_TIMEOUT_MS)", waitMs: waitMs)
    }
}
