// SPDX-License-Identifier: MIT

import Glibc

/// The library's one clock: every deadline, spacing, backoff and elapsed time is read here, in
/// nanoseconds of CLOCK_MONOTONIC (which the wall clock's changes never move), and every pause
/// sleeps here. In Support so that each folder reads the same clock without depending on Transport.
enum MonotonicClock {
    static func nowNs() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Sleeps `ns` nanoseconds in all, resuming after a signal for the time that was left.
    static func sleep(ns: UInt64) {
        var request = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
