// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// docs/protocol.md §11.1–11.5.
@Suite struct SigningOAuthTests {
    static let flickrKey = "653e7a6ecc1d528c516cc8f92cf98611"
    static let flickrSecret = "a9567d986a7539fe"

    // MARK: 11.1 Flickr documentation flow

    static func step1(url: String) throws -> OAuthRequestSigner.Signed {
        let signer = OAuthRequestSigner(consumerKey: flickrKey, consumerSecret: flickrSecret, token: nil, tokenSecret: nil)
        return try signer.sign(
            method: "GET", url: url, parameters: [], extraOAuth: [("oauth_callback", "http://www.example.com")],
            nonce: "95613465", timestamp: 1_305_586_162)
    }

    static func step4(url: String) throws -> OAuthRequestSigner.Signed {
        let signer = OAuthRequestSigner(
            consumerKey: flickrKey, consumerSecret: flickrSecret,
            token: "72157626318069415-087bfc7b5816092c", tokenSecret: "a202d1f853ec69de")
        return try signer.sign(
            method: "GET", url: url,
            parameters: [("nojsoncallback", "1"), ("format", "json"), ("method", "flickr.test.login")],
            nonce: "84354935", timestamp: 1_305_583_871)
    }

    @Test func flickrStep1RequestToken() throws {
        let signed = try Self.step1(url: "http://www.flickr.com/services/oauth/request_token")
        #expect(signed.baseString
            == "GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Foauth%2Frequest_token&oauth_callback%3Dhttp%253A%252F%252Fwww.example.com%26oauth_consumer_key%3D653e7a6ecc1d528c516cc8f92cf98611%26oauth_nonce%3D95613465%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1305586162%26oauth_version%3D1.0")
        #expect(value(signed.parameters, "oauth_signature") == "7w18YS2bONDPL/zgyzP5XTr5af4=")
        #expect(PercentEncoding.encode("7w18YS2bONDPL/zgyzP5XTr5af4=") == "7w18YS2bONDPL%2FzgyzP5XTr5af4%3D")
        #expect(signed.authorizationHeader.contains("oauth_signature=\"7w18YS2bONDPL%2FzgyzP5XTr5af4%3D\""))
        #expect(!signed.parameters.contains { $0.0 == "oauth_token" })
        // The documented reply parses and decodes.
        let reply = PercentEncoding.parseForm(
            "oauth_callback_confirmed=true&oauth_token=72157626737672178-022bbd2f4c2f3432&oauth_token_secret=fccb68c4e6103197")
        #expect(value(reply, "oauth_token_secret") == "fccb68c4e6103197")
    }

    @Test func flickrStep3AccessToken() throws {
        let signer = OAuthRequestSigner(
            consumerKey: Self.flickrKey, consumerSecret: Self.flickrSecret,
            token: "72157626737672178-022bbd2f4c2f3432", tokenSecret: "fccb68c4e6103197")
        let signed = try signer.sign(
            method: "GET", url: "http://www.flickr.com/services/oauth/access_token", parameters: [],
            extraOAuth: [("oauth_verifier", "5d1b96a26b494074")], nonce: "37026218", timestamp: 1_305_586_309)
        #expect(signed.baseString
            == "GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Foauth%2Faccess_token&oauth_consumer_key%3D653e7a6ecc1d528c516cc8f92cf98611%26oauth_nonce%3D37026218%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1305586309%26oauth_token%3D72157626737672178-022bbd2f4c2f3432%26oauth_verifier%3D5d1b96a26b494074%26oauth_version%3D1.0")
        #expect(value(signed.parameters, "oauth_signature") == "UD9TGXzrvLIb0Ar5ynqvzatM58U=")
        let reply = PercentEncoding.parseForm(
            "fullname=Jamal%20Fanaian&oauth_token=72157626318069415-087bfc7b5816092c&oauth_token_secret=a202d1f853ec69de&user_nsid=21207597%40N07&username=jamalfanaian")
        #expect(value(reply, "fullname") == "Jamal Fanaian")
        #expect(value(reply, "user_nsid") == "21207597@N07")
    }

    @Test func flickrStep4RestCall() throws {
        let signed = try Self.step4(url: "http://www.flickr.com/services/rest")
        #expect(signed.baseString
            == "GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Frest&format%3Djson%26method%3Dflickr.test.login%26nojsoncallback%3D1%26oauth_consumer_key%3D653e7a6ecc1d528c516cc8f92cf98611%26oauth_nonce%3D84354935%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1305583871%26oauth_token%3D72157626318069415-087bfc7b5816092c%26oauth_version%3D1.0")
        #expect(value(signed.parameters, "oauth_signature") == "dh3pEH0Xk1qILr82HyhOsxRv1XA=")
        // Caller parameters plus 7 oauth_* ones, sorted.
        #expect(signed.parameters.map(\.0) == [
            "format", "method", "nojsoncallback", "oauth_consumer_key", "oauth_nonce", "oauth_signature",
            "oauth_signature_method", "oauth_timestamp", "oauth_token", "oauth_version",
        ])
        #expect(signed.oauthParameters.count == 7)
        #expect(signed.nonOAuthParameters.map(\.0) == ["format", "method", "nojsoncallback"])
    }

    // MARK: 11.2 Same parameters, other URLs

    @Test func step1OverHTTPS() throws {
        let signed = try Self.step1(url: "https://www.flickr.com/services/oauth/request_token")
        #expect(value(signed.parameters, "oauth_signature") == "2zL7aYEzEEY0IvEgQjT7IqB518U=")
    }

    @Test(arguments: [
        ("http://api.flickr.com/services/rest", "GxxloJaiXUv6U5u0psFJXG0vxOI="),
        ("http://www.flickr.com/services/rest/", "n9WYiswmYHrks1plejLaYYnb2/w="),
        ("https://api.flickr.com/services/rest/", "5+P7V7+LINmeYM1tz2o0pxXoRGo="),
        ("http://www.flickr.com/services/rest", "dh3pEH0Xk1qILr82HyhOsxRv1XA="),
        // Default ports and host case do not change the base URL.
        ("https://API.flickr.com:443/services/rest/", "5+P7V7+LINmeYM1tz2o0pxXoRGo="),
    ])
    func step4OtherURLs(url: String, signature: String) throws {
        #expect(value(try Self.step4(url: url).parameters, "oauth_signature") == signature)
    }

    // MARK: 11.3 RFC 5849 §1.2 and OAuth Core 1.0 A.5

    @Test func rfc5849Initiate() throws {
        let base = try OAuthSignature.baseString(
            method: "POST", url: "https://photos.example.net/initiate",
            parameters: [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_signature_method", "HMAC-SHA1"),
                ("oauth_timestamp", "137131200"), ("oauth_nonce", "wIjqoS"),
                ("oauth_callback", "http://printer.example.com/ready"), ("realm", "Photos"),
            ])
        #expect(base
            == "POST&https%3A%2F%2Fphotos.example.net%2Finitiate&oauth_callback%3Dhttp%253A%252F%252Fprinter.example.com%252Fready%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3DwIjqoS%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131200")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "kd94hf93k423kf44", tokenSecret: "")
            == "74KNZJeDHnMBp0EMJ9ZHt/XKycU=")
    }

    @Test func rfc5849Token() throws {
        let base = try OAuthSignature.baseString(
            method: "post", url: "https://photos.example.net/token",
            parameters: [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "hh5s93j4hdidpola"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "walatlh"),
                ("oauth_verifier", "hfdp7dh39dks9884"), ("oauth_signature", "ignored"),
            ])
        #expect(base
            == "POST&https%3A%2F%2Fphotos.example.net%2Ftoken&oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dwalatlh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dhh5s93j4hdidpola%26oauth_verifier%3Dhfdp7dh39dks9884")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "kd94hf93k423kf44", tokenSecret: "hdhd0244k9j7ao03")
            == "gKgrFCywp7rO0OXSjdot/IHF7IU=")
    }

    @Test func rfc5849Resource() throws {
        // The resource parameters arrive in the URL's query.
        let base = try OAuthSignature.baseString(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original",
            parameters: [
                ("oauth_consumer_key", "dpf43f3p2l4k3l03"), ("oauth_token", "nnch734d00sl2jdk"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131202"), ("oauth_nonce", "chapoH"),
            ])
        #expect(base
            == "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3DchapoH%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131202%26oauth_token%3Dnnch734d00sl2jdk%26size%3Doriginal")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "kd94hf93k423kf44", tokenSecret: "pfkkdhi9sl3r4s00")
            == "MdpQcU8iPSUjWoN/UDMsK2sui9I=")
    }

    @Test func oauthCoreA5() throws {
        let signer = OAuthRequestSigner(
            consumerKey: "dpf43f3p2l4k3l03", consumerSecret: "kd94hf93k423kf44", token: "nnch734d00sl2jdk",
            tokenSecret: "pfkkdhi9sl3r4s00")
        let signed = try signer.sign(
            method: "GET", url: "http://photos.example.net/photos",
            parameters: [("size", "original"), ("file", "vacation.jpg")], nonce: "kllo9940pd9333jh",
            timestamp: 1_191_242_096)
        #expect(signed.baseString
            == "GET&http%3A%2F%2Fphotos.example.net%2Fphotos&file%3Dvacation.jpg%26oauth_consumer_key%3Ddpf43f3p2l4k3l03%26oauth_nonce%3Dkllo9940pd9333jh%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1191242096%26oauth_token%3Dnnch734d00sl2jdk%26oauth_version%3D1.0%26size%3Doriginal")
        #expect(value(signed.parameters, "oauth_signature") == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
        // Same signature when the resource parameters come in the URL instead.
        let viaQuery = try signer.sign(
            method: "GET", url: "http://photos.example.net/photos?file=vacation.jpg&size=original", parameters: [],
            nonce: "kllo9940pd9333jh", timestamp: 1_191_242_096)
        #expect(value(viaQuery.parameters, "oauth_signature") == "tR3+Ty81lMeYAr/Fid0kMTYa/WM=")
        #expect(!viaQuery.parameters.contains { $0.0 == "file" })
    }

    // MARK: 11.4 RFC 5849 §3.4.1.1

    @Test func rfc5849QueryAndBody() throws {
        let body = PercentEncoding.parseForm("c2&a3=2+q")
        #expect(body.map(\.0) == ["c2", "a3"])
        #expect(body.map(\.1) == ["", "2 q"])
        let base = try OAuthSignature.baseString(
            method: "POST", url: "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b",
            parameters: body + [
                ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
                ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"), ("oauth_nonce", "7d8f3e4a"),
            ])
        #expect(base
            == "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "j49sk3j29djd", tokenSecret: "dh893hdasih9")
            == "r6/TJjbCOr97/+UU0NsvSne7s5g=")
    }

    // MARK: 11.5 Library unit-test vectors

    @Test func flickrSDK() throws {
        let base = try OAuthSignature.baseString(
            method: "GET", url: "http://www.example.com", parameters: [("foo", "123"), ("bar", "456")])
        #expect(base == "GET&http%3A%2F%2Fwww.example.com&bar%3D456%26foo%3D123")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "consumer secret", tokenSecret: "")
            == "lNBTzyWRRHBuoXmgK13Nht5oiKs=")
        #expect(OAuthSignature.hmacSHA1(base: base, consumerSecret: "consumer secret", tokenSecret: "keyboard cat")
            == "pytjoWTzMmvq13/Bai9YVX1tV9c=")
        #expect(try OAuthSignature.baseString(method: "GET", url: "http://www.example.com", parameters: [("foo", "!'()*")])
            == "GET&http%3A%2F%2Fwww.example.com&foo%3D%2521%2527%2528%2529%252A")
    }

    @Test(arguments: [("token12345secret", "dXyfrCetFSTpzD3djSrkFhj0MIQ="), ("", "0fhNGlzpFNAsTme/hDfUb5HPB5U=")])
    func masci(tokenSecret: String, signature: String) throws {
        let signer = OAuthRequestSigner(
            consumerKey: "768fe946d252b119746fda82e1599980", consumerSecret: "1a3c208e172d3edc", token: nil,
            tokenSecret: tokenSecret)
        let signed = try signer.sign(
            method: "GET", url: "http://www.flickr.com/services/oauth/request_token", parameters: [],
            extraOAuth: [("oauth_callback", "http://www.wackylabs.net/oauth/test")],
            nonce: "C2F26CD5C075BA9050AD8EE90644CF29", timestamp: 1_316_657_628)
        #expect(signed.baseString
            == "GET&http%3A%2F%2Fwww.flickr.com%2Fservices%2Foauth%2Frequest_token&oauth_callback%3Dhttp%253A%252F%252Fwww.wackylabs.net%252Foauth%252Ftest%26oauth_consumer_key%3D768fe946d252b119746fda82e1599980%26oauth_nonce%3DC2F26CD5C075BA9050AD8EE90644CF29%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1316657628%26oauth_version%3D1.0")
        #expect(value(signed.parameters, "oauth_signature") == signature)
    }

    static func derived() throws -> OAuthRequestSigner.Signed {
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: "tok", tokenSecret: "ts")
        return try signer.sign(
            method: "GET", url: "https://api.flickr.com/services/rest/", parameters: [("method", "flickr.test.login")],
            nonce: "ABCDEF12", timestamp: 1_300_000_000)
    }

    @Test func derivedObjectiveFlickr() throws {
        let signed = try Self.derived()
        #expect(signed.baseString
            == "GET&https%3A%2F%2Fapi.flickr.com%2Fservices%2Frest%2F&method%3Dflickr.test.login%26oauth_consumer_key%3Dck%26oauth_nonce%3DABCDEF12%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1300000000%26oauth_token%3Dtok%26oauth_version%3D1.0")
        #expect(value(signed.parameters, "oauth_signature") == "RDF0ABlvL6kiAAWSyponRtOVZls=")
        #expect(PercentEncoding.formEncode(signed.parameters)
            == "method=flickr.test.login&oauth_consumer_key=ck&oauth_nonce=ABCDEF12&oauth_signature=RDF0ABlvL6kiAAWSyponRtOVZls%3D&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1300000000&oauth_token=tok&oauth_version=1.0")
    }

    // MARK: Header form

    @Test func authorizationHeaderParsesBack() throws {
        let signed = try Self.derived()
        #expect(signed.authorizationHeader
            == "OAuth oauth_consumer_key=\"ck\", oauth_nonce=\"ABCDEF12\", oauth_signature=\"RDF0ABlvL6kiAAWSyponRtOVZls%3D\", oauth_signature_method=\"HMAC-SHA1\", oauth_timestamp=\"1300000000\", oauth_token=\"tok\", oauth_version=\"1.0\"")
        let parsed = try #require(parseHeader(signed.authorizationHeader))
        #expect(parsed.map(\.0) == signed.oauthParameters.map(\.0))
        #expect(parsed.map(\.1) == signed.oauthParameters.map(\.1))
        // A server rebuilding the base string from header + query gets the same signature.
        let rebuilt = try OAuthSignature.baseString(
            method: "GET", url: "https://api.flickr.com/services/rest/?method=flickr.test.login", parameters: parsed)
        #expect(rebuilt == signed.baseString)
        #expect(OAuthSignature.hmacSHA1(base: rebuilt, consumerSecret: "cs", tokenSecret: "ts")
            == value(parsed, "oauth_signature"))
    }

    @Test func headerEncodesAwkwardValues() throws {
        let signer = OAuthRequestSigner(consumerKey: "k y", consumerSecret: "s\"&", token: "t,\"=", tokenSecret: "é")
        let signed = try signer.sign(
            method: "POST", url: "https://up.flickr.com/services/upload/",
            parameters: [("title", "café ✓ \"quoted\", with, commas"), ("tags", "a b")],
            extraOAuth: [("oauth_callback", "https://example.com/cb?x=1&y=\"2\"")])
        let parsed = try #require(parseHeader(signed.authorizationHeader))
        #expect(parsed.map(\.0) == signed.oauthParameters.map(\.0))
        #expect(parsed.map(\.1) == signed.oauthParameters.map(\.1))
        #expect(value(parsed, "oauth_token") == "t,\"=")
        #expect(value(parsed, "oauth_callback") == "https://example.com/cb?x=1&y=\"2\"")
        // Header form (non-oauth in body, oauth in header) verifies like the body form.
        let rebuilt = try OAuthSignature.baseString(
            method: "POST", url: "https://up.flickr.com/services/upload/",
            parameters: PercentEncoding.parseForm(Substring(PercentEncoding.formEncode(signed.nonOAuthParameters))) + parsed)
        #expect(rebuilt == signed.baseString)
        #expect(OAuthSignature.hmacSHA1(base: rebuilt, consumerSecret: "s\"&", tokenSecret: "é")
            == value(signed.parameters, "oauth_signature"))
    }

    // MARK: Signer behaviour

    @Test func callerOAuthValuesReplaced() throws {
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: "tok", tokenSecret: "ts")
        let signed = try signer.sign(
            method: "GET", url: "https://api.flickr.com/services/rest/",
            parameters: [
                ("method", "flickr.test.login"), ("oauth_nonce", "stale"), ("oauth_version", "2.0"),
                ("oauth_signature", "bogus"), ("oauth_token", "other"), ("oauth_consumer_key", "x"),
                ("oauth_timestamp", "1"), ("oauth_signature_method", "PLAINTEXT"),
            ],
            nonce: "ABCDEF12", timestamp: 1_300_000_000)
        let reference = try Self.derived()
        #expect(signed.baseString == reference.baseString)
        #expect(signed.parameters.map(\.0) == reference.parameters.map(\.0))
        #expect(signed.parameters.map(\.1) == reference.parameters.map(\.1))
        let names = signed.parameters.map(\.0)
        #expect(Set(names).count == names.count)
    }

    @Test func extraOAuthReplacesCallerValue() throws {
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: "tok", tokenSecret: "ts")
        let signed = try signer.sign(
            method: "GET", url: "https://www.flickr.com/services/oauth/access_token",
            parameters: [("oauth_verifier", "old")], extraOAuth: [("oauth_verifier", "new")],
            nonce: "n", timestamp: 5)
        #expect(signed.parameters.filter { $0.0 == "oauth_verifier" }.map(\.1) == ["new"])
    }

    @Test func duplicatesKeptAndSorted() throws {
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: nil, tokenSecret: nil)
        let signed = try signer.sign(
            method: "POST", url: "https://api.flickr.com/services/rest/",
            parameters: [("tags", "b"), ("a", "z"), ("tags", "a"), ("tags", "b")], nonce: "n", timestamp: 7)
        #expect(signed.nonOAuthParameters.map { "\($0.0)=\($0.1)" } == ["a=z", "tags=a", "tags=b", "tags=b"])
        #expect(signed.baseString.contains("tags%3Da%26tags%3Db%26tags%3Db"))
    }

    @Test func defaultNonceAndTimestamp() throws {
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: nil, tokenSecret: nil)
        let first = try signer.sign(method: "GET", url: "https://api.flickr.com/services/rest/", parameters: [])
        let second = try signer.sign(method: "GET", url: "https://api.flickr.com/services/rest/", parameters: [])
        let nonce = try #require(value(first.parameters, "oauth_nonce"))
        #expect(nonce.count == 32)
        #expect(nonce != value(second.parameters, "oauth_nonce"))
        let timestamp = try #require(Int(value(first.parameters, "oauth_timestamp") ?? ""))
        #expect(timestamp > 1_700_000_000)
    }

    @Test(arguments: ["ftp://example.com/", "example.com/rest", "", "https://", "http://a b/"])
    func rejectsNonHTTPURLs(url: String) {
        #expect(throws: FlickrError.self) {
            try OAuthSignature.baseString(method: "GET", url: url, parameters: [])
        }
        let signer = OAuthRequestSigner(consumerKey: "ck", consumerSecret: "cs", token: nil, tokenSecret: nil)
        do {
            _ = try signer.sign(method: "GET", url: url, parameters: [])
            Issue.record("no error")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func rejectsBadMethod() {
        for method in ["", "G ET", "GET\n"] {
            #expect(throws: FlickrError.self) {
                try OAuthSignature.baseString(method: method, url: "https://h/", parameters: [])
            }
        }
    }

    @Test func baseStringKeepsPortAndPath() throws {
        #expect(try OAuthSignature.baseString(method: "GET", url: "http://127.0.0.1:8080/services/rest/#x", parameters: [])
            == "GET&http%3A%2F%2F127.0.0.1%3A8080%2Fservices%2Frest%2F&")
        // Path as written: none stays none, "/" stays "/" (docs/protocol.md §5, rule 5).
        #expect(try OAuthSignature.baseString(method: "GET", url: "http://Example.com:80?a=1", parameters: [])
            == "GET&http%3A%2F%2Fexample.com&a%3D1")
        #expect(try OAuthSignature.baseString(method: "GET", url: "http://example.com/?a=1", parameters: [])
            == "GET&http%3A%2F%2Fexample.com%2F&a%3D1")
        #expect(try OAuthSignature.baseString(method: "GET", url: "https://example.com:8443#f", parameters: [])
            == "GET&https%3A%2F%2Fexample.com%3A8443&")
    }

    // MARK: Nonce

    @Test func nonces() {
        var seen = Set<String>()
        for _ in 0..<1000 {
            let nonce = OAuthSignature.nonce()
            #expect(nonce.count == 32)
            #expect(nonce.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            seen.insert(nonce)
        }
        #expect(seen.count == 1000)
    }
}

fileprivate func value(_ pairs: [(String, String)], _ name: String) -> String? {
    pairs.first { $0.0 == name }?.1
}

/// Parses `OAuth k="v", k2="v2"` (values percent-decoded), nil when malformed.
fileprivate func parseHeader(_ header: String) -> [(String, String)]? {
    guard header.hasPrefix("OAuth ") else { return nil }
    var result: [(String, String)] = []
    for item in header.dropFirst(6).split(separator: ",") {
        let trimmed = item.drop { $0 == " " }
        guard let equals = trimmed.firstIndex(of: "=") else { return nil }
        let name = trimmed[..<equals]
        var quoted = trimmed[trimmed.index(after: equals)...]
        guard quoted.hasPrefix("\""), quoted.hasSuffix("\""), quoted.count >= 2 else { return nil }
        quoted = quoted.dropFirst().dropLast()
        result.append((String(name), PercentEncoding.decode(quoted, plusAsSpace: false)))
    }
    return result
}
