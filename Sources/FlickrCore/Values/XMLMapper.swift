// SPDX-License-Identifier: MIT

import CExpat

import Glibc

/// Maps a Flickr XML response into a `ValueTree` while it streams in (see
/// docs/architecture.md, "Response mapping (contract)"): expat is fed chunk by chunk and the tree is
/// built from its callbacks, with no DOM and no second pass over the XML.
///
/// - Attributes become string entries of their element's object, in document order.
/// - Text becomes the entry `_text`; whitespace-only text beside child elements is dropped.
/// - A child element becomes an object under its name; a second one of the same
///   name turns the entry into an array (at the first occurrence's position).
/// - Plural rule: a child whose parent's name is longer, starts with the child's
///   name and ends in "s" is always an array (`photos`/`photo`).
/// - A child colliding with an attribute (or the text) takes the key; the string
///   entry is renamed `@name` in place.
/// - DTDs (hence entity declarations and external entities) are refused, nesting is bounded.
///
/// Never traps on any input: every failure is a `FlickrError`.
package final class XMLMapper {
    private let state: UnsafeMutablePointer<TreeBuilder>
    /// Freed as soon as the document ends: on a large answer its buffer holds the longest token.
    private var parser: XML_Parser?
    private var bytesFed = 0
    private var failure: FlickrError?
    private var finished = false
    /// Bytes received but not yet given to expat, and the length of the token expat could not
    /// finish at the end of its last input. Expat 2.5 (Debian 12) scans an unfinished token again
    /// from its start on every XML_Parse call, so a 32 MB comment fed 16 KiB at a time cost
    /// 2,000 rescans (31 s). Input is held back until it is at least as long as that token:
    /// each rescan then covers at least twice the bytes of the one before, and the total work
    /// stays linear in the body whatever its shape (expat 2.6's "reparse deferral", done here).
    /// A small first chunk is held too (`wholeBodyLimit`), for a whole small answer in one call.
    ///
    /// A hold for a long token (at least `bufferHoldMinimum`) moves, once it passes a 64th of
    /// the token, into expat's own buffer (XML_GetBuffer, then XML_ParseBuffer): held here it would
    /// be a second copy of bytes that expat copies anyway (a 32 MiB comment: 16 MiB).
    private var held: [UInt8] = []
    private var unfinishedToken = 0
    private var expatHold: UnsafeMutableRawPointer?
    private var expatHoldRoom = 0
    private var expatHoldCount = 0
    static let bufferHoldMinimum = 64 * 1024
    private var handedToExpat = 0
    /// Bytes expat was given to scan, rescans included: linear parsing keeps this under 3x the body.
    package private(set) var scannedBytes = 0

    /// A first chunk up to this size is held for a one-call parse (curl hands over at most 16 KiB).
    static let wholeBodyLimit = 16 * 1024
    /// Total input limit: node counts are 32-bit.
    static let maxInputBytes = Int(UInt32.max) - 1

    package init(maxDepth: Int = 256) {
        state = .allocate(capacity: 1)
        state.initialize(to: TreeBuilder(maxDepth: Swift.max(1, maxDepth)))
        parser = ExpatParser.make()
        guard let parser else { return }
        state.pointee.parser = parser
        XML_SetUserData(parser, UnsafeMutableRawPointer(state))
        XML_SetElementHandler(parser, mapperStartElement, mapperEndElement)
        XML_SetCharacterDataHandler(parser, mapperCharacterData)
        XML_SetStartDoctypeDeclHandler(parser, mapperDoctype)
        XML_SetEntityDeclHandler(parser, mapperEntityDecl)
        _ = XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        // No external entity handler: expat never fetches anything.
    }

    deinit {
        if let parser { XML_ParserFree(parser) }
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Parses the next chunk of the body as it arrives.
    package func feed(_ bytes: UnsafeRawBufferPointer) throws(FlickrError) {
        if let failure { throw failure }
        guard !finished else { throw FlickrError(.state, "the XML mapper has already finished") }
        guard let parser else { throw fail(FlickrError(.noMemory, "cannot create the XML parser")) }
        guard bytes.count > 0 else { return }
        guard bytes.count <= XMLMapper.maxInputBytes - bytesFed else {
            throw fail(FlickrError(.tooBig, "the XML response is too large to map"))
        }
        let first = bytesFed == 0
        bytesFed += bytes.count
        if first && bytes.count <= XMLMapper.wholeBodyLimit {
            // Most answers arrive in one chunk: held until the next one or the end, so that expat
            // can parse a whole body in one final call, about 10% cheaper than a streamed chunk
            // plus the closing call (callgrind, a 530-byte answer: 53.0 k instructions vs 59.5 k).
            held.append(contentsOf: bytes)
            return
        }
        var rest = bytes
        while rest.count > 0 {
            if let hold = expatHold {
                let n = Swift.min(rest.count, expatHoldRoom - expatHoldCount)
                if let source = rest.baseAddress { (hold + expatHoldCount).copyMemory(from: source, byteCount: n) }
                expatHoldCount += n
                rest = UnsafeRawBufferPointer(rebasing: rest[n...])
                if expatHoldCount == expatHoldRoom { try parseExpatHold(parser) }
                continue
            }
            if held.isEmpty && rest.count >= unfinishedToken {
                try parse(rest, parser)
                return
            }
            let pending = held.count + rest.count
            if pending < unfinishedToken && unfinishedToken >= XMLMapper.bufferHoldMinimum
                && pending > Swift.max(XMLMapper.bufferHoldMinimum, unfinishedToken / 64) && held.count < 1 << 30 {
                // Not at once: the last bytes after a long token (`-->`, `</rsp>`) would make expat
                // double its buffer for a hold that never fills, copying the token once more.
                let room = Swift.max(Swift.min(unfinishedToken, 1 << 30), held.count)
                guard let buffer = XML_GetBuffer(parser, Int32(room)) else {
                    throw fail(FlickrError(.noMemory, "out of memory while mapping the XML response"))
                }
                held.withUnsafeBytes { bytes in
                    if let source = bytes.baseAddress { buffer.copyMemory(from: source, byteCount: bytes.count) }
                }
                expatHold = buffer
                expatHoldRoom = room
                expatHoldCount = held.count
                held = []
                continue
            }
            held.append(contentsOf: rest)
            guard held.count >= unfinishedToken else { return }
            try parseHeld(parser)
            return
        }
    }

    /// Parses what was written into expat's buffer (ending the document when `final`).
    private func parseExpatHold(_ parser: XML_Parser, final: Bool = false) throws(FlickrError) {
        let length = expatHoldCount
        expatHold = nil
        expatHoldRoom = 0
        expatHoldCount = 0
        scannedBytes = scannedBytes.addingSaturated(unfinishedToken + length)
        if XML_ParseBuffer(parser, Int32(length), final ? 1 : 0) != XML_STATUS_OK {
            throw fail(parseError(parser))
        }
        handedToExpat += length
        if !final { noteUnfinishedToken(parser) }
    }

    /// Outside a callback, the current byte index is where the unfinished token starts.
    private func noteUnfinishedToken(_ parser: XML_Parser) {
        let index = Int(XML_GetCurrentByteIndex(parser))
        unfinishedToken = index >= 0 && index <= handedToExpat ? handedToExpat - index : handedToExpat
    }

    /// Gives expat the held bytes (ending the document when `final`), then empties the hold.
    private func parseHeld(_ parser: XML_Parser, final: Bool = false) throws(FlickrError) {
        defer { held.removeAll(keepingCapacity: true) }
        // withUnsafeBytes rethrows untyped errors: carry the typed one out in a Result.
        try held.withUnsafeBytes { bytes in
            Result { () throws(FlickrError) in try parse(bytes, parser, final: final) }
        }.get()
    }

    /// Gives expat `bytes`, at most 1 GiB a call; `final` ends the document with the last call
    /// (made even for no bytes). After a call that is not final, notes how long a token expat
    /// could not finish.
    private func parse(_ bytes: UnsafeRawBufferPointer, _ parser: XML_Parser, final: Bool = false) throws(FlickrError) {
        guard final || bytes.count > 0 else { return }
        var offset = 0
        repeat {
            let length = Swift.min(bytes.count - offset, 1 << 30)
            let chunk = bytes.baseAddress.map { ($0 + offset).assumingMemoryBound(to: CChar.self) }
            let isFinal = final && offset + length == bytes.count
            scannedBytes = scannedBytes.addingSaturated(unfinishedToken + length)
            if XML_Parse(parser, chunk, Int32(length), isFinal ? 1 : 0) != XML_STATUS_OK {
                throw fail(parseError(parser))
            }
            offset += length
            handedToExpat += length
            if !isFinal { noteUnfinishedToken(parser) }
        } while offset < bytes.count
    }

    /// Ends the document and returns its tree.
    package func finish() throws(FlickrError) -> ValueTree {
        if let failure { throw failure }
        guard !finished else { throw FlickrError(.state, "the XML mapper has already finished") }
        guard let parser else { throw fail(FlickrError(.noMemory, "cannot create the XML parser")) }
        guard bytesFed > 0 else { throw fail(FlickrError(.parse, "empty response")) }
        if expatHold != nil {
            try parseExpatHold(parser, final: true)
        } else {
            try parseHeld(parser, final: true)
        }
        // Before the tree is handed on: a long token's buffer goes back now, not with the mapper.
        XML_ParserFree(parser)
        self.parser = nil
        state.pointee.parser = nil
        return try tree()
    }

    private func tree() throws(FlickrError) -> ValueTree {
        finished = true
        guard let tree = state.pointee.makeTree() else {
            throw fail(state.pointee.failure ?? FlickrError(.parse, "the response has no root element"))
        }
        return tree
    }

    /// Maps a complete body, in one final call to expat (nothing copied).
    package static func parse(_ bytes: UnsafeRawBufferPointer) throws(FlickrError) -> ValueTree {
        let mapper = XMLMapper()
        guard let parser = mapper.parser else { throw FlickrError(.noMemory, "cannot create the XML parser") }
        guard bytes.count > 0 else { throw FlickrError(.parse, "empty response") }
        guard bytes.count <= XMLMapper.maxInputBytes else { throw FlickrError(.tooBig, "the XML response is too large to map") }
        mapper.bytesFed = bytes.count
        try mapper.parse(bytes, parser, final: true)
        return try mapper.tree()
    }

    private func fail(_ error: FlickrError) -> FlickrError {
        failure = error
        return error
    }

    private func parseError(_ parser: XML_Parser) -> FlickrError {
        if let failure = state.pointee.failure { return failure }
        let code = XML_GetErrorCode(parser)
        let message = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        return FlickrError(.parse, "malformed XML at \(TreeBuilder.position(parser)): \(message)")
    }
}

// MARK: expat callbacks (plain C functions; userData is the TreeBuilder)

private func mapperStartElement(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?,
                                _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
    guard let userData, let name else { return }
    userData.assumingMemoryBound(to: TreeBuilder.self).pointee.startElement(name, attributes)
}

private func mapperEndElement(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?) {
    guard let userData else { return }
    userData.assumingMemoryBound(to: TreeBuilder.self).pointee.endElement()
}

private func mapperCharacterData(_ userData: UnsafeMutableRawPointer?, _ text: UnsafePointer<XML_Char>?, _ length: Int32) {
    guard let userData, let text, length > 0 else { return }
    userData.assumingMemoryBound(to: TreeBuilder.self).pointee.characters(text, Int(length))
}

private func mapperDoctype(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?,
                           _ systemID: UnsafePointer<XML_Char>?, _ publicID: UnsafePointer<XML_Char>?,
                           _ hasInternalSubset: Int32) {
    guard let userData else { return }
    userData.assumingMemoryBound(to: TreeBuilder.self).pointee.stop(FlickrError(.parse, "DTDs are not accepted"))
}

private func mapperEntityDecl(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<XML_Char>?, _ isParameter: Int32,
                              _ value: UnsafePointer<XML_Char>?, _ valueLength: Int32, _ base: UnsafePointer<XML_Char>?,
                              _ systemID: UnsafePointer<XML_Char>?, _ publicID: UnsafePointer<XML_Char>?,
                              _ notation: UnsafePointer<XML_Char>?) {
    guard let userData else { return }
    userData.assumingMemoryBound(to: TreeBuilder.self).pointee.stop(FlickrError(.parse, "DTDs are not accepted"))
}

// MARK: Building

/// The mapper's state between callbacks. All storage is flat and malloc'd:
///
/// - `arena`: every string (interned names, attribute values, texts), NUL-terminated,
///   referenced by offset until the tree is complete; it becomes the tree's string storage.
/// - `entries`: the entries of the open elements, a stack (an element's entries
///   are on top while it is open). Array entries point at their last item in `pool`.
/// - `pool`: array items waiting for their parent to close, linked backwards.
/// - `text`: the open elements' text, a stack (a child's text is cut off when it closes).
/// - `nodes`: finished nodes. When an element closes, its entries are written here
///   contiguously (then the items of each of its arrays), so every object's and
///   array's children are adjacent; it becomes the tree's node storage.
struct TreeBuilder {
    private struct Frame: BitwiseCopyable {
        var name: UInt
        var nameLength: Int
        var entryBase: Int
        var poolBase: Int
        var textStart: Int
        /// Entry index at which the text entry goes (where the first text arrived), or -1.
        var textSlot: Int
        var hasChildren: Bool
        var hasArray: Bool
        /// Whether `bigIndexes` has an index of this element's entries.
        var indexed: Bool
    }

    private struct PoolItem: BitwiseCopyable {
        var node: ValueNode
        var previous: Int
    }

    var parser: XML_Parser?
    private(set) var failure: FlickrError?
    private let maxDepth: Int
    // First sizes from a typical answer (a flickr.test.echo, a photo's getInfo: 0.5-4 KB,
    // 10-60 nodes); larger ones grow by doubling, in pages of their own past 2 MiB (PageMemory).
    private var arena = RawStack<UInt8>(firstCapacity: 1024, mapsLarge: true)
    private var names = NameTable()
    private var nodes = RawStack<ValueNode>(firstCapacity: 64, mapsLarge: true)
    private var entries = RawStack<ValueNode>(firstCapacity: 32, mapsLarge: true)
    private var pool = RawStack<PoolItem>(firstCapacity: 16, mapsLarge: true)
    private var frames = RawStack<Frame>(firstCapacity: 16)
    private var text = RawStack<UInt8>(firstCapacity: 256, mapsLarge: true)
    /// Texts of at least `ownBufferText` bytes, kept in the text stack's buffer rather than copied
    /// into the arena (the tree owns them; see `ValueTree.chunks`).
    private var chunks: [ValueTree.StringChunk] = []
    static let ownBufferText = 1 << 20
    private var textKey: UInt = 0
    private var root: ValueNode?
    /// Key -> entry index for open elements with many entries (by depth), so
    /// that thousands of distinct children do not make the mapping quadratic.
    private var bigIndexes: [Int: [UInt: Int]] = [:]
    private static let linearSearchLimit = 32
    private var rootName: UInt = 0
    /// Attribute name (expat's pointer) -> its interned key, direct-mapped. Expat hands an attribute
    /// name as a pointer into its name pool, the same pointer for the same name all through a
    /// document, so a hit skips hashing (a 500-photo list interns 12,500 attribute names). A hit is
    /// still compared byte for byte: a pointer alone is never trusted to name the key.
    private var attributeKeys = RawStack<AttributeKey>(firstCapacity: TreeBuilder.attributeKeySlots)
    private static let attributeKeySlots = 64

    private struct AttributeKey: BitwiseCopyable {
        var name: UInt  // expat's pointer, 0 when the slot is empty
        var key: UInt
    }

    init(maxDepth: Int) {
        self.maxDepth = maxDepth
        // A static string: utf8CString would allocate an array on every parse.
        let key: StaticString = "_text"
        let interned = names.intern(bytes: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount),
                                    arena: &arena)
        if let interned { textKey = interned.offset } else { failure = FlickrError(.noMemory, "out of memory") }
    }

    mutating func release() {
        for chunk in chunks { chunk.release() }
        chunks = []
        bigIndexes = [:]
        attributeKeys.release()
        arena.release()
        names.release()
        nodes.release()
        entries.release()
        pool.release()
        frames.release()
        text.release()
    }

    static func position(_ parser: XML_Parser?) -> String {
        guard let parser else { return "line 0, column 0" }
        return "line \(XML_GetCurrentLineNumber(parser)), column \(XML_GetCurrentColumnNumber(parser) + 1)"
    }

    /// Records the first failure and aborts the parse.
    mutating func stop(_ error: FlickrError) {
        if failure == nil { failure = error }
        if let parser { _ = XML_StopParser(parser, XML_Bool(0)) }
    }

    private mutating func outOfMemory() {
        stop(FlickrError(.noMemory, "out of memory while mapping the XML response"))
    }

    // MARK: Callbacks

    mutating func startElement(_ name: UnsafePointer<CChar>, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        guard failure == nil else { return }
        guard frames.count < maxDepth else {
            stop(FlickrError(.parse, "XML nested deeper than \(maxDepth) elements at \(TreeBuilder.position(parser))"))
            return
        }
        guard let interned = name.withMemoryRebound(to: UInt8.self, capacity: 1, { names.intern($0, arena: &arena) }),
              frames.reserve(1)
        else { return outOfMemory() }
        let entryBase = entries.count
        if let attributes {
            var i = 0
            while let attributeName = attributes[i] {
                guard let value = attributes[i + 1] else { break }
                guard let key = attributeKey(attributeName) else { return outOfMemory() }
                let length = strlen(value)
                guard entries.reserve(1), arena.reserve(length + 1) else { return outOfMemory() }
                let offset = arena.count
                let target = arena.pointer + offset
                UnsafeMutableRawPointer(target).copyMemory(from: value, byteCount: length)
                target[length] = 0
                arena.count = offset + length + 1
                (entries.pointer + entries.count).initialize(
                    to: ValueNode(kind: .string, length: UInt32(truncatingIfNeeded: length), ref: UInt(offset), key: key.offset))
                entries.count += 1
                i += 2
            }
        }
        (frames.pointer + frames.count).initialize(to: Frame(
            name: interned.offset, nameLength: interned.length, entryBase: entryBase, poolBase: pool.count,
            textStart: text.count, textSlot: -1, hasChildren: false, hasArray: false, indexed: false))
        frames.count += 1
    }

    mutating func characters(_ chars: UnsafePointer<CChar>, _ length: Int) {
        guard failure == nil, frames.count > 0 else { return }
        let frame = frames.pointer + (frames.count - 1)
        if frame.pointee.textSlot < 0 { frame.pointee.textSlot = entries.count - frame.pointee.entryBase }
        guard text.reserve(length) else { return outOfMemory() }
        UnsafeMutableRawPointer(text.pointer + text.count).copyMemory(from: chars, byteCount: length)
        text.count += length
    }

    mutating func endElement() {
        guard failure == nil, frames.count > 0 else { return }
        frames.count -= 1
        let depth = frames.count
        let frame = frames.pointer[depth]
        let base = frame.entryBase
        defer { if frames.pointer[depth].indexed { bigIndexes[depth] = nil } }
        let entryCount = entries.count - base

        // The text entry, if any text is kept.
        var textEntry: ValueNode?
        if frame.textSlot >= 0 {
            let length = text.count - frame.textStart
            if !(frame.hasChildren && TreeBuilder.isWhitespace(text.pointer + frame.textStart, length)) {
                let ref: UInt
                if length >= TreeBuilder.ownBufferText && frame.textStart <= length {
                    // The text is on top of the stack: the stack's buffer becomes the string's,
                    // uncopied (a copy would hold the text twice at the peak), and the open
                    // elements' text below it (a few bytes of whitespace) moves to a new stack.
                    var below = RawStack<UInt8>(firstCapacity: 256, mapsLarge: true)
                    guard text.reserve(1), below.reserve(frame.textStart) else { return outOfMemory() }
                    if frame.textStart > 0 {
                        below.pointer.copyElements(from: text.pointer, count: frame.textStart)
                        below.count = frame.textStart
                    }
                    text.pointer[text.count] = 0
                    text.count += 1
                    guard let taken = text.take() else { below.release(); return outOfMemory() }
                    text = below
                    chunks.append(ValueTree.StringChunk(bytes: taken.pointer, mappedBytes: taken.mappedBytes,
                                                        offset: frame.textStart))
                    ref = ValueTree.chunkTag | UInt(chunks.count - 1)
                } else {
                    guard arena.reserve(length + 1) else { return outOfMemory() }
                    let offset = arena.count
                    let target = arena.pointer + offset
                    if length > 0 { target.copyElements(from: text.pointer + frame.textStart, count: length) }
                    target[length] = 0
                    arena.count = offset + length + 1
                    ref = UInt(offset)
                }
                var key = textKey
                if let existing = find(textKey, depth: depth) {
                    if entries.pointer[existing].kind == .string {
                        guard rename(existing, depth: depth) else { return outOfMemory() }
                    } else {
                        guard let unique = uniqueRenamed(textKey, depth: depth) else { return outOfMemory() }
                        key = unique
                    }
                }
                textEntry = ValueNode(kind: .string, length: UInt32(truncatingIfNeeded: length), ref: ref, key: key)
            }
            text.count = frame.textStart
        }

        // Write the entries out contiguously, the text at its slot.
        let total = entryCount + (textEntry == nil ? 0 : 1)
        let start = nodes.count
        if total > 0 {
            guard nodes.reserve(total) else { return outOfMemory() }
            let out = nodes.pointer + start
            if let textEntry {
                let slot = Swift.min(frame.textSlot, entryCount)
                if slot > 0 { out.copyElements(from: entries.pointer + base, count: slot) }
                out[slot] = textEntry
                if entryCount > slot { (out + slot + 1).copyElements(from: entries.pointer + base + slot, count: entryCount - slot) }
            } else {
                if entryCount > 0 { out.copyElements(from: entries.pointer + base, count: entryCount) }
            }
            nodes.count = start + total
        }

        // Then the items of each array, and point the array at them.
        if frame.hasArray {
            for i in start..<(start + total) where nodes.pointer[i].kind == .array {
                let itemCount = Int(nodes.pointer[i].length)
                guard nodes.reserve(itemCount) else { return outOfMemory() }
                let itemStart = nodes.count
                var current = Int(nodes.pointer[i].ref)
                var j = itemCount - 1
                while j >= 0, current >= 0, current < pool.count {
                    nodes.pointer[itemStart + j] = pool.pointer[current].node
                    current = pool.pointer[current].previous
                    j -= 1
                }
                nodes.count = itemStart + itemCount
                nodes.pointer[i].ref = UInt(itemStart)
            }
        }
        entries.count = base
        pool.count = frame.poolBase

        let object = ValueNode(kind: .object, length: UInt32(truncatingIfNeeded: total), ref: UInt(start), key: ValueTree.noKey)
        if frames.count == 0 {
            root = object
            rootName = frame.name
        } else {
            attach(object, name: frame.name, nameLength: frame.nameLength)
        }
    }

    // MARK: Helpers

    /// The interned key of an attribute's name, from the cache when expat's pointer was seen with
    /// the same bytes (see `attributeKeys`); nil when out of memory.
    private mutating func attributeKey(_ name: UnsafePointer<CChar>) -> (offset: UInt, length: Int)? {
        let pointer = UInt(bitPattern: name)
        if attributeKeys.count == 0 {
            guard attributeKeys.reserve(TreeBuilder.attributeKeySlots) else { return nil }
            attributeKeys.pointer.initialize(repeating: AttributeKey(name: 0, key: 0), count: TreeBuilder.attributeKeySlots)
            attributeKeys.count = TreeBuilder.attributeKeySlots
        }
        let slot = attributeKeys.pointer + Int(truncatingIfNeeded: (pointer >> 3) & UInt(TreeBuilder.attributeKeySlots - 1))
        if slot.pointee.name == pointer {
            // Same bytes as the interned key, NUL included?
            let interned = arena.pointer + Int(slot.pointee.key)
            var i = 0
            while true {
                let byte = UInt8(bitPattern: name[i])
                if interned[i] != byte { break }
                if byte == 0 { return (slot.pointee.key, i) }
                i &+= 1
            }
        }
        guard let key = name.withMemoryRebound(to: UInt8.self, capacity: 1, { names.intern($0, arena: &arena) })
        else { return nil }
        slot.pointee = AttributeKey(name: pointer, key: key.offset)
        return key
    }

    /// Adds a closed child element to the innermost open element.
    private mutating func attach(_ child: ValueNode, name: UInt, nameLength: Int) {
        let depth = frames.count - 1
        let parent = frames.pointer + depth
        parent.pointee.hasChildren = true
        var item = child
        item.key = ValueTree.noKey
        if let index = find(name, depth: depth) {
            switch entries.pointer[index].kind {
            case .array:
                guard pool.append(PoolItem(node: item, previous: Int(entries.pointer[index].ref))) else { return outOfMemory() }
                entries.pointer[index].ref = UInt(pool.count - 1)
                entries.pointer[index].length &+= 1
                return
            case .object:
                var first = entries.pointer[index]
                first.key = ValueTree.noKey
                guard pool.reserve(2) else { return outOfMemory() }
                _ = pool.append(PoolItem(node: first, previous: -1))
                _ = pool.append(PoolItem(node: item, previous: pool.count - 1))
                entries.pointer[index] = ValueNode(kind: .array, length: 2, ref: UInt(pool.count - 1), key: name)
                parent.pointee.hasArray = true
                return
            case .string:
                // An attribute (or renamed text) holds the name: the child wins the key.
                guard rename(index, depth: depth) else { return outOfMemory() }
            }
        }
        guard entries.reserve(1) else { return outOfMemory() }
        if parent.pointee.indexed { bigIndexes[depth]?[name] = entries.count }
        if isPlural(parent: parent.pointee, childName: name, childLength: nameLength) {
            guard pool.append(PoolItem(node: item, previous: -1)) else { return outOfMemory() }
            _ = entries.append(ValueNode(kind: .array, length: 1, ref: UInt(pool.count - 1), key: name))
            parent.pointee.hasArray = true
        } else {
            var entry = child
            entry.key = name
            _ = entries.append(entry)
        }
    }

    /// `photos`/`photo`: the parent's name is longer, starts with the child's and ends in "s".
    private func isPlural(parent: Frame, childName: UInt, childLength: Int) -> Bool {
        guard parent.nameLength > childLength else { return false }
        let p = arena.pointer + Int(parent.name)
        return p[parent.nameLength - 1] == UInt8(ascii: "s")
            && memcmp(p, arena.pointer + Int(childName), childLength) == 0
    }

    /// The index of the entry with `key` among the entries of the element at `depth`
    /// (keys are unique there: attributes are, repeated children share an array entry,
    /// renamed keys are chosen unused).
    private mutating func find(_ key: UInt, depth: Int) -> Int? {
        let frame = frames.pointer + depth
        if frame.pointee.indexed { return bigIndexes[depth]?[key] }
        let base = frame.pointee.entryBase
        let end = depth + 1 < frames.count ? frames.pointer[depth + 1].entryBase : entries.count
        if end - base > TreeBuilder.linearSearchLimit {
            var index: [UInt: Int] = [:]
            index.reserveCapacity(end - base)
            for i in base..<end { index[entries.pointer[i].key] = i }
            bigIndexes[depth] = index
            frame.pointee.indexed = true
            return index[key]
        }
        var i = base
        while i < end {
            if entries.pointer[i].key == key { return i }
            i += 1
        }
        return nil
    }

    /// Renames entry `index` from `name` to `@name` (or `@@name`, ... whichever is unused).
    private mutating func rename(_ index: Int, depth: Int) -> Bool {
        let old = entries.pointer[index].key
        guard let key = uniqueRenamed(old, depth: depth) else { return false }
        entries.pointer[index].key = key
        if frames.pointer[depth].indexed {
            bigIndexes[depth]?[old] = nil
            bigIndexes[depth]?[key] = index
        }
        return true
    }

    /// The interned key `@name`, `@@name`, ...: the first not used by the element's entries.
    private mutating func uniqueRenamed(_ key: UInt, depth: Int) -> UInt? {
        let original = arena.pointer + Int(key)
        var bytes = Array(UnsafeBufferPointer(start: original, count: strlen(original)))
        while true {
            bytes.insert(UInt8(ascii: "@"), at: 0)
            guard let interned = bytes.withUnsafeBufferPointer({ names.intern(bytes: $0, arena: &arena) }) else { return nil }
            if find(interned.offset, depth: depth) == nil { return interned.offset }
        }
    }

    private static func isWhitespace(_ bytes: UnsafePointer<UInt8>, _ length: Int) -> Bool {
        for i in 0..<length {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: continue
            default: return false
            }
        }
        return true
    }

    /// Hands the storage to a tree; nil if the document had no root element.
    mutating func makeTree() -> ValueTree? {
        guard failure == nil, let root, frames.count == 0 else { return nil }
        guard nodes.append(root) else { outOfMemory(); return nil }
        let count = nodes.count
        let nameBytes = arena.pointer + Int(rootName)
        let name = String(decoding: UnsafeBufferPointer(start: nameBytes, count: strlen(nameBytes)), as: UTF8.self)
        guard let nodeStorage = nodes.take() else { outOfMemory(); return nil }
        guard let stringStorage = arena.take() else {
            if nodeStorage.mappedBytes > 0 {
                PageMemory.free(UnsafeMutableRawPointer(nodeStorage.pointer), nodeStorage.mappedBytes)
            } else {
                free(nodeStorage.pointer)
            }
            outOfMemory()
            return nil
        }
        let strings = chunks
        chunks = []
        release()
        return ValueTree(nodes: nodeStorage.pointer, count: count, strings: stringStorage.pointer, rootIndex: count - 1,
                         rootName: name, nodesMappedBytes: nodeStorage.mappedBytes,
                         stringsMappedBytes: stringStorage.mappedBytes, chunks: strings)
    }
}
