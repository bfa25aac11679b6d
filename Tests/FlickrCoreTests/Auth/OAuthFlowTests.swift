// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The network-free parts of the OAuth flow: token answers, the callback parser, URLs.
@Suite struct OAuthFlowTests {
    private func settings() throws -> Settings {
        var s = try Settings(apiKey: "653e7a6ecc1d528c516cc8f92cf98611", sharedSecret: "a9567d986a7539fe")
        try s.set(.oauthEndpoint, string: "http://www.flickr.com/services/oauth")
        return s
    }

    @Test func accessTokenAnswerIsDecoded() throws {
        // docs/protocol.md §11.1 step 3.
        let body = Array(
            "fullname=Jamal%20Fanaian&oauth_token=72157626318069415-087bfc7b5816092c&oauth_token_secret=a202d1f853ec69de&user_nsid=21207597%40N07&username=jamalfanaian"
                .utf8)
        let response = try OAuthTokenRequest.interpret(step: "access_token", status: 200, body: body).get()
        #expect(response.tree.rootName == "oauth")
        #expect(response.root.lookup(path: "fullname")?.string == "Jamal Fanaian")
        #expect(response.root.lookup(path: "user_nsid")?.string == "21207597@N07")
        #expect(response.root.lookup(path: "oauth_token_secret")?.string == "a202d1f853ec69de")
        #expect(Array(response.body) == body)
    }

    @Test func refusalsAreOAuthErrorsWithTheServersText() {
        let refused = OAuthTokenRequest.interpret(
            step: "access_token", status: 401, body: Array("oauth_problem=token_rejected\nmore".utf8))
        guard case .failure(let error) = refused else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .oauth)
        #expect(error.httpStatus == 401)
        #expect(error.message == "OAuth access_token refused the request (HTTP 401): oauth_problem=token_rejected")

        let html = OAuthTokenRequest.interpret(
            step: "request_token", status: 400,
            body: Array("<html><head><title>T</title></head><body><p>Oops! Flickr doesn&#x27;t recognise &quot;x&quot;</p></body></html>".utf8))
        guard case .failure(let page) = html else {
            Issue.record("expected a failure")
            return
        }
        #expect(page.message == "OAuth request_token refused the request (HTTP 400): Oops! Flickr doesn't recognise \"x\"")

        // 200 without a complete token: no secret may leak into the message.
        let partial = OAuthTokenRequest.interpret(
            step: "access_token", status: 200, body: Array("oauth_token_secret=s3cr3t".utf8))
        guard case .failure(let incomplete) = partial else {
            Issue.record("expected a failure")
            return
        }
        #expect(incomplete.code == .oauth)
        #expect(!incomplete.message.contains("s3cr3t"))
    }

    @Test func requestTokenIsSignedWithoutAnyToken() throws {
        var s = try settings()
        try s.set(.oauthToken, string: "stale")
        try s.set(.oauthTokenSecret, string: "stale-secret")
        let operation = try OAuthTokenRequest(.requestToken(callback: "http://www.example.com"))
        let request = try operation.httpRequest(endpoint: operation.endpoint(s), settings: s)
        #expect(request.url.hasPrefix("http://www.flickr.com/services/oauth/request_token?"))
        #expect(request.url.contains("oauth_callback=http%3A%2F%2Fwww.example.com"))
        #expect(!request.url.contains("oauth_token="))
    }

    @Test func callbackParsing() throws {
        let parsed = try OAuthFlow.parseCallback(
            "http://www.example.com/?oauth_token=72157626737672178-022bbd2f4c2f3432&oauth_verifier=5d1b96a26b494074")
        #expect(parsed == .init(token: "72157626737672178-022bbd2f4c2f3432", verifier: "5d1b96a26b494074"))
        #expect(try OAuthFlow.parseCallback("snapnrun://auth?oauth_token=a%2Bb&oauth_verifier=c+d#x") == .init(token: "a+b", verifier: "c d"))
        #expect(throws: FlickrError.self) { try OAuthFlow.parseCallback("http://x/cb") }
        #expect(throws: FlickrError.self) { try OAuthFlow.parseCallback("http://x/cb?oauth_token=a") }
    }

    /// Issue 19, fault 11: a %00 cut the token short in C, a decoded CR/LF went through.
    @Test(arguments: ["oauth_token=ab%00cd&oauth_verifier=v", "oauth_token=t&oauth_verifier=v%0D%0AX-Evil:%201",
                      "oauth_token=t%0A&oauth_verifier=v", "oauth_token=t&oauth_verifier=%1B%5B2J", "oauth_token=%7F&oauth_verifier=v"])
    func controlCharactersInTheCallbackAreRefused(query: String) {
        #expect(throws: FlickrError.self) { try OAuthFlow.parseCallback("http://x/cb?" + query) }
    }

    @Test func authorizeAndLegacyURLs() throws {
        let s = try settings()
        #expect(try OAuthFlow.authorizeURL(settings: s, requestToken: "72157-1", perms: "write")
                == "http://www.flickr.com/services/oauth/authorize?oauth_token=72157-1&perms=write")
        #expect(throws: FlickrError.self) { try OAuthFlow.authorizeURL(settings: s, requestToken: "t", perms: "all") }
        let legacy = try OAuthFlow.legacyLoginURL(settings: s, frob: "f-1", perms: "read")
        let sig = LegacySignature.apiSig(
            secret: "a9567d986a7539fe",
            parameters: [("api_key", "653e7a6ecc1d528c516cc8f92cf98611"), ("frob", "f-1"), ("perms", "read")])
        #expect(legacy == "https://www.flickr.com/services/auth/?api_key=653e7a6ecc1d528c516cc8f92cf98611&perms=read&frob=f-1&api_sig=\(sig)")
    }
}
