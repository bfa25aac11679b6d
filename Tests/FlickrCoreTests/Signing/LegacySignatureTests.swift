// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct SigningLegacyTests {
    /// docs/protocol.md §11.6.
    @Test func masciVector() {
        let sig = LegacySignature.apiSig(
            secret: "SECRET", parameters: [("api_key", "1234567890"), ("foo", "1"), ("bar", "2"), ("baz", "3")])
        #expect(sig == "0a55ae496d1db08f39deb5d894ae3849")
        #expect(sig == Crypto.hex(Crypto.md5(Array("SECRETapi_key1234567890bar2baz3foo1".utf8)) ?? []))
    }

    @Test func derivedVector() {
        let parameters = [("per_page", "1"), ("method", "flickr.photos.getRecent"), ("api_key", "KEY")]
        #expect(LegacySignature.apiSig(secret: "SECRET", parameters: parameters) == "bce3d1452288a969567418fd034097b1")
        // api_sig and photo never take part.
        #expect(LegacySignature.apiSig(
            secret: "SECRET", parameters: parameters + [("api_sig", "deadbeef"), ("photo", "bytes")])
            == "bce3d1452288a969567418fd034097b1")
    }

    @Test func rawValuesAndByteOrder() {
        // Raw (unencoded) UTF-8 values; uppercase names sort before lowercase (byte order).
        let parameters = [("title", "café & ✓"), ("Z", "1"), ("a", "2")]
        let expected = Crypto.hex(Crypto.md5(Array("sZ1a2titlecafé & ✓".utf8)) ?? [])
        #expect(LegacySignature.apiSig(secret: "s", parameters: parameters) == expected)
        #expect(expected.count == 32)
    }

    @Test func md5KnownAnswers() {
        #expect(Crypto.hex(Crypto.md5([]) ?? []) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Crypto.hex(Crypto.md5(Array("abc".utf8)) ?? []) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(LegacySignature.apiSig(secret: "", parameters: []) == "d41d8cd98f00b204e9800998ecf8427e")
    }

    @Test func hmacKnownAnswers() {
        // RFC 2202 test case 2 and an empty key and message.
        #expect(Crypto.hex(Crypto.hmacSHA1(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8)) ?? [])
            == "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79")
        #expect(Crypto.hex(Crypto.hmacSHA1(key: [], data: []) ?? []) == "fbdb1d1b18aa6c08324b7d64b71fb76370690e1d")
    }
}

@Suite struct SigningBase64Tests {
    /// RFC 4648 §10.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648(input: String, expected: String) {
        #expect(Base64.encode(Array(input.utf8)) == expected)
        #expect(Base64.encode(input.utf8) == expected)
    }

    @Test func allBytes() {
        #expect(Base64.encode([0xFB, 0xFF, 0xBF]) == "+/+/")
        #expect(Base64.encode([0, 0, 0]) == "AAAA")
        #expect(Base64.encode((0...255).map { UInt8($0) }).count == 344)
        #expect(Base64.encode([0xFF][...]) == "/w==")
    }
}
