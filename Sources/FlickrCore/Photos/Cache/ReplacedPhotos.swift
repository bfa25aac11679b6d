// SPDX-License-Identifier: MIT

/// The photos replaced through this process, so that no photo cache serves an
/// image the library knows is outdated: a replace keeps the photo's id, secret
/// and URLs, hence the names of its cached images.
///
/// Each replace gives the photo a new generation. An image this process puts
/// into a cache is recorded with the generation its download started under;
/// a replaced photo's cached image is served only when recorded with the
/// current one. Any other (an older file, in any directory, through any
/// context) is a miss and downloaded again. Another process's replace cannot
/// be known here: the photo's lastupdate, part of the entry's name, covers it.
enum ReplacedPhotos {
    /// A photo's generation when a download started.
    struct Stamp {
        let photoID: String
        let generation: UInt64
    }

    private struct State {
        var lastGeneration: UInt64 = 0
        /// Replaced photos by id: their current generation.
        var generations: [String: UInt64] = [:]
        /// Cached images of replaced photos, by path: the generation of what was downloaded there.
        var written: [String: UInt64] = [:]
    }

    private static let state = Locked(State())

    @_optimize(size)
    static func lockForFork() { state.lockForFork() }
    @_optimize(size)
    static func unlockAfterFork() { state.unlockAfterFork() }

    /// Records that the photo's image was (or may have been) replaced.
    @_optimize(size)
    static func record(_ photoID: String) {
        state.withLock { s in
            s.lastGeneration &+= 1
            s.generations[photoID] = s.lastGeneration
        }
    }

    /// The photo's generation now, to be read before its download is sent.
    @_optimize(size)
    static func stamp(for photoID: String?) -> Stamp? {
        guard let photoID else { return nil }
        return Stamp(photoID: photoID, generation: state.withLock { $0.generations[photoID] ?? 0 })
    }

    /// Records what was just renamed to `path`. Called under the cache directory's lock, so that
    /// the record and the file agree when two downloads of one image race.
    @_optimize(size)
    static func wrote(_ path: String, stamp: Stamp?) {
        guard let stamp else { return }
        state.withLock { s in
            if s.generations[stamp.photoID] != nil { s.written[path] = stamp.generation }
        }
    }

    /// Whether the image at `path` may be served: its photo was not replaced through this process,
    /// or this process downloaded it since.
    @_optimize(size)
    static func isCurrent(_ path: String, photoID: String?) -> Bool {
        guard let photoID else { return true }
        return state.withLock { s in
            guard let generation = s.generations[photoID] else { return true }
            return s.written[path] == generation
        }
    }
}
