// SPDX-License-Identifier: MIT

/// The libcurl options a plain REST transfer sets that stay the same from one call to the next
/// (user agent, connect timeout, size cap, CA file, proxy); the total timeout is the call's own
/// remaining time, set for each transfer (Transfer.arm). A pooled easy handle whose last transfer
/// left exactly these set is reused without `curl_easy_reset` and twenty options set again:
/// about a third of what libflickr added to libcurl's own work per call (bench/NOTES.md).
struct EasySetup: Equatable, Sendable {
    var userAgent: String
    var caFile: String?
    var proxy: String?
    var connectTimeoutMs: Int
    var maxResponseBytes: Int

    init(_ settings: Settings) {
        userAgent = settings.string(.userAgent) ?? LibraryVersion.userAgent
        proxy = settings.string(.proxy)
        caFile = settings.string(.caFile)
        connectTimeoutMs = settings.number(.connectTimeoutMs)
        maxResponseBytes = settings.number(.maxResponseBytes)
    }
}
