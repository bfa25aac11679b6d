// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct EndpointURLTests {
    @Test func splitsParts() throws {
        let url = try EndpointURL(parsing: "HTTP://Example.COM:8080/a/b?x=1&y=2#frag", what: "url")
        #expect(url.scheme == "http")
        #expect(url.host == "example.com")
        #expect(url.port == 8080)
        #expect(url.path == "/a/b")
        #expect(url.query == "x=1&y=2")
        // Schemes and hosts compare as ASCII: the Kelvin sign (U+212A) is not a "k".
        #expect(throws: FlickrError.self) { try EndpointURL(parsing: "https://api.flic\u{212A}r.com/", what: "url") }
        #expect(throws: FlickrError.self) { try EndpointURL(parsing: "HTTP\u{017F}://api.flickr.com/", what: "url") }
    }

    /// RFC 5849 §3.4.1.2: default ports vanish, others stay, the path is kept as sent.
    @Test func signatureBase() throws {
        #expect(try EndpointURL(parsing: "https://api.flickr.com:443/services/rest/", what: "u").signatureBase
            == "https://api.flickr.com/services/rest/")
        #expect(try EndpointURL(parsing: "http://example.com:80/r?b5=%3D%253D", what: "u").signatureBase
            == "http://example.com/r")
        #expect(try EndpointURL(parsing: "http://127.0.0.1:9000", what: "u").signatureBase
            == "http://127.0.0.1:9000/")
        #expect(try EndpointURL(parsing: "https://www.example.net:8080/?q=1", what: "u").signatureBase
            == "https://www.example.net:8080/")
    }

    @Test func effectivePort() throws {
        #expect(try EndpointURL(parsing: "https://h/", what: "u").effectivePort == 443)
        #expect(try EndpointURL(parsing: "http://h/", what: "u").effectivePort == 80)
        #expect(try EndpointURL(parsing: "http://[::1]:81/", what: "u").host == "[::1]")
    }

    /// Found by the photourl fuzz target: a "/" followed by a combining mark is one Character, so a
    /// Character-level parser saw no end of host and took "/\u{617}" for the host.
    @Test func splitsByScalarsNotCharacters() throws {
        // Refused since libcurl sends the path percent-encoded (refusesWhatLibcurlReadsOtherwise).
        for text in ["https://h.example/\u{301}x?q=\u{301}", "https://\u{617}#?sg", "https://\u{617}", "http://caf\u{E9}.example/", "https://h\u{301}:8080/"] {
            #expect(throws: FlickrError.self, "\(text)") { try EndpointURL(parsing: text, what: "u") }
        }
    }

    @Test func portIsDigitsOnly() throws {
        for text in ["http://h:+80/", "http://h:-1/", "http://h:0/", "http://h:65536/", "http://h:/", "http://h:8O/"] {
            #expect(throws: FlickrError.self, "\(text)") { try EndpointURL(parsing: text, what: "u") }
        }
        #expect(try EndpointURL(parsing: "http://h:00080/", what: "u").port == 80)
    }

    /// Each URL the old parser accepted while libcurl (7.88) read it otherwise, so the signature base
    /// string or the redirect check saw another URL than the one sent; libcurl's reading on the right.
    @Test func refusesWhatLibcurlReadsOtherwise() {
        let disagreements = [
            "http://127.1/",  // host 127.0.0.1
            "http://0x7f.0.0.1/",  // host 127.0.0.1
            "http://2130706433/",  // host 127.0.0.1
            "http://010.0.0.1/",  // host 8.0.0.1 (octal)
            "http://[0:0::1]/",  // host [::1]
            "http://[fe80::1%25eth0]/",  // host [fe80::1], the zone apart
            "http://[::1/",  // refused: bad IPv6 address (old: host "[:", port 1)
            "http://ex%41mple.com/",  // host exAmple.com
            "http://h\\evil.com/",  // refused: bad hostname
            "http://a!b.com/",  // refused: bad hostname
            "http://h/a/../b",  // path /b
            "http://h/./b",  // path /b
            "http://h/a/..",  // path /
            "http://h/\u{E9}",  // path /%c3%a9
            "http://h/?q=\u{E9}",  // query q=%c3%a9
        ]
        for text in disagreements {
            #expect(throws: FlickrError.self, "\(text)") { try EndpointURL(parsing: text, what: "u") }
        }
    }

    /// Forms both parsers read alike stay accepted.
    @Test func acceptsWhatLibcurlReadsAlike() throws {
        for text in [
            "HTTP://EXAMPLE.COM:8080/P?x=1#f", "http://example.com./", "http://[::1]:81/", "http://h/a%2fb",
            "http://h/a/%2e%2e/b", "http://h/a\\b", "http://h?x#y", "http://h/p?q#f", "http://127.0.0.1:9000",
            "https://h:443/", "http://h/?", "http://a_b.com/",
        ] {
            #expect(throws: Never.self, "\(text)") { _ = try EndpointURL(parsing: text, what: "u") }
        }
        #expect(try EndpointURL(parsing: "http://h?x#y", what: "u").signatureBase == "http://h/")
    }
}
