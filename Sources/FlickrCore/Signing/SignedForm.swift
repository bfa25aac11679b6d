// SPDX-License-Identifier: MIT

import Glibc

/// The OAuth-signed query string or form body of a REST call: exactly `OAuthRequestSigner.sign(...)
/// .formEncoded`, built the short way because every call of the library comes through here
/// (bench/NOTES.md Change 10). Each pair is percent-encoded once into one byte arena and sorted as
/// offsets into it; the base string and the output are written from the arena, and nothing else of
/// `Signed` (header, pair lists, base string as text) is made. What this path does not cover goes to
/// `sign`: an endpoint with a query, `realm` or caller `oauth_*` parameters, a method not in uppercase.
enum SignedForm {
    /// One pair in the arena: its encoded name, then its encoded value, from `start`; `order` is its
    /// position among the pairs (the tie-break that makes the sort stable, as `sign`'s is).
    private struct Entry {
        var start: Int
        var nameCount: Int
        var valueCount: Int
        var order: Int
    }

    static func make(
        _ signer: OAuthRequestSigner, method: String, url: String, parameters: [(String, String)],
        nonce: String? = nil, timestamp: Int? = nil
    ) throws(FlickrError) -> String {
        let (endpoint, baseURL) = try OAuthRequestSigner.endpoint(url)
        guard endpoint.query == nil, !method.isEmpty,
            method.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }),
            !parameters.contains(where: { isOAuthOrRealm($0.0) })
        else {
            return try signer.sign(method: method, url: url, parameters: parameters, nonce: nonce,
                                   timestamp: timestamp).formEncoded
        }

        // Bytes in raw buffers (ByteBuffer): an Array append of a few bytes costs a uniqueness check
        // and an element-by-element copy, and signing makes about 60 of them.
        var arena = ByteBuffer(capacity: 256 + parameters.reduce(0) { $0 + 3 * ($1.0.utf8.count + $1.1.utf8.count) })
        defer { arena.release() }
        var entries: [Entry] = []
        entries.reserveCapacity(parameters.count + 7)
        func add(_ name: String, _ value: String) {
            let start = arena.count
            PercentEncoding.appendEncoded(name, to: &arena)
            let nameEnd = arena.count
            PercentEncoding.appendEncoded(value, to: &arena)
            entries.append(Entry(start: start, nameCount: nameEnd - start, valueCount: arena.count - nameEnd,
                                 order: entries.count))
        }
        // The same pairs in the same order as `sign`: the caller's, then the oauth_* ones.
        for (name, value) in parameters { add(name, value) }
        add("oauth_consumer_key", signer.consumerKey)
        add("oauth_nonce", nonce ?? OAuthSignature.nonce())
        add("oauth_timestamp", String(timestamp ?? OAuthRequestSigner.now()))
        add("oauth_signature_method", "HMAC-SHA1")
        add("oauth_version", "1.0")
        if let token = signer.token { add("oauth_token", token) }
        guard !arena.failed else { throw FlickrError(.noMemory, "out of memory signing the request") }

        let signature = arena.withBytes { bytes -> [UInt8]? in
            guard let text = bytes.baseAddress else { return [] }  // never empty: the oauth_* pairs are in it
            if entries.count > 1 { entries.sortStably { precedes($0, $1, text) } }
            // METHOD&enc(base URL)&enc(name=value&...): the second encoding applied as the pairs are written.
            var base = ByteBuffer(capacity: method.utf8.count + baseURL.utf8.count + 2 + 3 * bytes.count + 6 * entries.count)
            defer { base.release() }
            PercentEncoding.appendUTF8(method, to: &base)
            base.append(byte: UInt8(ascii: "&"))
            PercentEncoding.appendUTF8(baseURL, to: &base)
            base.append(byte: UInt8(ascii: "&"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { base.append("%26") }  // "&", encoded
                appendEncodedAgain(text + entry.start, entry.nameCount, to: &base)
                base.append("%3D")  // "=", encoded
                appendEncodedAgain(text + entry.start + entry.nameCount, entry.valueCount, to: &base)
            }
            var key = ByteBuffer(capacity: 128)
            defer { key.release() }
            PercentEncoding.appendEncoded(signer.consumerSecret, to: &key)
            key.append(byte: UInt8(ascii: "&"))
            PercentEncoding.appendEncoded(signer.tokenSecret ?? "", to: &key)
            guard !base.failed, !key.failed else { return nil }
            let mac = key.withBytes { key in
                base.withBytes { Crypto.hmacSHA1(key: key, data: $0) }
            }
            var signature: [UInt8] = []
            Base64.append(mac ?? [], to: &signature)  // empty only if libcrypto fails, as with `sign`
            return signature
        }
        guard let signature else { throw FlickrError(.noMemory, "out of memory signing the request") }

        // oauth_signature joins the arena and goes where the stable sort would put it.
        let signatureStart = arena.count
        arena.append("oauth_signature")
        signature.withUnsafeBufferPointer { PercentEncoding.appendEncoded(bytes: $0, to: &arena) }
        guard !arena.failed else { throw FlickrError(.noMemory, "out of memory signing the request") }
        let signatureEntry = Entry(start: signatureStart, nameCount: 15, valueCount: arena.count - signatureStart - 15,
                                   order: entries.count)
        let length = entries.reduce(0) { $0 + $1.nameCount + $1.valueCount + 2 } + signatureEntry.valueCount + 16
        return arena.withBytes { bytes in
            guard let text = bytes.baseAddress else { return "" }
            let slot = entries.firstIndex { precedes(signatureEntry, $0, text) } ?? entries.count
            entries.insert(signatureEntry, at: slot)
            return String(unsafeUninitializedCapacity: length) { out in
                guard let output = out.baseAddress else { return 0 }
                var written = 0
                for (index, entry) in entries.enumerated() {
                    if index > 0 {
                        output[written] = UInt8(ascii: "&")
                        written += 1
                    }
                    (output + written).copyElements(from: text + entry.start, count: entry.nameCount)
                    written += entry.nameCount
                    output[written] = UInt8(ascii: "=")
                    written += 1
                    (output + written).copyElements(from: text + entry.start + entry.nameCount, count: entry.valueCount)
                    written += entry.valueCount
                }
                return written
            }
        }
    }

    /// Percent-encodes text that is already percent-encoded: only its `%` need escaping (as `%25`).
    private static func appendEncodedAgain(_ start: UnsafePointer<UInt8>, _ count: Int, to out: inout ByteBuffer) {
        var from = 0
        while from < count, let mark = memchr(start + from, Int32(UInt8(ascii: "%")), count - from) {
            let at = UnsafeRawPointer(mark) - UnsafeRawPointer(start)
            out.append(bytes: start + from, count: at - from)
            out.append("%25")
            from = at + 1
        }
        out.append(bytes: start + from, count: count - from)
    }

    /// Caller parameters this path leaves to `sign`: `realm` (signed apart) and any `oauth_*`.
    private static func isOAuthOrRealm(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let start = bytes.baseAddress else { return false }
            let oauth: StaticString = "oauth_"
            let realm: StaticString = "realm"
            return (bytes.count >= 6 && memcmp(start, oauth.utf8Start, 6) == 0)
                || (bytes.count == 5 && memcmp(start, realm.utf8Start, 5) == 0)
        }
    }

    /// Encoded name, then encoded value, then position: `OAuthRequestSigner.EncodedPair.precedes` on offsets.
    private static func precedes(_ a: Entry, _ b: Entry, _ text: UnsafePointer<UInt8>) -> Bool {
        var order = OAuthSignature.compareBytes(text + a.start, a.nameCount, text + b.start, b.nameCount)
        if order == 0 {
            order = OAuthSignature.compareBytes(text + a.start + a.nameCount, a.valueCount,
                                                text + b.start + b.nameCount, b.valueCount)
        }
        return order != 0 ? order < 0 : a.order < b.order
    }
}
