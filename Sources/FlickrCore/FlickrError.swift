// SPDX-License-Identifier: MIT

/// A failure as the library reports it: a status code plus what Flickr or the
/// transport said. Messages are written for people and never contain secrets.
package struct FlickrError: Error, Equatable, Sendable {
    /// The status codes of `flickr/common.h`; raw values are the C values.
    package enum Code: Int32, Sendable, CaseIterable {
        case ok = 0
        case error = -1
        case invalidArgument = -2
        case noMemory = -3
        case network = -4
        case timeout = -5
        case http = -6
        case api = -7
        case oauth = -8
        case parse = -9
        case aborted = -10
        case tls = -11
        case io = -12
        case tooBig = -13
        case state = -14
        case notFound = -15
        case budget = -16

        /// The C enumerator's name, for messages and bindings.
        package var symbol: StaticString {
            switch self {
            case .ok: "FLICKR_OK"
            case .error: "FLICKR_ERROR"
            case .invalidArgument: "FLICKR_EINVAL"
            case .noMemory: "FLICKR_ENOMEM"
            case .network: "FLICKR_ENETWORK"
            case .timeout: "FLICKR_ETIMEOUT"
            case .http: "FLICKR_EHTTP"
            case .api: "FLICKR_EAPI"
            case .oauth: "FLICKR_EOAUTH"
            case .parse: "FLICKR_EPARSE"
            case .aborted: "FLICKR_EABORTED"
            case .tls: "FLICKR_ETLS"
            case .io: "FLICKR_EIO"
            case .tooBig: "FLICKR_ETOOBIG"
            case .state: "FLICKR_ESTATE"
            case .notFound: "FLICKR_ENOTFOUND"
            case .budget: "FLICKR_EBUDGET"
            }
        }

        /// A static one-line description (what `flickr_strerror` returns).
        package var summary: StaticString {
            switch self {
            case .ok: "success"
            case .error: "internal error"
            case .invalidArgument: "invalid argument"
            case .noMemory: "out of memory"
            case .network: "network error"
            case .timeout: "timed out"
            case .http: "unexpected HTTP status"
            case .api: "Flickr API error"
            case .oauth: "OAuth request refused"
            case .parse: "malformed response"
            case .aborted: "aborted"
            case .tls: "TLS error"
            case .io: "I/O error"
            case .tooBig: "response too large"
            case .state: "invalid state for this call"
            case .notFound: "not found"
            case .budget: "over the call budget"
            }
        }
    }

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
    package static func budget(_ message: String, waitMs: Int64) -> FlickrError {
        var error = FlickrError(.budget, "\(message): a slot frees up in \(max(waitMs, 1)) ms")
        error.retryAfterMs = max(waitMs, 1)
        return error
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
