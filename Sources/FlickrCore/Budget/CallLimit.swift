// SPDX-License-Identifier: MIT

/// Which shared limit a request counts against, besides its context's rate limit: API calls
/// against the key's budget (FLICKR_OPT_BUDGET_PER_HOUR, when set), image downloads against their
/// host's 429 back-off (always), never both.
package enum CallLimit: Sendable {
    case apiKey
    /// A download from the image host of this URL.
    case imageHost(url: String)

    /// When an attempt at `url` may start (monotonic ns; 0: at once), its slot taken. FLICKR_EBUDGET when
    /// not before the call's deadline. `wait` is only made when a limit applies: without a budget
    /// and a back-off, a call pays one option read and one look at an empty table.
    func start(
        settings: Settings, url: String, within wait: @autoclosure () -> WaitLimit
    ) throws(FlickrError) -> UInt64 {
        switch self {
        case .apiKey:
            guard settings.number(.budgetPerHour) > 0 else { return 0 }
            return try KeyBudget.reserve(settings: settings, url: url, within: wait())
        case .imageHost(let url):
            guard HostBackoff.isHoldingAny, let host = HostBackoff.key(ofURL: url) else { return 0 }
            return try HostBackoff.start(for: host, deadlineNs: wait().deadlineNs)
        }
    }

    /// The server of `url` answered HTTP 429: the key's calls to that host, or the image host, back off
    /// for everyone sharing it.
    func overLimit(settings: Settings, url: String, retryAfterSeconds: Int?, within wait: WaitLimit) {
        switch self {
        case .apiKey:
            KeyBudget.backOff(settings: settings, url: url, retryAfterSeconds: retryAfterSeconds, within: wait)
        case .imageHost(let url):
            guard let host = HostBackoff.key(ofURL: url) else { return }
            HostBackoff.note(host, retryAfterSeconds: retryAfterSeconds)
        }
    }
}
