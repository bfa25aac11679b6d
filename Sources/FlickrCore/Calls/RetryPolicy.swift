// SPDX-License-Identifier: MIT

/// When and how long to wait before trying a request again.
///
/// Retried: connection failures and timeouts, HTTP 429/500/502/503/504, and
/// Flickr's 105 "Service currently unavailable" — Flickr's usual passing
/// troubles. Only idempotent requests (GET calls) are retried, unless the
/// context opts in for POST and uploads (FLICKR_OPT_RETRY_POST). The wait is
/// exponential with jitter, from FLICKR_OPT_RETRY_BASE_MS, at most 30 s; a
/// Retry-After answer is honoured (up to 120 s: a longer one is not waited for).
struct RetryPolicy {
    static let maxBackoffMs = 30_000
    static let maxRetryAfterMs = 120_000

    let maxRetries: Int
    let baseMs: Int
    let allowed: Bool

    init(settings: Settings, idempotent: Bool, resendable: Bool) {
        maxRetries = settings.number(.maxRetries)
        baseMs = settings.number(.retryBaseMs)
        allowed = resendable && (idempotent || settings.number(.retryPost) != 0)
    }

    /// Whether this failure is worth another try at all.
    static func isTransient(_ error: FlickrError) -> Bool {
        switch error.code {
        case .network, .timeout:
            return true
        case .http:
            return [429, 500, 502, 503, 504].contains(error.httpStatus)
        case .api:
            return error.apiCode == 105
        default:
            return false
        }
    }

    /// The wait before retry number `retry` (1-based), or nil not to retry.
    func delayMs(for error: FlickrError, retry: Int, retryAfterSeconds: Int?) -> Int? {
        guard allowed, retry >= 1, retry <= maxRetries, RetryPolicy.isTransient(error) else { return nil }
        let exponential = min(max(baseMs, 0).multipliedSaturated(by: 1 << min(retry - 1, 16)),
                              RetryPolicy.maxBackoffMs)
        // "Equal jitter": half fixed, half random, so retries spread but still back off.
        var delay = exponential / 2 + (exponential > 1 ? Int.random(in: 0...(exponential / 2)) : 0)
        if let retryAfterSeconds, retryAfterSeconds >= 0 {
            // The server's number: saturating, then judged against the longest wait we accept.
            let asked = retryAfterSeconds.multipliedSaturated(by: 1000)
            guard asked <= RetryPolicy.maxRetryAfterMs else { return nil }
            delay = max(delay, asked)
        }
        return delay
    }
}
