// SPDX-License-Identifier: MIT

import Glibc

/// A directory of downloaded photos, one file per image and size, bounded in
/// bytes with least-recently-used eviction. All its state is on disk: the
/// files, and their modification times as the recency (a hit touches its
/// file), so it survives restarts and is shared by every thread and process
/// that points at the same directory. Files enter only by an atomic rename
/// of a complete temporary file; `CacheLock` orders downloads and evictions.
///
/// The directory may hold other files: the cache counts, touches and deletes
/// only names of its own grammar (`CacheName`), and never follows a symbolic
/// link in it (a link, or a directory, where an entry would be is a miss).
package struct PhotoCache: Sendable {
    package let directory: String
    package let maxBytes: Int64

    /// Temporary files older than this are a dead process's leftovers, removed by evictions.
    static let staleTemporarySeconds: Int64 = 3_600

    @_optimize(size)
    package init(settings: Settings) throws(FlickrError) {
        directory = try PhotoCache.directory(configured: settings.string(.photoCacheDir))
        maxBytes = settings.number64(.photoCacheMaxBytes)
    }

    /// The configured directory, else $XDG_CACHE_HOME/flickr/photos, else ~/.cache/flickr/photos.
    @_optimize(size)
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

    @_optimize(size)
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name), let text = String(validatingCString: value), !text.isEmpty else { return nil }
        return text
    }

    // MARK: Entries

    @_optimize(size)
    package func path(of name: String) -> String { directory + "/" + name }

    /// What a name in the directory holds, links not followed.
    enum FileState {
        case absent
        case file(bytes: Int64, modified: timespec)
        /// Anything the cache did not write there: a symbolic link, a directory, a FIFO...
        case foreign
    }

    @_optimize(size)
    func state(of name: String) -> FileState {
        var info = stat()
        guard fstatat(AT_FDCWD, path(of: name), &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return errno == ENOENT ? .absent : .foreign
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .foreign }
        return .file(bytes: Int64(clamping: max(info.st_size, 0)), modified: info.st_mtim)
    }

    /// The cached image's path and size when present and not outdated, after marking it as just
    /// used. A slot holding anything but a regular file is passed over, never opened.
    @_optimize(size)
    func lookup(_ entry: String, photoID: String?) -> (path: String, bytes: Int64)? {
        for name in CacheName.slots(of: entry) {
            switch state(of: name) {
            case .absent: return nil
            case .foreign: continue
            case .file: break
            }
            let path = path(of: name)
            // Opened, not named, from here: a link swapped in since the check fails with ELOOP.
            let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            guard info.st_size > 0, ReplacedPhotos.isCurrent(path, photoID: photoID) else { return nil }
            var times = [PhotoCache.now(), PhotoCache.now()]
            _ = futimens(fd, &times)  // recency for LRU; a read-only cache still answers
            return (path, Int64(clamping: max(info.st_size, 0)))
        }
        return nil
    }

    /// The wall clock at full resolution. Recency is set explicitly rather than left to the
    /// kernel, whose file times advance by clock ticks: uses a few ms apart would tie.
    @_optimize(size)
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }

    /// Creates the directory (and missing parents, private to the user) when needed.
    @_optimize(size)
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

    @_optimize(size)
    func openLock() throws(FlickrError) -> CacheLock {
        try prepareDirectory()
        return try CacheLock(directory: directory)
    }

    // MARK: Commit and eviction

    /// Moves a complete download into place as `entry` (its first slot not taken by a link or a
    /// directory), then evicts the least recently used files until the cache fits its bound again.
    /// `stamp` is the photo's replace generation when the download started; `limit` bounds the wait
    /// for the directory lock.
    @_optimize(size)
    func commit(_ writer: CacheWriter, as entry: String, stamp: ReplacedPhotos.Stamp?, lock: CacheLock,
                within limit: WaitLimit) throws(FlickrError) -> String
    {
        try writer.finish()
        try lock.lockDirectory(within: limit)
        defer { lock.unlockDirectory() }
        let slot = CacheName.slots(of: entry).first { name in
            if case .foreign = state(of: name) { return false }
            return true
        }
        guard let slot else {
            writer.discard()
            throw FlickrError(.io, "cannot move the image into the photo cache: \(path(of: entry)) and its "
                              + "-alt names are taken by files the cache did not write (symbolic links, directories)")
        }
        let final = path(of: slot)
        guard rename(writer.temporaryPath, final) == 0 else {
            let code = errno
            writer.discard()
            throw CacheError.io("cannot move the image into the photo cache \(directory)", errno: code)
        }
        writer.moved()
        ReplacedPhotos.wrote(final, stamp: stamp)
        evict(keeping: slot, lock: lock)
        return final
    }

    private struct Candidate {
        var name: String
        var bytes: Int64
        var used: timespec
    }

    /// Removes the least recently used entries (never `keeping`, never one being downloaded)
    /// until their total fits `maxBytes`; also sweeps stale temporaries. Only names of the
    /// cache's grammar holding regular files are counted or removed. Runs under the directory lock.
    @_optimize(size)
    func evict(keeping: String, lock: CacheLock) {
        guard let dir = opendir(directory) else { return }
        defer { closedir(dir) }
        var candidates: [Candidate] = []
        var total: Int64 = 0
        let now = PhotoCache.now()
        while let item = readdir(dir) {
            let name = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let temporary = CacheName.isTemporary(name)
            guard temporary || CacheName.isEntry(name), case .file(let bytes, let modified) = state(of: name) else {
                continue
            }
            if temporary {
                let age = Int64(now.tv_sec).subtractingSaturated(Int64(modified.tv_sec))
                if age > PhotoCache.staleTemporarySeconds { unlink(path(of: name)) }
                continue
            }
            total = total.addingSaturated(bytes)
            if name != keeping { candidates.append(Candidate(name: name, bytes: bytes, used: modified)) }
        }
        guard total > maxBytes else { return }
        // Oldest first; compared field by field, as a sum of nanoseconds could overflow.
        candidates.sortStably { ($0.used.tv_sec, $0.used.tv_nsec, $0.name) < ($1.used.tv_sec, $1.used.tv_nsec, $1.name) }
        for candidate in candidates where total > maxBytes {
            // A file whose entry lock is held is being fetched right now: leave it.
            let entry = CacheName.entry(ofSlot: candidate.name)
            guard lock.tryLockEntry(entry) else { continue }
            if unlink(path(of: candidate.name)) == 0 { total = total.subtractingSaturated(candidate.bytes) }
            lock.unlockEntry(entry)
        }
    }
}
