// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct SigningPercentEncodingTests {
    /// docs/protocol.md §11.7.
    @Test(arguments: [
        ("a b+c&d=e/f?g~h%i#j", "a%20b%2Bc%26d%3De%2Ff%3Fg~h%25i%23j"),
        ("café ✓", "caf%C3%A9%20%E2%9C%93"),
        ("!'()*", "%21%27%28%29%2A"),
    ])
    func vectors(input: String, expected: String) {
        #expect(PercentEncoding.encode(input) == expected)
    }

    /// Every reserved/special character is escaped; only `~` stays, as RFC 3986 says.
    @Test(arguments: [
        ("!", "%21"), ("*", "%2A"), ("'", "%27"), ("(", "%28"), (")", "%29"), (";", "%3B"), (":", "%3A"),
        ("@", "%40"), ("&", "%26"), ("=", "%3D"), ("+", "%2B"), ("$", "%24"), (",", "%2C"), ("/", "%2F"),
        ("?", "%3F"), ("#", "%23"), ("[", "%5B"), ("]", "%5D"), ("~", "~"), ("%", "%25"), (" ", "%20"),
        ("\"", "%22"), ("<", "%3C"), ("\\", "%5C"), ("\n", "%0A"), ("\u{7F}", "%7F"), ("\0", "%00"),
    ])
    func characterClasses(input: String, expected: String) {
        #expect(PercentEncoding.encode(input) == expected)
    }

    @Test func unreservedKept() {
        let unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        #expect(PercentEncoding.encode(unreserved) == unreserved)
        #expect(PercentEncoding.encode("") == "")
    }

    @Test func utf8() {
        #expect(PercentEncoding.encode("é") == "%C3%A9")
        #expect(PercentEncoding.encode("東京") == "%E6%9D%B1%E4%BA%AC")
        #expect(PercentEncoding.encode("📷") == "%F0%9F%93%B7")
        // Decomposed é is two scalars: e + U+0301.
        #expect(PercentEncoding.encode("e\u{301}") == "e%CC%81")
    }

    @Test(arguments: ["", "plain", "a b+c&d=e/f?g~h%i#j", "café ✓ 東京 📷", "!*'();:@&=+$,/?#[]~%", "%%41%zz", "\0\n\t"])
    func roundTrip(text: String) {
        let encoded = PercentEncoding.encode(text)
        #expect(PercentEncoding.decode(Substring(encoded), plusAsSpace: false) == text)
        #expect(PercentEncoding.decode(Substring(encoded), plusAsSpace: true) == text)
    }

    @Test func decode() {
        #expect(PercentEncoding.decode("a%20b", plusAsSpace: false) == "a b")
        #expect(PercentEncoding.decode("a+b", plusAsSpace: false) == "a+b")
        #expect(PercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(PercentEncoding.decode("%2b%2B", plusAsSpace: true) == "++")
        #expect(PercentEncoding.decode("caf%c3%a9", plusAsSpace: false) == "café")
        #expect(PercentEncoding.decode("Jamal%20Fanaian", plusAsSpace: false) == "Jamal Fanaian")
        #expect(PercentEncoding.decode("21207597%40N07", plusAsSpace: false) == "21207597@N07")
    }

    @Test func decodeMalformed() {
        #expect(PercentEncoding.decode("100%", plusAsSpace: false) == "100%")
        #expect(PercentEncoding.decode("%4", plusAsSpace: false) == "%4")
        #expect(PercentEncoding.decode("%zz%41", plusAsSpace: false) == "%zzA")
        #expect(PercentEncoding.decode("%%41", plusAsSpace: false) == "%A")
        #expect(PercentEncoding.decode("a%2", plusAsSpace: true) == "a%2")
        // Invalid UTF-8 becomes U+FFFD, never a trap.
        #expect(PercentEncoding.decode("%FF", plusAsSpace: false) == "\u{FFFD}")
        #expect(PercentEncoding.decode("a%C3", plusAsSpace: false) == "a\u{FFFD}")
        #expect(PercentEncoding.decode("%E2%9C", plusAsSpace: false) == "\u{FFFD}")
    }

    @Test func decodeSubstringSlice() {
        let whole = "x=caf%C3%A9&y"
        let slice = whole.dropFirst(2).prefix(9)
        #expect(PercentEncoding.decode(slice, plusAsSpace: false) == "café")
    }

    @Test func parseForm() {
        func pairs(_ s: String) -> [String] { PercentEncoding.parseForm(Substring(s)).map { "\($0.0)=\($0.1)" } }
        #expect(pairs("a=1&b=2") == ["a=1", "b=2"])
        #expect(pairs("a=1&a=2&a=1") == ["a=1", "a=2", "a=1"])
        #expect(pairs("a&b=") == ["a=", "b="])
        #expect(pairs("a=&&b=x&") == ["a=", "b=x"])
        #expect(pairs("&&&") == [])
        #expect(pairs("") == [])
        #expect(pairs("t=2+q&s=r%20b") == ["t=2 q", "s=r b"])
        #expect(pairs("p=%2B") == ["p=+"])
        #expect(pairs("m=100%&n=%zz&o=%4") == ["m=100%", "n=%zz", "o=%4"])
        #expect(pairs("eq=a=b=c") == ["eq=a=b=c"])
        #expect(pairs("=v") == ["=v"])
        #expect(pairs("c%40=&n%20m=v") == ["c@=", "n m=v"])
        #expect(pairs("fullname=Jamal%20Fanaian&user_nsid=21207597%40N07")
            == ["fullname=Jamal Fanaian", "user_nsid=21207597@N07"])
    }

    @Test func formEncode() {
        #expect(PercentEncoding.formEncode([]) == "")
        #expect(PercentEncoding.formEncode([("a", "1")]) == "a=1")
        #expect(PercentEncoding.formEncode([("b", "x y"), ("a", ""), ("b", "!")]) == "b=x%20y&a=&b=%21")
        #expect(PercentEncoding.formEncode([("c@", "a+b&c=d"), ("tags", "café, 東京")])
            == "c%40=a%2Bb%26c%3Dd&tags=caf%C3%A9%2C%20%E6%9D%B1%E4%BA%AC")
        let pairs = [("title", "a+b c&d"), ("x", ""), ("title", "📷")]
        let back = PercentEncoding.parseForm(Substring(PercentEncoding.formEncode(pairs)))
        #expect(back.map(\.0) == pairs.map(\.0))
        #expect(back.map(\.1) == pairs.map(\.1))
    }
}
