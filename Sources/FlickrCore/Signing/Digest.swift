// SPDX-License-Identifier: MIT

import COpenSSL

/// Standard base64 (RFC 4648 §4: `A-Z a-z 0-9 + /`, `=` padding, no line breaks).
package enum Base64 {
    private static let alphabet: [UInt8] =
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        append(bytes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the base64 text of `bytes` to a byte buffer.
    static func append(_ bytes: some Collection<UInt8>, to out: inout [UInt8]) {
        out.reserveCapacity(out.count + (bytes.count + 2) / 3 * 4)
        var iterator = bytes.makeIterator()
        while let b0 = iterator.next() {
            let b1 = iterator.next()
            let b2 = iterator.next()
            let group = UInt32(b0) << 16 | UInt32(b1 ?? 0) << 8 | UInt32(b2 ?? 0)
            out.append(alphabet[Int(group >> 18 & 0x3F)])
            out.append(alphabet[Int(group >> 12 & 0x3F)])
            out.append(b1 == nil ? UInt8(ascii: "=") : alphabet[Int(group >> 6 & 0x3F)])
            out.append(b2 == nil ? UInt8(ascii: "=") : alphabet[Int(group & 0x3F)])
        }
    }
}

/// Thin, non-trapping wrappers over libcrypto.
package enum Crypto {
    /// Lowercase hexadecimal of `bytes`.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// HMAC-SHA1 of `data` under `key`; nil if libcrypto fails.
    package static func hmacSHA1(key: [UInt8], data: [UInt8]) -> [UInt8]? {
        key.withUnsafeBufferPointer { key in data.withUnsafeBufferPointer { hmacSHA1(key: key, data: $0) } }
    }

    /// HMAC-SHA1 over byte buffers; the pads, the inner hash and the SHA-1 state live on the stack.
    static func hmacSHA1(key: UnsafeBufferPointer<UInt8>, data: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        // RFC 2104 over libcrypto's SHA1_* (see COpenSSL/shim.h): OpenSSL 3's one-shot HMAC()
        // fetches the MAC and the digest by name on every call, and the first EVP fetch of a
        // process builds the provider name map (3 M instructions).
        let blockSize = 64
        let hashSize = Int(SHA_DIGEST_LENGTH)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * blockSize + hashSize) { scratch in
            guard let base = scratch.baseAddress else { return nil }
            let block = base, pad = base + blockSize, hash = base + 2 * blockSize
            block.initialize(repeating: 0, count: blockSize)
            if key.count > blockSize {
                guard sha1(key, nil, into: hash) else { return nil }
                block.copyElements(from: hash, count: hashSize)
            } else if let start = key.baseAddress {
                block.copyElements(from: start, count: key.count)
            }
            for i in 0..<blockSize { pad[i] = block[i] ^ 0x36 }
            guard sha1(UnsafeBufferPointer(start: pad, count: blockSize), data, into: hash) else { return nil }
            for i in 0..<blockSize { pad[i] = block[i] ^ 0x5C }
            guard sha1(UnsafeBufferPointer(start: pad, count: blockSize),
                       UnsafeBufferPointer(start: hash, count: hashSize), into: hash)
            else { return nil }
            return Array(UnsafeBufferPointer(start: hash, count: hashSize))
        }
    }

    /// SHA-1 of `first` then `second` into `out` (SHA_DIGEST_LENGTH bytes); false if libcrypto fails.
    private static func sha1(_ first: UnsafeBufferPointer<UInt8>, _ second: UnsafeBufferPointer<UInt8>?,
                             into out: UnsafeMutablePointer<UInt8>) -> Bool {
        var context = SHA_CTX()
        guard SHA1_Init(&context) == 1 else { return false }
        if let start = first.baseAddress, first.count > 0, SHA1_Update(&context, start, first.count) != 1 { return false }
        if let second, let start = second.baseAddress, second.count > 0, SHA1_Update(&context, start, second.count) != 1 {
            return false
        }
        return SHA1_Final(out, &context) == 1
    }

    package static func md5(_ data: [UInt8]) -> [UInt8]? { evpDigest(data, EVP_md5()) }

    package static func sha256(_ data: [UInt8]) -> [UInt8]? { evpDigest(data, EVP_sha256()) }

    private static func evpDigest(_ data: [UInt8], _ type: OpaquePointer?) -> [UInt8]? {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let dataBuffer = data.isEmpty ? [0] : data
        let ok = dataBuffer.withUnsafeBufferPointer { dataPointer in
            digest.withUnsafeMutableBufferPointer { digestPointer in
                EVP_Digest(dataPointer.baseAddress, data.count, digestPointer.baseAddress, &length, type, nil)
            }
        }
        guard ok == 1, length > 0, Int(length) <= digest.count else { return nil }
        return Array(digest[..<Int(length)])
    }

    /// `count` cryptographically random bytes from RAND_bytes, falling back to the
    /// system generator (getrandom) should libcrypto ever refuse.
    package static func randomBytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let ok = count <= Int(Int32.max) && bytes.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(count)) == 1
        }
        if !ok {
            var generator = SystemRandomNumberGenerator()
            for index in bytes.indices { bytes[index] = generator.next() }
        }
        return bytes
    }
}
