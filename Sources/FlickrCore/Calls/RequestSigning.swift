// SPDX-License-Identifier: MIT

/// Turns a call into a signed HTTP request, choosing the scheme from the
/// context: OAuth 1.0a when it holds an access token and secret, the legacy
/// api_sig when it holds a legacy auth token, unsigned otherwise.
enum RequestSigning {
    static func request(for call: RESTCall, settings: Settings, endpoint: String) throws(FlickrError) -> HTTPRequest {
        var parameters = call.parameters
        parameters.append(("method", call.method))
        parameters.append(("api_key", settings.apiKey))
        var headers: [String] = []
        var encoded: String?

        if let token = settings.oauthToken {
            guard !settings.sharedSecret.isEmpty else {
                throw .invalid("OAuth-signed calls need the shared secret (flickr_context_new's shared_secret)")
            }
            let signer = OAuthRequestSigner(
                consumerKey: settings.apiKey, consumerSecret: settings.sharedSecret, token: token.token,
                tokenSecret: token.secret)
            if settings.number(.oauthInHeader) != 0 {
                let signed = try signer.sign(method: call.verb.rawValue, url: endpoint, parameters: parameters)
                headers.append("Authorization: \(signed.authorizationHeader)")
            } else {
                encoded = try SignedForm.make(signer, method: call.verb.rawValue, url: endpoint, parameters: parameters)
            }
        } else if let authToken = settings.string(.authToken) {
            guard !settings.sharedSecret.isEmpty else {
                throw .invalid("calls with a legacy auth token need the shared secret to compute api_sig")
            }
            parameters.append(("auth_token", authToken))
            parameters.append(("api_sig", LegacySignature.apiSig(secret: settings.sharedSecret, parameters: parameters)))
        }

        let form = encoded ?? PercentEncoding.formEncode(parameters)
        switch call.verb {
        case .get:
            let separator = endpoint.utf8Offset(of: UInt8(ascii: "?")) != nil ? "&" : "?"
            var request = HTTPRequest(verb: .get, url: endpoint + separator + form, settings: settings)
            request.headers = headers
            return request
        case .post:
            var request = HTTPRequest(verb: .post, url: endpoint, settings: settings)
            request.headers = headers + ["Content-Type: application/x-www-form-urlencoded"]
            request.body = Array(form.utf8)
            return request
        }
    }
}
