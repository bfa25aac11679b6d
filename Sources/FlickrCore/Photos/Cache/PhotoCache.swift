// SPDX-License-Identifier: MIT

#if canImport(Glibc)
import Glibc
#endif

/// A directory of downloaded photos, one file per image and size, bounded in
/// bytes with least-recently-used eviction. All its state is on disk: the
/// files, and their modification times as the recency (a hit touches its
/// file), so it survives restarts and is shared by every thread and process
/// that points at the same directory. Files enter only by an atomic rename
/// of a complete temporary file; `CacheLock` orders downloads and evictions.
package struct PhotoCache: Sendable {
    package let directory: String
    package let maxBytes: Int

    /// Temporary files older than this are a dead process's leftovers, removed by evictions.
    static let staleTemporaryNs: Int64 = 3_600_000_000_000

    package init(settings: Settings) throws(FlickrError) {
        directory = try PhotoCache.directory(configured: settings.string(.photoCacheDir))
        maxBytes = settings.number(.photoCacheMaxBytes)
    }

    /// The configured directory, else $XDG_CACHE_HOME/flickr/photos, else ~/.cache/flickr/photos.
    static func directory(configured: String?) throws(FlickrError) -> String {
        if let configured { return configured }
        if let xdg = PhotoCache.environment("XDG_CACHE_HOME"), xdg.hasPrefix("/") {
            return xdg + "/flickr/photos"
        }
        if let home = PhotoCache.environment("HOME"), home.hasPrefix("/") {
            return home + "/.cache/flickr/photos"
        }
        throw FlickrError(.state, "no directory for the photo cache: set FLICKR_OPT_PHOTO_CACHE_DIR "
                          + "(neither XDG_CACHE_HOME nor HOME is set)")
    }

    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), let text = String(validatingCString: value), !text.isEmpty else { return nil }
        return text
    }

    // MARK: Entries

    /// The cache file's name for an image URL: the URL's last path segment
    /// ("{id}_{secret}_{size}.jpg" on Flickr) when it is a plain file name,
    /// else a hash of the whole URL.
    static func entryName(forURL url: String) -> String {
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let last = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        let plain = last.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D || byte == 0x2E
        }
        if plain, (1...200).contains(last.utf8.count), !last.hasPrefix("."), last.contains(".") {
            return String(last)
        }
        let hash = String(CacheLock.fnv1a(url), radix: 16)
        return "image-" + String(repeating: "0", count: 16 - hash.utf8.count) + hash
    }

    package func path(of entry: String) -> String { directory + "/" + entry }

    /// The cached file's path and size when present, after marking it as just used.
    func lookup(_ entry: String) -> (path: String, bytes: Int64)? {
        let path = path(of: entry)
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        var times = [PhotoCache.now(), PhotoCache.now()]
        _ = utimensat(AT_FDCWD, path, &times, 0)  // recency for LRU; a read-only cache still answers
        return (path, Int64(info.st_size))
    }

    /// The wall clock at full resolution. Recency is set explicitly rather than left to the
    /// kernel, whose file times advance by clock ticks: uses a few ms apart would tie.
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// Creates the directory (and missing parents, private to the user) when needed.
    func prepareDirectory() throws(FlickrError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw FlickrError(.io, "the photo cache \(directory) is not a directory")
            }
            return
        }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 {
                let code = errno
                if code != EEXIST { throw CacheError.io("cannot create the photo cache \(directory)", errno: code) }
            }
        }
    }

    func openLock() throws(FlickrError) -> CacheLock {
        try prepareDirectory()
        return try CacheLock(directory: directory)
    }

    // MARK: Commit and eviction

    /// Moves a complete download into place as `entry`, then evicts the least
    /// recently used files until the cache fits its bound again.
    func commit(_ writer: CacheWriter, as entry: String, lock: CacheLock) throws(FlickrError) -> String {
        try writer.finish()
        let final = path(of: entry)
        try lock.lockDirectory()
        defer { lock.unlockDirectory() }
        guard rename(writer.temporaryPath, final) == 0 else {
            let code = errno
            writer.discard()
            throw CacheError.io("cannot move the image into the photo cache \(directory)", errno: code)
        }
        writer.moved()
        evict(keeping: entry, lock: lock)
        return final
    }

    private struct Candidate {
        var name: String
        var bytes: Int64
        var usedNs: Int64
    }

    /// Removes the least recently used files (never `keeping`, never one being
    /// downloaded) until the total fits `maxBytes`; also sweeps stale temporaries.
    /// Runs under the directory lock.
    func evict(keeping: String, lock: CacheLock) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        var entries: [Candidate] = []
        var total: Int64 = 0
        let now = PhotoCache.wallClockNs()
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            var info = stat()
            guard stat(path(of: name), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let usedNs = Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec)
            if name.hasPrefix(".") {
                if name.hasSuffix(CacheWriter.temporarySuffix), now &- usedNs > PhotoCache.staleTemporaryNs {
                    unlink(path(of: name))
                }
                continue
            }
            total += Int64(info.st_size)
            if name != keeping { entries.append(Candidate(name: name, bytes: Int64(info.st_size), usedNs: usedNs)) }
        }
        guard total > Int64(maxBytes) else { return }
        entries.sort { ($0.usedNs, $0.name) < ($1.usedNs, $1.name) }
        for entry in entries where total > Int64(maxBytes) {
            // A file whose entry lock is held is being fetched right now: leave it.
            guard lock.tryLockEntry(entry.name) else { continue }
            if unlink(path(of: entry.name)) == 0 { total -= entry.bytes }
            lock.unlockEntry(entry.name)
        }
    }

    private static func wallClockNs() -> Int64 {
        let now = now()
        return Int64(now.tv_sec) &* 1_000_000_000 &+ Int64(now.tv_nsec)
    }
}
