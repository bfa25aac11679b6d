// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// SignedForm (the calls' fast path) must give what `OAuthRequestSigner.sign(...).formEncoded` gives, byte
/// for byte, whatever the parameters; the known-answer vectors of OAuthSignatureTests pin `sign` itself.
@Suite struct SignedFormTests {
    static let signer = OAuthRequestSigner(
        consumerKey: "653e7a6ecc1d528c516cc8f92cf98611", consumerSecret: "a9567d986a7539fe",
        token: "72157626318069415-087bfc7b5816092c", tokenSecret: "a202d1f853ec69de")

    static func both(
        signer: OAuthRequestSigner = signer, method: String = "GET",
        url: String = "https://api.flickr.com/services/rest/", _ parameters: [(String, String)]
    ) throws -> (fast: String, reference: String) {
        let fast = try SignedForm.make(
            signer, method: method, url: url, parameters: parameters, nonce: "84354935", timestamp: 1_305_583_871)
        let reference = try signer.sign(
            method: method, url: url, parameters: parameters, nonce: "84354935", timestamp: 1_305_583_871)
        return (fast, reference.formEncoded)
    }

    @Test func flickrStep4Vector() throws {
        let signed = try Self.both(url: "http://www.flickr.com/services/rest",
                                   [("nojsoncallback", "1"), ("format", "json"), ("method", "flickr.test.login")])
        #expect(signed.fast == signed.reference)
        #expect(signed.fast.contains("&oauth_signature=dh3pEH0Xk1qILr82HyhOsxRv1XA%3D&"))
    }

    @Test(arguments: [
        [(String, String)](),
        [("method", "flickr.photos.search"), ("api_key", "k"), ("text", "a b&c=d/é+~")],
        [("tags", "x"), ("tags", "b"), ("tags", "a"), ("tag", "z"), ("tags", "a")],  // duplicates, prefixes
        [("", ""), ("empty", ""), ("Upper", "1"), ("lower", "1"), ("_", "~"), ("-", ".")],
        [("emoji", "📷 ✓"), ("percent", "100%"), ("nul", "a\u{0}b"), ("ctrl", "\t\n")],
        [("oauth_signaturf", "1"), ("oauth_signatur", "2"), ("oauth_z", "3")].map { ($0.0.uppercased(), $0.1) },
        (0..<60).map { ("p\(59 - $0 % 7)", "v\($0)") },  // more than an insertion sort's worth
    ])
    func matchesSign(parameters: [(String, String)]) throws {
        let signed = try Self.both(parameters)
        #expect(signed.fast == signed.reference)
        let post = try Self.both(method: "POST", parameters)
        #expect(post.fast == post.reference)
        #expect(post.fast != signed.fast)  // the method is signed
    }

    @Test func withoutTokenAndWithAwkwardSecrets() throws {
        let signer = OAuthRequestSigner(consumerKey: "key with space", consumerSecret: "s&c=ret%",
                                        token: nil, tokenSecret: nil)
        let signed = try Self.both(signer: signer, [("a", "1")])
        #expect(signed.fast == signed.reference)
        #expect(!signed.fast.contains("oauth_token"))
        let long = OAuthRequestSigner(consumerKey: "k", consumerSecret: String(repeating: "x", count: 100),
                                      token: "t", tokenSecret: String(repeating: "y", count: 100))  // key > one block
        let longSigned = try Self.both(signer: long, [("a", "1")])
        #expect(longSigned.fast == longSigned.reference)
    }

    @Test(arguments: [
        ("GET", "https://api.flickr.com/services/rest/?format=rest", [("a", "1")]),  // endpoint query
        ("get", "https://api.flickr.com/services/rest/", [("a", "1")]),  // lowercase method
        ("GET", "https://api.flickr.com/services/rest/", [("realm", "r"), ("a", "1")]),
        ("GET", "https://api.flickr.com/services/rest/", [("oauth_signature", "forged"), ("a", "1")]),
        ("GET", "https://api.flickr.com/services/rest/", [("oauth_token", "other"), ("a", "1")]),
    ])
    func casesLeftToSignAgree(method: String, url: String, parameters: [(String, String)]) throws {
        let signed = try Self.both(method: method, url: url, parameters)
        #expect(signed.fast == signed.reference)
    }

    @Test func refusesWhatSignRefuses() {
        #expect(throws: FlickrError.self) {
            _ = try SignedForm.make(Self.signer, method: "GET", url: "ftp://example.com/", parameters: [])
        }
        #expect(throws: FlickrError.self) {
            _ = try SignedForm.make(Self.signer, method: "G T", url: "https://example.com/", parameters: [])
        }
    }

    @Test func ownNonceAndTimestampSignTheSameWay() throws {
        let url = "https://api.flickr.com/services/rest/"
        let form = try SignedForm.make(Self.signer, method: "GET", url: url, parameters: [("a", "1")])
        let pairs = PercentEncoding.parseForm(Substring(form))
        let nonce = try #require(pairs.first { $0.0 == "oauth_nonce" }?.1)
        let timestamp = try #require(pairs.first { $0.0 == "oauth_timestamp" }.flatMap { Int($0.1) })
        #expect(nonce.count == 32 && nonce.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        let again = try Self.signer.sign(method: "GET", url: url, parameters: [("a", "1")], nonce: nonce,
                                         timestamp: timestamp)
        #expect(form == again.formEncoded)
        let other = try SignedForm.make(Self.signer, method: "GET", url: url, parameters: [("a", "1")])
        #expect(other != form)  // a fresh nonce each time
    }
}
