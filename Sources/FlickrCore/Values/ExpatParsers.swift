// SPDX-License-Identifier: MIT

import CExpat

/// Idle expat parsers, reset and ready for another document.
///
/// Creating a parser allocates its buffers, tag stack and hash tables and asks the kernel for a
/// hash salt (getrandom); freeing it returns them all. For a Flickr answer of a few hundred bytes
/// that was half of expat's share of a call. XML_ParserReset keeps the memory; handlers are set
/// again by the taker, and the salt comes from the library's batched CSPRNG bytes.
enum ExpatParsers {
    private static let idle = Locked<[UInt]>([])
    static let maxIdle = 16

    /// A fresh or reset parser with a new random hash salt, or nil when out of memory.
    static func take() -> XML_Parser? {
        let parser: XML_Parser?
        if let pooled = idle.withLock({ $0.popLast() }) {
            parser = XML_Parser(bitPattern: pooled)
        } else {
            parser = XML_ParserCreate(nil)
        }
        guard let parser else { return nil }
        let (salt, _) = NonceBytes.shared.next()
        // Zero would make expat draw its own salt; any other value is as good as the next.
        _ = XML_SetHashSalt(parser, UInt(truncatingIfNeeded: salt | 1))
        return parser
    }

    /// Takes a parser back once its document is done with (finished, failed or abandoned).
    static func give(_ parser: XML_Parser) {
        guard XML_ParserReset(parser, nil) == XML_TRUE else {
            XML_ParserFree(parser)
            return
        }
        let kept = idle.withLock { pool -> Bool in
            guard pool.count < maxIdle else { return false }
            pool.append(UInt(bitPattern: parser))
            return true
        }
        if !kept { XML_ParserFree(parser) }
    }
}
