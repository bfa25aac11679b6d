// SPDX-License-Identifier: MIT

/// The names of the photo cache's files. The directory may hold the user's
/// own files (it is the user's choice), so the cache counts, touches and
/// deletes only names of this grammar, strict enough that no other file
/// matches by accident (a "holiday.jpg", or a Flickr download such as
/// "53012345678_0a1b2c3d4e_b.jpg" saved there, never does):
///
///     entry     = "flickr-cache-" key [ "-u" stamp ] [ "-alt" ( "1" | "2" ) ] "." extension
///     key       = id "_" secret [ "_" size ]     the image URL's file name, when Flickr-shaped
///               | "h" 16 lowercase hex digits     otherwise a hash of the whole URL
///     temporary = "." entry "." pid "." unique ".part"
///
/// id and stamp (the photo's lastupdate) are 1-20 decimal digits, secret 1-40
/// and size 1-4 lowercase letters or digits, pid 1-10 decimal digits, unique
/// 1-13 lowercase base-36 digits; `extensions` lists the extensions. "-alt1"
/// and "-alt2" are an entry's other slots, used when its name is taken by a
/// symbolic link or a directory (which the cache never follows nor removes).
enum CacheName {
    static let prefix = "flickr-cache-"
    /// The lock file's name (see CacheLock): hidden, and no entry or temporary.
    static let lock = ".flickr-cache.lock"
    static let temporarySuffix = ".part"
    static let extensions: Set<String> = [
        "jpg", "jpeg", "png", "gif", "webp", "tif", "tiff", "heic", "avif", "mp4", "img",
    ]
    /// How many names an entry may use: itself, then "-alt1" and "-alt2".
    static let slotCount = 3

    /// The entry's name for an image URL; `stamp` (digits, the photo's lastupdate) makes a replaced
    /// photo's image another entry.
    @_optimize(size)
    static func entry(forURL url: String, stamp: String?) -> String {
        let suffix = stamp.map { "-u" + $0 } ?? ""
        var path = Substring(url)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let file = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        if let dot = file.lastIndex(of: ".") {
            let key = Array(file[..<dot].utf8), ext = String(file[file.index(after: dot)...])
            if isFlickrKey(key[...]), ext != "img", extensions.contains(ext) {
                return prefix + String(decoding: key, as: UTF8.self) + suffix + "." + ext
            }
        }
        let hash = String(CacheLock.fnv1a(url), radix: 16)
        return prefix + "h" + String(repeating: "0", count: 16 - hash.utf8.count) + hash + suffix + ".img"
    }

    /// The names an entry may be stored under, in the order they are tried.
    @_optimize(size)
    static func slots(of entry: String) -> [String] {
        guard let dot = entry.lastIndex(of: ".") else { return [entry] }
        let stem = entry[..<dot], ext = entry[dot...]
        return [entry] + (1..<slotCount).map { "\(stem)-alt\($0)\(ext)" }
    }

    /// The entry whose slot `name` is (itself for the first slot): what its lock is taken for.
    @_optimize(size)
    static func entry(ofSlot name: String) -> String {
        guard let dot = name.lastIndex(of: ".") else { return name }
        let stem = Array(name[..<dot].utf8)
        guard let alt = altSuffixLength(stem[...]) else { return name }
        return String(decoding: stem.dropLast(alt), as: UTF8.self) + String(name[dot...])
    }

    /// The photo id in a Flickr-shaped entry's name, else nil.
    @_optimize(size)
    static func photoID(ofEntry entry: String) -> String? {
        guard entry.hasPrefix(prefix) else { return nil }
        let digits = entry.utf8.dropFirst(prefix.utf8.count).prefix { isDigit($0) }
        return digits.isEmpty ? nil : String(decoding: digits, as: UTF8.self)
    }

