// SPDX-License-Identifier: MIT

import CExpat
import CFlickrShims

/// Creates expat parsers salted from the library's batched CSPRNG bytes.
///
/// Left to itself, expat asks the kernel for its hash salt (getrandom) in every parser it
/// creates: a system call per Flickr answer. The salt still comes from the system CSPRNG,
/// drawn for 32 uses at a time (Signing/NonceBytes.swift).
/// (Pooling reset parsers was tried too: it made large documents parse slower, bench/NOTES.md.)
enum ExpatParser {
    /// A new parser, or nil when out of memory. Free it with XML_ParserFree.
    static func make() -> XML_Parser? {
        // Large blocks (its buffer, holding a long token) in pages of their own (CFlickrShims).
        let memory = flickr__expat_memory().assumingMemoryBound(to: XML_Memory_Handling_Suite.self)
        guard let parser = XML_ParserCreate_MM(nil, memory, nil) else { return nil }
        let (salt, _) = NonceBytes.shared.next()
        // Zero would make expat draw its own salt.
        _ = XML_SetHashSalt(parser, UInt(truncatingIfNeeded: salt | 1))
        return parser
    }

    /// The table of expat's mapped blocks is locked across a fork (ForkGuard), so that a child
    /// never inherits it held by a thread that does not exist there.
    static func lockForFork() { flickr__expat_memory_lock(1) }

    static func unlockAfterFork() { flickr__expat_memory_lock(0) }
}
