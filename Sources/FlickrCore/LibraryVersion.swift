// SPDX-License-Identifier: MIT
import CFlickrShims

/// The library's own version: include/flickr/version.h's, compiled into the C shims, so the
/// header is the one place it is written.
package enum LibraryVersion {
    /// FLICKR_VERSION: static storage, so the C API hands out the pointer without copying.
    package static var cString: UnsafePointer<CChar> { flickr__version_string() }
    /// FLICKR_VERSION_NUM, 0xMMmmpp.
    package static var number: Int32 { flickr__version_number() }
    package static var string: String { String(cString: cString) }
    package static var userAgent: String { "libflickr/" + string }
}
