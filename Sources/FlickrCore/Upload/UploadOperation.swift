// SPDX-License-Identifier: MIT

/// An upload (or a replace) as an operation: the caller's arguments plus the
/// credentials become signed multipart fields (every field but `photo` is
/// signed, as Flickr requires), the photo streams from its source.
package final class UploadOperation: Operation {
    package enum Target: Sendable {
        case upload
        case replace(photoID: String)
    }

    /// Arguments the library sets itself, refused from callers.
    static let reservedNames: Set<String> = ["photo", "photo_id", "api_key", "api_sig", "auth_token", "method", "format"]

    let target: Target
    let source: UploadSource
    let parameters: [(String, String)]
    let progress: UploadProgress.Handler?

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(
        target: Target, source: UploadSource, parameters: [(String, String)],
        progress: (@Sendable (Int64, Int64) -> Bool)?
    ) throws(FlickrError) {
        if case .replace(let photoID) = target {
            guard !photoID.isEmpty, photoID.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                throw .invalid("photo_id must be a decimal photo id")
            }
        }
        for (name, _) in parameters {
            guard !name.isEmpty else { throw .invalid("a parameter name must not be empty") }
            if UploadOperation.reservedNames.contains(name) || name.hasPrefix("oauth_") {
                throw .invalid("parameter \"\(name)\" is set by libflickr; do not pass it")
            }
        }
        self.init(validTarget: target, source: source, parameters: parameters, progress: progress)
    }

    @_optimize(size)
    private init(
        validTarget target: Target, source: UploadSource, parameters: [(String, String)],
        progress: UploadProgress.Handler?
    ) {
        self.target = target
        self.source = source
        self.parameters = parameters
        self.progress = progress
    }

    @_optimize(size)
    package func endpoint(_ settings: Settings) -> String {
        switch target {
        case .upload: settings.string(.uploadEndpoint) ?? Settings.defaultUploadEndpoint
        case .replace: settings.string(.replaceEndpoint) ?? Settings.defaultReplaceEndpoint
        }
    }

    @_optimize(size)
    package func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest {
        var fields = parameters
        if case .replace(let photoID) = target { fields.append(("photo_id", photoID)) }
        fields.append(("api_key", settings.apiKey))
        var headers: [String] = []
        if let token = settings.oauthToken {
            guard !settings.sharedSecret.isEmpty else { throw .invalid("OAuth-signed uploads need the shared secret") }
            let signer = OAuthRequestSigner(
                consumerKey: settings.apiKey, consumerSecret: settings.sharedSecret, token: token.token,
                tokenSecret: token.secret)
            let signed = try signer.sign(method: "POST", url: endpoint, parameters: fields)
            if settings.number(.oauthInHeader) != 0 {
                headers.append("Authorization: \(signed.authorizationHeader)")
                fields = signed.nonOAuthParameters
            } else {
                fields = signed.parameters
            }
        } else if let authToken = settings.string(.authToken) {
            guard !settings.sharedSecret.isEmpty else { throw .invalid("legacy-signed uploads need the shared secret") }
            fields.append(("auth_token", authToken))
            fields.append(("api_sig", LegacySignature.apiSig(secret: settings.sharedSecret, parameters: fields)))
        } else {
            throw FlickrError(.state, "uploads need a user: set FLICKR_OPT_OAUTH_TOKEN and its secret "
                              + "(or a legacy FLICKR_OPT_AUTH_TOKEN) on the context")
        }
        var request = HTTPRequest(verb: .post, url: endpoint, settings: settings)
        request.headers = headers
        request.upload = UploadPlan(
            fields: fields, source: source, progress: progress,
            idleTimeoutMs: settings.number(.uploadIdleTimeoutMs),
            responseTimeoutMs: settings.number(.uploadResponseTimeoutMs))
        return request
    }

    package var parsesXML: Bool { true }

    /// Large files take as long as the link needs: the idle and answer-wait limits watch uploads.
    package var hasCallDeadline: Bool { false }

    package var isResendable: Bool {
        if case .stream = source.kind { return false }
        return true
    }

    package var logLabel: String {
        switch target {
        case .upload: "upload"
        case .replace(let photoID): "replace \(photoID)"
        }
    }

    @_optimize(size)
    package func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    {
        ResponseInterpreter.interpret(
            status: status, body: body, parsed: parsed ?? .failure(FlickrError(.parse, "no XML body")), url: url)
    }

    /// A replace keeps the photo's URLs: photo caches must stop serving its old image. Whatever the
    /// outcome, since a replace whose answer was lost may still have happened.
    @_optimize(size)
    package func ended() {
        if case .replace(let photoID) = target { ReplacedPhotos.record(photoID) }
    }
}
