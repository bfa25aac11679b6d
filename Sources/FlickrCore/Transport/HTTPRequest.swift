// SPDX-License-Identifier: MIT

/// One HTTP exchange as the engine performs it: everything is decided
/// (URL, signature, headers, limits) before it reaches the transport.
package struct HTTPRequest: Sendable {
    package enum Verb: String, Sendable { case get = "GET", post = "POST" }

    var verb: Verb
    /// The full URL, query included.
    var url: String
    var headers: [String] = []
    /// A form or other in-memory body (POST).
    var body: [UInt8]? = nil
    /// User agent, connect timeout, size cap, CA file, proxy: the same from one call to the next.
    var setup: EasySetup
    /// A streamed multipart body (uploads), instead of `body`.
    var upload: UploadPlan? = nil

    init(verb: Verb, url: String, settings: Settings) {
        self.verb = verb
        self.url = url
        self.setup = EasySetup(settings)
    }

    /// Host and path for messages and logs: never the query, which carries tokens and signatures.
    var redactedURL: String {
        // Over UTF-8 bytes: a Character search would run grapheme breaking over the whole query.
        guard let mark = url.utf8Offset(of: UInt8(ascii: "?")) else { return url }
        return String(decoding: url.utf8.prefix(mark), as: UTF8.self)
    }
}

/// How an upload's body is produced and watched.
struct UploadPlan: Sendable {
    var fields: [(String, String)]
    var source: UploadSource
    var progress: UploadProgress.Handler?
    /// Fail when no byte moves for this long while the body goes out.
    var idleTimeoutMs: Int
    /// Fail when the answer has not come this long after the last byte (Flickr can be slow here).
    var responseTimeoutMs: Int
}

/// What came back from the transport, before any Flickr-level interpretation.
struct HTTPOutcome: Sendable {
    var status: Int
    var location: String?
    var retryAfterSeconds: Int?
}
