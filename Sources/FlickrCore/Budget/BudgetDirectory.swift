// SPDX-License-Identifier: MIT

import Glibc

/// Where the budget files live: `libflickr/budget/` in the user's cache directory
/// ($XDG_CACHE_HOME when it is an absolute path, else ~/.cache, as the XDG base directory
/// specification says), each named by a hash of its key: the key itself is never written.
enum BudgetDirectory {
    /// The file for `apiKey`: 32 hex digits of its SHA-256 (128 bits: no two keys meet).
    @_optimize(size)
    static func path(forKey apiKey: String) throws(FlickrError) -> String {
        guard let digest = Crypto.sha256(Array(apiKey.utf8)), digest.count >= 16 else {
            throw FlickrError(.error, "cannot hash the API key for its budget file (SHA-256 failed)")
        }
        return try directory() + "/" + Crypto.hex(digest.prefix(16)) + ".budget"
    }

    /// The directory, made (0700, as the cache directory itself) when missing.
    @_optimize(size)
    static func directory() throws(FlickrError) -> String {
        var cache: String
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            cache = xdg
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            cache = home + "/.cache"
        } else {
            throw FlickrError(.io, "no cache directory for the budget file: set XDG_CACHE_HOME or HOME")
        }
        while cache.count > 1 && cache.hasSuffix("/") { cache.removeLast() }
        var path = cache
        for part in ["", "/libflickr", "/budget"] {
            path += part
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                throw FlickrError(.io, "cannot make the budget directory \(path): \(String(cString: strerror(errno)))")
            }
        }
        return path
    }

    @_optimize(size)
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(validatingCString: value)
    }
}
