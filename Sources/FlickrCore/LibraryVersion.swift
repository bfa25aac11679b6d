// SPDX-License-Identifier: MIT

/// The library's own version; must equal FLICKR_VERSION in include/flickr/version.h
/// (a test compares them).
package enum LibraryVersion {
    package static let major: Int32 = 0
    package static let minor: Int32 = 4
    package static let patch: Int32 = 0
    /// Static storage, so the C API can hand out the pointer without copying.
    package static let string: StaticString = "0.4.0"
    package static var number: Int32 { (major << 16) | (minor << 8) | patch }
    package static var userAgent: String { "libflickr/\(string)" }
}
