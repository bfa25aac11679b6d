// SPDX-License-Identifier: MIT

import Glibc

/// Where the budget files live: `libflickr/budget/` in the user's cache directory
/// ($XDG_CACHE_HOME when it is an absolute path, else ~/.cache, as the XDG base directory
/// specification says), each named by a hash of its key: the key itself is never written.
///
/// The cache directory is the user's choice and is followed even when it is a link; the folders
/// the library makes below it (`folders`) are opened one by one, never through a link, and must
/// be this user's and writable by nobody else: another could otherwise swap in a file of theirs.
struct BudgetDirectory {
    let root: String
    let folders: [String]

    /// The budget folder, for messages and for checking that the path still names the open file.
    var path: String { ([root] + folders).joined(separator: "/") }

    /// The file name for `apiKey`: 32 hex digits of its SHA-256 (128 bits: no two keys meet).
    @_optimize(size)
    static func fileName(forKey apiKey: String) throws(FlickrError) -> String {
        guard let digest = Crypto.sha256(Array(apiKey.utf8)), digest.count >= 16 else {
            throw FlickrError(.error, "cannot hash the API key for its budget file (SHA-256 failed)")
        }
        return Crypto.hex(digest.prefix(16)) + ".budget"
    }

    /// The user's budget folder (nothing made yet).
    @_optimize(size)
    static func forCache() throws(FlickrError) -> BudgetDirectory {
        var cache: String
        if let xdg = environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            cache = xdg
        } else if let home = environment("HOME"), home.hasPrefix("/") {
            cache = home + "/.cache"
        } else {
            throw FlickrError(.io, "no cache directory for the budget file: set XDG_CACHE_HOME or HOME")
        }
        while cache.count > 1 && cache.hasSuffix("/") { cache.removeLast() }
        return BudgetDirectory(root: cache, folders: ["libflickr", "budget"])
    }

    /// The budget folder, open (O_DIRECTORY): each folder made (0700) when missing, none followed
    /// when it is a link, each checked to be this user's and writable by nobody else.
    @_optimize(size)
    func openFolder() throws(FlickrError) -> Int32 {
        guard mkdir(root, 0o700) == 0 || errno == EEXIST else { throw failure("cannot make", root) }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot open", root) }
        var path = root
        for name in folders {
            path += "/" + name
            let parent = fd
            defer { close(parent) }
            guard mkdirat(parent, name, 0o700) == 0 || errno == EEXIST else { throw failure("cannot make", path) }
            fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else {
                if errno == ELOOP || errno == ENOTDIR {
                    throw FlickrError(.io, .message(["the budget folder ", path,
                                                     " is a symbolic link or not a folder: it is never followed (remove it)"]))
                }
                throw failure("cannot open", path)
            }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                close(fd)
                throw failure("cannot read", path)
            }
            if let refusal = BudgetDirectory.refusal(of: info, what: "the budget folder " + path) {
                close(fd)
                throw refusal
            }
        }
        return fd
    }

    /// Why a folder or file the library keeps the budget in must not be used: another user's, or
    /// writable by others (who could then change what it holds). Nil when it is fine.
    @_optimize(size)
    static func refusal(of info: stat, what: String) -> FlickrError? {
        if info.st_uid != geteuid() {
            return FlickrError(
                .io, .message([what, " belongs to another user (uid ", String(info.st_uid), "): it is never used (remove it)"]))
        }
        if info.st_mode & 0o022 != 0 {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            return FlickrError(
                .io, .message([what, " is writable by other users (mode ", mode, "): it is never used (chmod go-w it)"]))
        }
        return nil
    }

    @_optimize(size)
    private func failure(_ doing: String, _ path: String) -> FlickrError {
        FlickrError(.io, .message([doing, " the budget folder ", path, ": ", String(cString: strerror(errno))]))
    }

    @_optimize(size)
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), value.pointee != 0 else { return nil }
        return String(validatingCString: value)
    }
}
