// SPDX-License-Identifier: MIT

import CFlickrShims
import Glibc

/// Random bytes for nonces and hash salts, drawn from the system CSPRNG (getrandom) a block at a time.
///
/// OpenSSL 3's RAND_bytes dispatches through its providers on every call, and
/// SystemRandomNumberGenerator makes one getrandom system call per 8 bytes: two per nonce,
/// about 2% of a signed call's CPU. One call for 32 nonces costs the same as one for one.
/// Bytes are handed out once each, under a lock, so threads never share a nonce.
final class NonceBytes: @unchecked Sendable {
    static let shared = NonceBytes()

    private struct Block {
        var words = [UInt64](repeating: 0, count: 64)
        var used = 64
    }

    private let block = Locked(Block())

    /// 16 fresh random bytes as two words.
    func next() -> (UInt64, UInt64) {
        block.withLock { state in
            if state.used + 2 > state.words.count {
                NonceBytes.fill(&state.words)
                state.used = 0
            }
            defer { state.used += 2 }
            return (state.words[state.used], state.words[state.used + 1])
        }
    }

    func lockForFork() { block.lockForFork() }

    /// A child drops the bytes it shares with its parent: both would hand out the same nonces
    /// (the server refuses a nonce used twice in one second: oauth_problem=nonce_used).
    func unlockAfterFork(child: Bool) {
        block.unlockAfterFork()
        if child { block.withLock { $0.used = $0.words.count } }
    }

    private static func fill(_ words: inout [UInt64]) {
        let filled = words.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let got = flickr__getrandom(raw.baseAddress! + offset, raw.count - offset)
                if got < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += Int(got)
            }
            return true
        }
        if !filled {
            // getrandom missing (a kernel before 3.17) or refused: the standard library's generator,
            // which has its own fallbacks.
            var generator = SystemRandomNumberGenerator()
            for i in words.indices { words[i] = generator.next() }
        }
    }
}
