// SPDX-License-Identifier: MIT

import CCurl

/// libcurl's process-wide initialisation, done once on first use so that
/// users never need a global init call. Swift runs a global's initialiser
/// exactly once, thread-safely.
enum CurlGlobal {
    private static let status: CURLcode = curl_global_init(Int(CURL_GLOBAL_DEFAULT))

    /// Initialises libcurl if needed; throws when it could not be.
    static func ensure() throws(FlickrError) {
        guard status == CURLE_OK else {
            throw FlickrError(.error, "libcurl could not be initialised (curl_global_init: \(status.rawValue))")
        }
    }
}
