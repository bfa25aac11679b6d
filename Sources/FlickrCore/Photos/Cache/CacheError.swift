// SPDX-License-Identifier: MIT

import Glibc

/// Errors of the photo cache's file operations, worded from errno.
enum CacheError {
    /// FLICKR_EIO: "what: reason", with a plainer reason for a full disk. Callers read `errno`
    /// before building `what`, which may allocate and so change it.
    @_optimize(size)
    static func io(_ what: String, errno code: Int32) -> FlickrError {
        let reason: String
        switch code {
        case ENOSPC, EDQUOT: reason = "the disk is full (\(String(cString: strerror(code))))"
        default: reason = String(cString: strerror(code))
        }
        return FlickrError(.io, "\(what): \(reason)")
    }
}
