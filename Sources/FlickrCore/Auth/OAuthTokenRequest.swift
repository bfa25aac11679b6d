// SPDX-License-Identifier: MIT

/// One call to an OAuth 1.0a token endpoint (docs/protocol.md §4): step 1
/// (`request_token`) or step 3 (`access_token`).
///
/// The token a request is signed with is always given explicitly: step 1 is
/// signed with the consumer secret alone, whatever the context holds
/// (ObjectiveFlickr signed it with a stale token: docs/protocol.md §12), and
/// step 3 with the request token's secret. The context's own tokens are never
/// read nor changed.
package final class OAuthTokenRequest: Operation {
    package enum Step: Sendable {
        /// `oauth_callback` is a URL (any scheme) or `oob`.
        case requestToken(callback: String)
        case accessToken(requestToken: String, requestTokenSecret: String, verifier: String)

        var path: String {
            switch self {
            case .requestToken: "request_token"
            case .accessToken: "access_token"
            }
        }
    }

    package let step: Step

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(_ step: Step) throws(FlickrError) {
        switch step {
        case .requestToken(let callback):
            try OAuthFlow.requireToken(callback, what: "callback_url")
        case .accessToken(let token, let secret, let verifier):
            try OAuthFlow.requireToken(token, what: "request_token")
            try OAuthFlow.requireToken(secret, what: "request_token_secret")
            try OAuthFlow.requireToken(verifier, what: "verifier")
        }
        self.init(validStep: step)
    }

    @_optimize(size)
    private init(validStep step: Step) {
        self.step = step
    }

    @_optimize(size)
    package func endpoint(_ settings: Settings) -> String {
        OAuthFlow.endpoint(settings, step.path)
    }

    @_optimize(size)
    package func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest {
        guard !settings.sharedSecret.isEmpty else {
            throw .invalid("OAuth token requests need the shared secret (flickr_context_new's shared_secret)")
        }
        let signer: OAuthRequestSigner
        let extra: [(String, String)]
        switch step {
        case .requestToken(let callback):
            signer = OAuthRequestSigner(
                consumerKey: settings.apiKey, consumerSecret: settings.sharedSecret, token: nil, tokenSecret: nil)
            extra = [("oauth_callback", callback)]
        case .accessToken(let token, let secret, let verifier):
            signer = OAuthRequestSigner(
                consumerKey: settings.apiKey, consumerSecret: settings.sharedSecret, token: token, tokenSecret: secret)
            extra = [("oauth_verifier", verifier)]
        }
        let signed = try signer.sign(method: "GET", url: endpoint, parameters: [], extraOAuth: extra)
        var headers: [String] = []
        var query = signed.parameters
        if settings.number(.oauthInHeader) != 0 {
            headers.append("Authorization: \(signed.authorizationHeader)")
            query = signed.nonOAuthParameters
        }
        var url = endpoint
        if !query.isEmpty {
            url += (endpoint.contains("?") ? "&" : "?") + PercentEncoding.formEncode(query)
        }
        var request = HTTPRequest(verb: .get, url: url, settings: settings)
        request.headers = headers
        return request
    }

    package var parsesXML: Bool { false }

    @_optimize(size)
    package func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    {
        OAuthTokenRequest.interpret(step: step.path, status: status, body: body.array)
    }

    /// A 2xx form body with a non-empty oauth_token and oauth_token_secret is a
    /// token (values URL-decoded); anything else is FLICKR_EOAUTH carrying the
    /// first line of the server's text (its `oauth_problem=...`), bounded.
    @_optimize(size)
    static func interpret(step: String, status: Int, body: [UInt8]) -> Result<Response, FlickrError> {
        let http = Int32(clamping: status)
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        if (200..<300).contains(status), !looksLikeMarkup(text) {
            let pairs = PercentEncoding.parseForm(Substring(String(decoding: body, as: UTF8.self)))
            let has = { (name: String) in pairs.contains { $0.0 == name && !$0.1.isEmpty } }
            if has("oauth_token"), has("oauth_token_secret"), !has("oauth_problem") {
                do throws(FlickrError) {
                    let tree = try ValueTree.object(pairs, rootName: "oauth")
                    return .success(Response(tree: tree, body: body, httpStatus: status))
                } catch {
                    return .failure(FlickrError(.parse, "\(step): \(error.message)", httpStatus: http))
                }
            }
        }
        let detail = problemText(text)
        let what = (200..<300).contains(status) ? "answered without a token" : "refused the request"
        return .failure(FlickrError(
            .oauth, "OAuth \(step) \(what) (HTTP \(status))" + (detail.isEmpty ? "" : ": \(detail)"), httpStatus: http))
    }

    @_optimize(size)
    private static func looksLikeMarkup(_ text: String) -> Bool {
        text.drop { $0.isWhiteSpace }.hasPrefix("<")
    }

    /// `oauth_problem=...` answers: their first line; HTML pages: a tag-free excerpt. Never the token secret:
    /// a body holding one is a success and never reaches here.
    @_optimize(size)
    static func problemText(_ text: String) -> String {
        if looksLikeMarkup(text) { return plainText(text) }
        var line = String(text.prefix { $0 != "\n" && $0 != "\r" }.prefix(300))
        if line.containsText("oauth_token_secret=") { line = "(an answer without a complete token)" }
        return line
    }

    /// A short, tag-free excerpt of an HTML page (script and style contents skipped).
    @_optimize(size)
    static func plainText(_ text: String) -> String {
        var out = ""
        var tag = ""
        var inTag = false
        var skipping = false
        var lastWasSpace = true
        for character in text {
            if character == "<" {
                inTag = true
                tag = ""
                continue
            }
            if inTag {
                if character == ">" {
                    inTag = false
                    let name = tag.asciiLowercased()  // ASCII tag names
                    if name.hasPrefix("script") || name.hasPrefix("style") || name.hasPrefix("title") {
                        skipping = true
                    } else if name.hasPrefix("/script") || name.hasPrefix("/style") || name.hasPrefix("/title") {
                        skipping = false
                    }
                    if !lastWasSpace {
                        out.append(" ")
                        lastWasSpace = true
                    }
                } else {
                    tag.append(character)
                }
                continue
            }
            if skipping { continue }
            if character.isWhiteSpace {
                if !lastWasSpace { out.append(" ") }
                lastWasSpace = true
            } else {
                out.append(character)
                lastWasSpace = false
            }
            if out.count >= 240 { break }
        }
        for (entity, character) in [
            ("&quot;", "\""), ("&#x27;", "'"), ("&#39;", "'"), ("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"),
        ] {
            out = out.replacingText(entity, with: character)
        }
        while out.last == " " { out.removeLast() }
        return String(out.prefix(200))
    }
}
