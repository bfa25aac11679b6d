// SPDX-License-Identifier: MIT

import CCurl

/// Request headers every REST transfer sends, as libcurl lists built once per process.
///
/// `CURLOPT_ACCEPT_ENCODING` set to "" makes libcurl decode any encoding it supports and write
/// `Accept-Encoding: deflate, gzip, br, zstd` through its printf on every request: 8.3 k
/// instructions a call, 4% of a whole signed call (bench/NOTES.md, Change 16). A custom header of
/// the same name replaces libcurl's own, and the decoding stays on; "gzip" is what Flickr sends.
enum RequestHeaders {
    /// `Accept-Encoding: gzip` when this libcurl can inflate it (built with zlib), else nil and
    /// libcurl writes the list of what it can decode.
    static let acceptEncoding: String? = {
        guard let info = curl_version_info(CURLVERSION_TENTH),
              info.pointee.features & CURL_VERSION_LIBZ != 0
        else { return nil }
        return "Accept-Encoding: gzip"
    }()

    /// The list of a plain GET (no headers of its own, no body): only `acceptEncoding`. Never freed:
    /// transfers on any thread may be using it, until the process ends.
    nonisolated(unsafe) static let plainGet: UnsafeMutablePointer<curl_slist>? = acceptEncoding.flatMap { header in
        header.withCString { curl_slist_append(nil, $0) }
    }
}
