// SPDX-License-Identifier: MIT

/// The libcurl options a plain REST transfer sets that stay the same from one call to the next
/// (user agent, timeouts, size cap, CA file, proxy). A pooled easy handle whose last transfer
/// left exactly these set is reused without `curl_easy_reset` and twenty options set again:
/// about a third of what libflickr added to libcurl's own work per call (bench/NOTES.md).
struct EasySetup: Equatable, Sendable {
    var userAgent: String
    var caFile: String?
    var proxy: String?
    var timeoutMs: Int
    var connectTimeoutMs: Int
    var maxResponseBytes: Int

    init(_ settings: Settings) {
        userAgent = settings.string(.userAgent) ?? LibraryVersion.userAgent
        proxy = settings.string(.proxy)
        caFile = settings.string(.caFile)
        timeoutMs = settings.number(.timeoutMs)
        connectTimeoutMs = settings.number(.connectTimeoutMs)
        maxResponseBytes = settings.number(.maxResponseBytes)
    }
}
