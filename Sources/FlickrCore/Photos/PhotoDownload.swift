// SPDX-License-Identifier: MIT

/// Fetching one image of a photo into the photo cache, as an operation: a
/// cached file answers at once (`localResult`); otherwise the image streams
/// into a temporary file in the cache directory (`bodySink`), is checked
/// (HTTP 2xx, image bytes) and renamed into place (`interpret`). Whatever an
/// attempt leaves behind is removed when the request ends.
package final class PhotoDownload: Operation {
    package let url: String
    package let cache: PhotoCache
    /// The file's name in the cache.
    package let entry: String
    /// The photo's id, for replaces made through this process (see ReplacedPhotos); nil when unknown.
    let photoID: String?
    /// The current attempt's temporary file, and the photo's replace generation when it began
    /// (attempts run one after another).
    private let writer = Locked<(file: CacheWriter, stamp: ReplacedPhotos.Stamp?)?>(nil)

    /// Body bytes kept in memory: enough to recognise an image or quote an error page.
    static let headBytes = 512

    /// The image host's 429 back-off, not the API key's budget.
    package var limit: CallLimit { .imageHost(url: url) }

    /// `photo` reads the photo's attributes, as for flickr_photo_source_url.
    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(settings: Settings, size: String, field: (String) -> String?) throws(FlickrError) {
        let url = try PhotoURL.source(size: size, field: field, settings: settings)
        let entry = CacheName.entry(forURL: url, stamp: PhotoDownload.lastUpdate(field))
        let id = field("id").flatMap { id in PhotoDownload.isDecimal(id) ? id : nil }
        // The id in the image's own file name first: it names the image fetched, whatever else the photo says.
        self.init(url: url, cache: try PhotoCache(settings: settings), entry: entry,
                  photoID: CacheName.photoID(ofEntry: entry) ?? id)
    }

    @_optimize(size)
    private init(url: String, cache: PhotoCache, entry: String, photoID: String?) {
        self.url = url
        self.cache = cache
        self.entry = entry
        self.photoID = photoID
    }

    /// The photo's last update (Unix time) when it carries one: `lastupdate` from extras=last_update
    /// in lists, `dates.lastupdate` from getInfo. Part of the entry's name, so that a replace made
    /// anywhere (another process, another client) gives a new entry once the caller has the new value.
    @_optimize(size)
    static func lastUpdate(_ field: (String) -> String?) -> String? {
        for name in ["lastupdate", "last_update", "dates.lastupdate"] {
            if let value = field(name), isDecimal(value) { return value }
        }
        return nil
    }

    @_optimize(size)
    private static func isDecimal(_ text: String) -> Bool {
        (1...20).contains(text.utf8.count) && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// The fetched (or found) image as a response: an object with `path`, `url`, `bytes`, `cached` ("1" or "0").
    @_optimize(size)
    static func response(path: String, url: String, bytes: Int64, cached: Bool, httpStatus: Int)
        throws(FlickrError) -> Response
    {
        let tree = try ValueTree.object(
            [("path", path), ("url", url), ("bytes", String(bytes)), ("cached", cached ? "1" : "0")], rootName: "photo")
        return Response(tree: tree, body: [], httpStatus: httpStatus)
    }

    // MARK: Operation

    @_optimize(size)
    package func localResult() -> Result<Response, FlickrError>? {
        guard let found = cache.lookup(entry, photoID: photoID) else { return nil }
        return Result { () throws(FlickrError) -> Response in
            try PhotoDownload.response(path: found.path, url: url, bytes: found.bytes, cached: true, httpStatus: 0)
        }
    }

    @_optimize(size)
    package func endpoint(_ settings: Settings) -> String { url }

    @_optimize(size)
    package func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest {
        // Images are public URLs: nothing is signed, no credential goes out.
        var request = HTTPRequest(verb: .get, url: endpoint, settings: settings)
        request.setup.maxResponseBytes = min(request.setup.maxResponseBytes, Int(clamping: cache.maxBytes))
        return request
    }

    package var parsesXML: Bool { false }
    package var isIdempotent: Bool { true }
    package var keptBodyBytes: Int { PhotoDownload.headBytes }
    package var logLabel: String { "photo \(entry)" }

    @_optimize(size)
    package func bodySink() throws(FlickrError) -> (any BodySink)? {
        try cache.prepareDirectory()
        // Read before the request goes out: a replace finishing during the download outdates it.
        let stamp = ReplacedPhotos.stamp(for: photoID)
        let next = try CacheWriter(directory: cache.directory, entry: entry)
        let previous = writer.withLock { current -> CacheWriter? in
            defer { current = (next, stamp) }
            return current?.file
        }
        previous?.discard()
        return next
    }

    @_optimize(size)
    package func describeFailure(_ error: FlickrError) -> FlickrError {
        guard error.code == .tooBig else { return error }
        var adjusted = error
        adjusted.message = "the image at \(url) is larger than the photo cache's bound or the response cap "
            + "(FLICKR_OPT_PHOTO_CACHE_MAX_BYTES, FLICKR_OPT_MAX_RESPONSE_BYTES): nothing was cached"
        return adjusted
    }

    @_optimize(size)
    package func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    {
        guard let current = writer.withLock({ $0 }) else {
            return .failure(FlickrError(.error, "the download of \(url) has no file"))
        }
        let http = Int32(clamping: status)
        guard (200..<300).contains(status) else {
            return .failure(FlickrError(.http, "HTTP \(status) from \(url): no image (nothing was cached)",
                                        httpStatus: http))
        }
        let head = body.array  // at most PhotoDownload.headBytes
        guard ImageSignature.format(of: head) != nil else {
            return .failure(FlickrError(
                .parse, "the answer from \(url) is not an image (it starts with \"\(ImageSignature.excerpt(of: head))\"): "
                    + "nothing was cached", httpStatus: http))
        }
        return Result { () throws(FlickrError) -> Response in
            // The directory exists: the download's file is in it.
            let lock = try CacheLock(directory: cache.directory)
            let path = try cache.commit(current.file, as: entry, stamp: current.stamp, lock: lock, within: limit)
            return try PhotoDownload.response(
                path: path, url: self.url, bytes: current.file.bytesWritten, cached: false, httpStatus: status)
        }
    }

    @_optimize(size)
    package func ended() {
        writer.withLock { current -> CacheWriter? in
            defer { current = nil }
            return current?.file
        }?.discard()
    }
}

extension Context {
    /// Fetches a photo synchronously. The entry's lock is held from the cache
    /// check to the rename, so threads and processes asking for the same image
    /// at once download it once: the others wait, then find it cached. The wait
    /// is part of the call: its time limit counts from before it, and the
    /// interrupt callback is asked during it.
    @_optimize(size)
    package func fetch(_ download: PhotoDownload) throws(FlickrError) -> Response {
        try refuseOnWorkerThread()  // before a wait for the lock, not after it
        let startedNs = MonotonicClock.nowNs()
        let settings = snapshot
        let limit = WaitLimit(deadlineNs: WaitLimit.deadline(startedNs: startedNs, settings: settings),
                              interrupt: settings.interrupt, isCancelled: nil)
        let lock = try download.cache.openLock()
        try lock.lockEntry(download.entry, within: limit)
        defer { lock.unlockEntry(download.entry) }
        return try perform(download, startedNs: startedNs)
    }
}
