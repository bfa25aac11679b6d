// SPDX-License-Identifier: MIT

// Arithmetic on values that come from outside (a server's header, a file's size, an option, a
// caller's timeout): Swift traps on overflow, and a trap kills the user's process. These clamp
// at the type's bounds instead; callers then compare against their own, much smaller, limits.

extension FixedWidthInteger {
    /// `self + other`, or the type's bound in the direction of the overflow.
    func addingSaturated(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, or the type's bound in the direction of the overflow.
    func subtractingSaturated(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }

    /// `self * other`, or the type's bound in the direction of the overflow.
    func multipliedSaturated(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension UInt64 {
    /// Nanoseconds for a count of milliseconds that may be anything a caller passed (negative: 0).
    static func nanoseconds(milliseconds: Int) -> UInt64 {
        guard milliseconds > 0 else { return 0 }
        return UInt64(milliseconds).multipliedSaturated(by: 1_000_000)
    }
}
