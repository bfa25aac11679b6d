// SPDX-License-Identifier: MIT

/// Paces a caller's progress callback: at most one call per `interval` while
/// bytes flow, counts that never go down, and always a final (total, total).
final class UploadProgress: @unchecked Sendable {
    /// Returns false to abort the upload.
    typealias Handler = @Sendable (_ sent: Int64, _ total: Int64) -> Bool

    private let handler: Handler
    private let intervalNs: UInt64
    private var lastCallNs: UInt64 = 0
    private var lastSent: Int64 = -1
    private(set) var finished = false

    init(handler: @escaping Handler, intervalMs: Int = 100) {
        self.handler = handler
        intervalNs = UInt64(intervalMs) * 1_000_000
    }

    /// Called from curl's transfer-info callback; false means the caller asked to stop.
    func report(sent: Int64, total: Int64) -> Bool {
        guard total > 0, !finished, sent > lastSent else { return true }
        let now = MonotonicClock.nowNs()
        let isLast = sent >= total
        guard isLast || lastSent < 0 || now &- lastCallNs >= intervalNs else { return true }
        lastCallNs = now
        lastSent = sent
        finished = isLast
        // Callbacks shut down: the caller cannot be asked, so the upload stops where it still can.
        return CallbackGate.run { handler(min(sent, total), total) } ?? false
    }

    /// Makes sure the final call came (when curl's last report fell short of the total).
    func complete(total: Int64) {
        _ = report(sent: total, total: total)
    }
}
