// SPDX-License-Identifier: MIT

/// Arithmetic on sizes and times read from the file system: outside input,
/// so it saturates instead of trapping (two sparse 2^62-byte files in the
/// directory, or a file dated in the year 300 billion, must not kill the process).
enum CacheMath {
    static func sum(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? (b < 0 ? .min : .max) : result
    }

    static func difference(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? (b < 0 ? .max : .min) : result
    }

    /// A size from `stat`, never negative.
    static func bytes(_ size: some BinaryInteger) -> Int64 {
        Int64(clamping: max(size, 0))
    }
}
