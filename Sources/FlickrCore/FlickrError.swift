// SPDX-License-Identifier: MIT

/// A failure as the library reports it: a status code plus what Flickr or the
/// transport said. Messages are written for people and never contain secrets.
package struct FlickrError: Error, Equatable, Sendable {
    /// `Code`, the status codes of `flickr/common.h`, is generated into HeaderTables.swift.
    package var code: Code
    /// Flickr's numeric `<err code>`, or 0.
    package var apiCode: Int32
    /// The HTTP status of the answer, or 0 when none arrived.
    package var httpStatus: Int32
    /// FLICKR_EBUDGET: milliseconds until a slot frees up (flickr_error_retry_after_ms); else 0.
    package var retryAfterMs: Int64 = 0
    /// Never holds a control character: server text (error pages, `msg` attributes) ends up
    /// here and then in terminals and logs, so escape sequences and BEL are made visible.
    package var message: String {
        didSet { message = FlickrError.printable(message) }
    }

    package init(_ code: Code, _ message: String, apiCode: Int32 = 0, httpStatus: Int32 = 0) {
        self.code = code
        self.message = FlickrError.printable(message)
        self.apiCode = apiCode
        self.httpStatus = httpStatus
    }

    /// FLICKR_EBUDGET: nothing may start before `waitMs` from now; the message ends with the wait.
    @_optimize(size)
    package static func budget(_ message: String, waitMs: Int64) -> FlickrError {
        var error = FlickrError(.budget, .message([message, ": a slot frees up in ", FlickrError.duration(ms: max(waitMs, 1))]))
        error.retryAfterMs = max(waitMs, 1)
        return error
    }

    /// `ms` as people read it: "250 ms", "2.5 s", "59 min 59 s", "25 h 0 min" (truncated, never
    /// rounded up past what it says; the exact figure is flickr_error_retry_after_ms's).
    @_optimize(size)
    static func duration(ms: Int64) -> String {
        let seconds = ms / 1000, minutes = seconds / 60, hours = minutes / 60
        if ms < 1000 { return .message([String(ms), " ms"]) }
        if ms < 10_000 { return .message([String(seconds), ".", String(ms % 1000 / 100), " s"]) }
        if seconds < 60 { return .message([String(seconds), " s"]) }
        if minutes < 60 { return .message([String(minutes), " min ", String(seconds % 60), " s"]) }
        return .message([String(hours), " h ", String(minutes % 60), " min"])
    }

    package static func invalid(_ message: String) -> FlickrError {
        FlickrError(.invalidArgument, message)
    }

    /// `text` with C0 and C1 control characters and DEL written as `\u{1B}`-style escapes,
    /// tabs and line breaks as spaces. The common case (nothing to change) copies nothing.
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\t" || scalar == "\n" || scalar == "\r" {
                out += " "
            } else if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