    /// The entry's name with its Flickr key's secret left out ("flickr-cache-123_*_b.jpg"), for
    /// messages: the secret lets anyone see the photo, however private.
    @_optimize(size)
    static func withoutSecret(_ entry: String) -> String {
        guard entry.hasPrefix(prefix) else { return entry }
        let parts = entry.split(separator: "_", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return entry }  // a hash key: nothing to hide
        // Without a size, the secret runs up to "-u", "-alt" or the extension.
        let rest = parts[1].drop { $0 != "-" && $0 != "." }
        return parts[0] + "_*" + rest + (parts.count > 2 ? "_" + parts[2] : "")
    }

    /// Whether `name` is an entry's (any slot), by the grammar above.
    @_optimize(size)
    static func isEntry(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        let head = Array(prefix.utf8)
        guard bytes.count <= 255, bytes.starts(with: head), let dot = bytes.lastIndex(of: 0x2E) else { return false }
        guard extensions.contains(String(decoding: bytes[(dot + 1)...], as: UTF8.self)) else { return false }
        var stem = bytes[head.count..<dot]
        if let alt = altSuffixLength(stem) { stem = stem.dropLast(alt) }
        if let dash = stem.lastIndex(of: 0x2D) {  // "-u" stamp
            let stamp = stem[(dash + 1)...]
            guard stamp.first == 0x75, isDigits(stamp.dropFirst(), upTo: 20) else { return false }
            stem = stem[..<dash]
        }
        return isFlickrKey(stem) || isHashKey(stem)
    }

    /// Whether `name` is a temporary file's, by the grammar above.
    @_optimize(size)
    static func isTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return false }
        let parts = name.utf8.split(separator: 0x2E, omittingEmptySubsequences: false)
        // "", entry's stem, entry's extension, pid, unique, "part"
        guard parts.count == 6, parts[0].isEmpty, isDigits(parts[3], upTo: 10),
            (1...13).contains(parts[4].count), parts[4].allSatisfy({ isDigit($0) || isLowercase($0) })
        else { return false }
        return isEntry(String(decoding: parts[1], as: UTF8.self) + "." + String(decoding: parts[2], as: UTF8.self))
    }

    /// A temporary file's name for a download of `entry`, unique to this process and attempt.
    @_optimize(size)
    static func temporary(for entry: String, pid: Int32, unique: UInt64) -> String {
        ".\(entry).\(pid).\(String(unique, radix: 36))\(temporarySuffix)"
    }

    // MARK: Grammar

    /// id "_" secret [ "_" size ]
    @_optimize(size)
    private static func isFlickrKey(_ key: ArraySlice<UInt8>) -> Bool {
        let parts = key.split(separator: 0x5F, omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, isDigits(parts[0], upTo: 20) else { return false }
        return isLowercaseAlphanumeric(parts[1], upTo: 40) && (parts.count == 2 || isLowercaseAlphanumeric(parts[2], upTo: 4))
    }

    /// "h" and 16 lowercase hex digits.
    @_optimize(size)
    private static func isHashKey(_ key: ArraySlice<UInt8>) -> Bool {
        key.count == 17 && key.first == 0x68
            && key.dropFirst().allSatisfy { isDigit($0) || (0x61...0x66).contains($0) }
    }

    /// The length of a trailing "-alt1" or "-alt2", else nil.
    @_optimize(size)
    private static func altSuffixLength(_ stem: ArraySlice<UInt8>) -> Int? {
        let alt = Array("-alt".utf8)
        guard stem.count > alt.count, let last = stem.last, (0x31..<0x30 + UInt8(slotCount)).contains(last),
            stem.dropLast().suffix(alt.count).elementsEqual(alt)
        else { return nil }
        return alt.count + 1
    }

    @_optimize(size)
    private static func isDigits(_ text: some Collection<UInt8>, upTo limit: Int) -> Bool {
        (1...limit).contains(text.count) && text.allSatisfy(isDigit)
    }

    @_optimize(size)
    private static func isLowercaseAlphanumeric(_ text: some Collection<UInt8>, upTo limit: Int) -> Bool {
        (1...limit).contains(text.count) && text.allSatisfy { isDigit($0) || isLowercase($0) }
    }

    @_optimize(size)
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    @_optimize(size)
    private static func isLowercase(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
}
