// SPDX-License-Identifier: MIT

/// Decides what an HTTP answer means: a Flickr success, a Flickr error, an
/// OAuth refusal, an HTTP failure, or something unparsable.
enum ResponseInterpreter {
    static func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>, url: String
    ) -> Result<Response, FlickrError> {
        let http = Int32(clamping: status)
        if case .success(let tree) = parsed, tree.rootName == "rsp" {
            let root = tree.root
            switch root.member("stat")?.string {
            case "ok":
                return .success(Response(tree: tree, body: body, httpStatus: status))
            case "fail":
                let err = root.member("err")
                let apiCode = err?.member("code")?.string.flatMap { Int32($0) } ?? 0
                let message = err?.member("msg")?.string ?? "Flickr reported a failure without a message"
                return .failure(FlickrError(.api, message, apiCode: apiCode, httpStatus: http))
            default:
                return .failure(FlickrError(.parse, "the <rsp> element has no stat=\"ok\" or \"fail\" (\(url))",
                                            httpStatus: http))
            }
        }
        let text = String(decoding: body.bytes.prefix(ResponseBody.failurePrefixBytes), as: UTF8.self)
        if text.hasPrefix("oauth_problem=") {
            return .failure(FlickrError(.oauth, "OAuth refused the request (HTTP \(status)): \(firstLine(text))",
                                        httpStatus: http))
        }
        if !(200..<300).contains(status) {
            let summary = plainText(text)
            let detail = summary.isEmpty ? "" : ": \(summary)"
            return .failure(FlickrError(.http, "HTTP \(status) from \(url)\(detail)", httpStatus: http))
        }
        switch parsed {
        case .failure(let error):
            return .failure(FlickrError(.parse, "\(error.message) (\(url))", httpStatus: http))
        case .success(let tree):
            return .failure(FlickrError(.parse, "expected a <rsp> envelope, got <\(tree.rootName)> (\(url))",
                                        httpStatus: http))
        }
    }

    private static func firstLine(_ text: String) -> String {
        String(text.prefix { $0 != "\n" && $0 != "\r" }.prefix(300))
    }

    /// A short, tag-free excerpt of an HTML or text error page.
    private static func plainText(_ text: String) -> String {
        var out = ""
        var inTag = false
        var lastWasSpace = true
        for character in text {
            if character == "<" { inTag = true; continue }
            if character == ">" { inTag = false; continue }
            if inTag { continue }
            let isSpace = character.isWhiteSpace
            if isSpace {
                if !lastWasSpace { out.append(" ") }
            } else {
                out.append(character)
            }
            lastWasSpace = isSpace
            if out.count >= 120 { break }
        }
        return out.trimmingSpaces
    }
}
