// SPDX-License-Identifier: MIT
// libFuzzer entry for FlickrCore, compiled together with Sources/FlickrCore by
// scripts/fuzz.sh (swiftc -sanitize=fuzzer,address). FLICKR_FUZZ_TARGET picks the target:
//
//   xml       the streaming response parser (XMLMapper, fed in input-chosen chunks), the
//             response interpreter and the JSON rendering of the tree
//   keypath   key-path lookups: the first line is a path, the rest an XML document
//             (a built-in photo list when it does not parse)
//   callback  the OAuth callback URL parser
//   photourl  photo URLs: the first line is a size suffix, the rest an XML document whose
//             first photo (photos.photo.0, photo, or the root) is used; the short URL of
//             the first line as an id
//   answer    a server's whole HTTP answer through libcurl and the call path (AnswerTargets.swift)
//   sizes     size and header arithmetic (AnswerTargets.swift)
//   link      Flickr URLs people paste (flickr_url_parse): any text, never a trap; what it
//             accepts has the shape it promises and round-trips through the URL builders
//   budget    the key's budget file as another process or a person left it (BudgetTarget.swift)
//   checkpoint  a harvest checkpoint file, read and continued from (CheckpointTarget.swift)
//
// Any crash, trap, sanitizer report or timeout is a finding: save the input under
// Tests/fuzz/regressions/<target>/ (scripts/fuzz.sh replays them on every run).

#if canImport(Glibc)
import Glibc
#endif

private enum Target { case xml, keypath, callback, photourl, answer, sizes, link, budget, checkpoint }

nonisolated(unsafe) private var target: Target = .xml

private let fallbackXML = Array("""
    <?xml version="1.0" encoding="utf-8"?><rsp stat="ok"><photos page="1" pages="2" total="3">\
    <photo id="8" owner="1@N00" secret="abc" server="5" title="t" originalsecret="o" originalformat="jpg"\
     url_k="https://live.staticflickr.com/5/8_k.jpg"/><photo id="9"><title>x</title></photo></photos>\
    <s>text</s></rsp>
    """.utf8)

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let name = getenv("FLICKR_FUZZ_TARGET").map { String(cString: $0) } ?? "xml"
    switch name {
    case "xml": target = .xml
    case "keypath": target = .keypath
    case "callback": target = .callback
    case "photourl": target = .photourl
    case "answer": target = .answer
    case "sizes": target = .sizes
    case "link": target = .link
    case "budget": target = .budget
    case "checkpoint": target = .checkpoint
    default:
        fputs("FLICKR_FUZZ_TARGET must be xml, keypath, callback, photourl, answer, sizes, link, budget or checkpoint\n", stderr)
        exit(2)
    }
    return 0
}

/// Splits "first line\nrest".
private func splitFirstLine(_ bytes: UnsafeRawBufferPointer) -> (String, UnsafeRawBufferPointer) {
    guard let newline = bytes.firstIndex(of: 0x0A) else {
        return (String(decoding: bytes, as: UTF8.self), UnsafeRawBufferPointer(start: nil, count: 0))
    }
    let head = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[..<newline]), as: UTF8.self)
    return (head, UnsafeRawBufferPointer(rebasing: bytes[(newline + 1)...]))
}

/// A tree from `bytes`, or from the built-in document.
private func tree(_ bytes: UnsafeRawBufferPointer) -> ValueTree? {
    if let parsed = try? XMLMapper.parse(bytes) { return parsed }
    return fallbackXML.withUnsafeBytes { try? XMLMapper.parse($0) }
}

/// Walks every node, reading what the C API can read.
private func walk(_ node: UnsafePointer<ValueNode>, depth: Int = 0) {
    _ = node.cString
    _ = node.string
    guard depth < 300 else { return }
    for i in 0..<node.count {
        _ = node.key(at: i)
        if let child = node.element(at: i) { walk(child, depth: depth + 1) }
    }
}

private func fuzzXML(_ bytes: UnsafeRawBufferPointer) {
    // The first byte picks the chunk size, as the network would split the body.
    let chunk = bytes.isEmpty ? 1 : Int(bytes[0]) + 1
    let mapper = XMLMapper()
    var offset = 0
    var failed = false
    while offset < bytes.count, !failed {
        let end = min(bytes.count, offset + chunk)
        do { try mapper.feed(UnsafeRawBufferPointer(rebasing: bytes[offset..<end])) } catch { failed = true }
        offset = end
    }
    let parsed: Result<ValueTree, FlickrError>
    do { parsed = .success(try mapper.finish()) } catch { parsed = .failure(error) }
    if case .success(let tree) = parsed {
        walk(tree.root)
        _ = tree.root.json()
        // The whole-buffer parse agrees with the chunked one.
        if let whole = try? XMLMapper.parse(bytes), whole.root.json() != tree.root.json() {
            fatalError("chunked and whole parses differ")
        }
    }
    _ = ResponseInterpreter.interpret(status: 200, body: responseBody(bytes), parsed: parsed, url: "http://fuzz/")
    _ = ResponseInterpreter.interpret(status: 503, body: responseBody(bytes), parsed: parsed, url: "http://fuzz/")
}

