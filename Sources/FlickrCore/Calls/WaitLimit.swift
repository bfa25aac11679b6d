// SPDX-License-Identifier: MIT

/// What ends a call's wait that is not on the network (a photo cache lock that
/// another thread or process holds, perhaps a stopped one, for as long as it
/// likes): the call's deadline, the caller's interrupt callback (synchronous
/// calls) and cancellation (asynchronous ones, whose callbacks are not asked).
package struct WaitLimit {
    /// When the call must be over (monotonic ns); 0 when it has no limit.
    let deadlineNs: UInt64
    let interrupt: InterruptCheck?
    /// True once the request was cancelled.
    let isCancelled: (() -> Bool)?

    /// No deadline, nobody to ask: waits until `attempt` succeeds.
    static var unlimited: WaitLimit { WaitLimit(deadlineNs: 0, interrupt: nil, isCancelled: nil) }

    static let firstPauseNs: UInt64 = 1_000_000
    static let longestPauseNs: UInt64 = 50_000_000

    /// The call's deadline for a call started at `startedNs` (FLICKR_OPT_TIMEOUT_MS), or 0 for none.
    static func deadline(startedNs: UInt64, settings: Settings) -> UInt64 {
        let timeoutMs = settings.number(.timeoutMs)
        return timeoutMs > 0 ? startedNs.addingSaturated(.nanoseconds(milliseconds: timeoutMs)) : 0
    }

    /// Calls `attempt` until it answers true, pausing between tries (1 ms, doubling up to 50 ms: a
    /// lock held for a moment is taken at once, one held long costs 20 tries a second). Throws
    /// FLICKR_ETIMEOUT naming `what` once the deadline has passed, FLICKR_EABORTED when the
    /// interrupt callback (asked every InterruptCheck.intervalNs) says stop or the request is cancelled.
    func poll(waitingFor what: () -> String, _ attempt: () throws(FlickrError) -> Bool) throws(FlickrError) {
        var pauseNs = WaitLimit.firstPauseNs
        var askedNs = MonotonicClock.nowNs()
        while try !attempt() {
            if let isCancelled, isCancelled() { throw FlickrError(.aborted, "the request was cancelled") }
            let now = MonotonicClock.nowNs()
            if let interrupt, now &- askedNs >= InterruptCheck.intervalNs {
                askedNs = now
                if interrupt.shouldStop() { throw InterruptCheck.interrupted }
            }
            var sleepNs = pauseNs
            if deadlineNs != 0 {
                guard now < deadlineNs else {
                    throw FlickrError(
                        .timeout, "the call's time limit (FLICKR_OPT_TIMEOUT_MS) passed while waiting for \(what())")
                }
                sleepNs = min(sleepNs, deadlineNs - now)  // one last try right at the deadline
            }
            MonotonicClock.sleep(ns: sleepNs)
            pauseNs = min(pauseNs * 2, WaitLimit.longestPauseNs)
        }
    }
}
