// SPDX-License-Identifier: MIT

/// The caller's interrupt callback (flickr_context_set_interrupt): asked every
/// `interval` while a synchronous call waits — on the network, a retry's back-off,
/// a rate-limit slot, an upload ticket — whether to give up. Bindings use it to
/// let a Ctrl-C through: Python runs its signal handlers only when it gets the
/// thread back, which a blocked call would otherwise delay until the call ends.
package final class InterruptCheck: Sendable {
    package typealias Function = @convention(c) (UnsafeMutableRawPointer?) -> Int32

    static let intervalNs: UInt64 = 100_000_000

    private let function: Function
    private let userdata: UInt

    package init(function: @escaping Function, userdata: UnsafeMutableRawPointer?) {
        self.function = function
        self.userdata = UInt(bitPattern: userdata)
    }

    /// True when the caller asks to stop, or can no longer be asked (flickr_shutdown_callbacks).
    func shouldStop() -> Bool {
        CallbackGate.run { function(UnsafeMutableRawPointer(bitPattern: userdata)) != 0 } ?? true
    }

    static let interrupted = FlickrError(.aborted, "the call was interrupted (the interrupt callback asked to stop)")

    /// Sleeps `ns`, asking `check` every interval; false when it asked to stop.
    static func sleep(ns: UInt64, checking check: InterruptCheck?) -> Bool {
        guard let check else {
            MonotonicClock.sleep(ns: ns)
            return true
        }
        var left = ns
        while left > 0 {
            let slice = min(left, intervalNs)
            MonotonicClock.sleep(ns: slice)
            left -= slice
            if check.shouldStop() { return false }
        }
        return true
    }
}