/// The bytes as a transfer would have kept them (a fresh body per use: a success moves it out).
private func responseBody(_ bytes: UnsafeRawBufferPointer) -> ResponseBody {
    let body = ResponseBody()
    _ = body.append(bytes)
    return body
}

private func fuzzKeyPath(_ bytes: UnsafeRawBufferPointer) {
    let (path, rest) = splitFirstLine(bytes)
    guard let tree = tree(rest) else { return }
    if let found = tree.root.lookup(path: path) {
        walk(found)
        _ = found.json()
    }
    // Every prefix of the path, too.
    var prefix = ""
    for part in path.split(separator: ".", omittingEmptySubsequences: false).prefix(64) {
        prefix += prefix.isEmpty ? String(part) : "." + part
        _ = tree.root.lookup(path: prefix)
    }
}

private func fuzzCallback(_ bytes: UnsafeRawBufferPointer) {
    let url = String(decoding: bytes, as: UTF8.self)
    if let callback = try? OAuthFlow.parseCallback(url) {
        if callback.token.isEmpty || callback.verifier.isEmpty { fatalError("empty token or verifier accepted") }
    }
}

private func fuzzPhotoURL(_ bytes: UnsafeRawBufferPointer) {
    let (size, rest) = splitFirstLine(bytes)
    guard let tree = tree(rest) else { return }
    let photo = tree.root.lookup(path: "photos.photo.0") ?? tree.root.lookup(path: "photo") ?? tree.root
    guard photo.kind == .object else { return }
    let field: (String) -> String? = { photo.lookup(path: $0)?.string }
    for suffix in [size, "", "s", "q", "t", "m", "n", "w", "z", "c", "b", "h", "k", "3k", "4k", "5k", "6k", "o"] {
        // Built URLs are https; a photo's own url_* extra may be http (a sandbox), in lower case.
        // Prefixes compared byte for byte: hasPrefix compares Characters, and "https://" followed by
        // a combining mark does not have the Character prefix "https://".
        if let url = try? PhotoURL.source(size: suffix, field: field), !url.utf8.starts(with: "https://".utf8),
            !(url.utf8.starts(with: "http://".utf8) && field("url_" + suffix) != nil)
        {
            fatalError("a source URL that is not https: \(url)")
        }
    }
    if let url = try? PhotoURL.page(field: field), !url.utf8.starts(with: "https://www.flickr.com/photos/".utf8) {
        fatalError("a page URL elsewhere: \(url)")
    }
    if let url = try? PhotoURL.short(photoID: size), !url.utf8.starts(with: "https://flic.kr/p/".utf8) {
        fatalError("a short URL elsewhere: \(url)")
    }
}

private func fuzzLink(_ bytes: UnsafeRawBufferPointer) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let fields = try? FlickrLink.parse(text) else { return }
    guard let kind = fields.first, kind.0 == "kind",
        ["photo", "image", "album", "gallery", "favorites", "group", "user", "tag"].contains(kind.1)
    else { fatalError("a parse without a known kind first: \(fields)") }
    for (name, value) in fields {
        if value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) { fatalError("a control character in \(name)") }
        if name.hasSuffix("_id"), name != "group_id", value.isEmpty || !value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
            fatalError("\(name) is not decimal: \(value)")
        }
    }
    // A photo id that fits in 64 bits makes a short link that reads back as the same id.
    if let id = fields.first(where: { $0.0 == "photo_id" })?.1, let short = try? PhotoURL.short(photoID: id),
        let again = try? FlickrLink.parse(short), again.first(where: { $0.0 == "photo_id" })?.1 != String(UInt64(id) ?? 0)
    {
        fatalError("the short link of \(id) reads back as \(again)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    switch target {
    case .xml: fuzzXML(bytes)
    case .keypath: fuzzKeyPath(bytes)
    case .callback: fuzzCallback(bytes)
    case .photourl: fuzzPhotoURL(bytes)
    case .answer: fuzzAnswer(bytes)
    case .sizes: fuzzSizes(bytes)
    case .link: fuzzLink(bytes)
    case .budget: fuzzBudget(bytes)
    case .checkpoint: fuzzCheckpoint(bytes)
    }
    return 0
}
