// SPDX-License-Identifier: MIT

/// A REST call of one of Flickr's `flickr.auth.*` methods, signed with
/// credentials given for this call rather than the context's (which are never
/// changed): token checks, the legacy-token migration and the deprecated frob
/// flow.
package final class AuthCall: Operation {
    package enum Signing: Sendable {
        /// OAuth 1.0a with this access token and secret.
        case oauth(token: String, secret: String)
        /// Legacy api_sig (MD5), with this auth token when not nil.
        case legacy(authToken: String?)
    }

    let call: RESTCall
    let signing: Signing

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    @_optimize(size)
    package convenience init(method: String, parameters: [(String, String)] = [], signing: Signing)
        throws(FlickrError)
    {
        let call = try RESTCall(method: method, parameters: parameters, verb: .get)
        switch signing {
        case .oauth(let token, let secret):
            try OAuthFlow.requireToken(token, what: "token")
            try OAuthFlow.requireToken(secret, what: "token_secret")
        case .legacy(let authToken):
            if let authToken { try OAuthFlow.requireToken(authToken, what: "auth_token") }
        }
        self.init(call: call, signing: signing)
    }

    @_optimize(size)
    private init(call: RESTCall, signing: Signing) {
        self.call = call
        self.signing = signing
    }

    /// flickr.auth.oauth.checkToken for `token` (the context's when nil): `<oauth>` with token, perms, user.
    @_optimize(size)
    package static func checkToken(settings: Settings, token: String?, secret: String?) throws(FlickrError) -> AuthCall {
        let pair: (String, String)
        if let token {
            guard let secret else { throw .invalid("token_secret must be given with token") }
            pair = (token, secret)
        } else {
            guard let current = settings.oauthToken else {
                throw FlickrError(.state, "the context holds no OAuth token and secret to check")
            }
            pair = current
        }
        return try AuthCall(method: "flickr.auth.oauth.checkToken", signing: .oauth(token: pair.0, secret: pair.1))
    }

    /// flickr.auth.oauth.getAccessToken, legacy-signed with `authToken` (the context's when nil).
    @_optimize(size)
    package static func exchangeLegacyToken(settings: Settings, authToken: String?) throws(FlickrError) -> AuthCall {
        guard let token = authToken ?? settings.string(.authToken) else {
            throw FlickrError(.state, "the context holds no legacy auth token to exchange")
        }
        return try AuthCall(method: "flickr.auth.oauth.getAccessToken", signing: .legacy(authToken: token))
    }

    @_optimize(size)
    package func endpoint(_ settings: Settings) -> String {
        settings.string(.restEndpoint) ?? Settings.defaultRESTEndpoint
    }

    @_optimize(size)
    package func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest {
        guard !settings.sharedSecret.isEmpty else {
            throw .invalid("\(call.method) must be signed: it needs the shared secret (flickr_context_new's)")
        }
        switch signing {
        case .oauth(let token, let secret):
            var adjusted = settings
            try adjusted.set(.authToken, string: nil)
            try adjusted.set(.oauthToken, string: token)
            try adjusted.set(.oauthTokenSecret, string: secret)
            // checkToken reads oauth_token as a method argument: keep it in the query, not a header.
            try adjusted.set(.oauthInHeader, number: 0)
            return try RequestSigning.request(for: call, settings: adjusted, endpoint: endpoint)
        case .legacy(let authToken):
            var parameters = call.parameters
            parameters.append(("method", call.method))
            parameters.append(("api_key", settings.apiKey))
            if let authToken { parameters.append(("auth_token", authToken)) }
            parameters.append(("api_sig", LegacySignature.apiSig(secret: settings.sharedSecret, parameters: parameters)))
            let separator = endpoint.contains("?") ? "&" : "?"
            return HTTPRequest(verb: .get, url: endpoint + separator + PercentEncoding.formEncode(parameters),
                               settings: settings)
        }
    }

    package var parsesXML: Bool { true }

    @_optimize(size)
    package func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    {
        call.interpret(status: status, body: body, parsed: parsed, url: url, within: limit)
    }
}
