// SPDX-License-Identifier: MIT
// Fuzz target for a harvest checkpoint, the caller's file (issue 40: counts near 2^63 in one
// killed the process at the next page). See FuzzTargets.swift for the entry point.
//
//   checkpoint  byte 0 picks the server's answer to every page (a page of 3 ids, two of them
//               >= 2^63; a total over the cap; an empty page); the rest is the checkpoint file of
//               the harvest of flickr.photos.search text=x over [0, 10]. It is read as the
//               library reads it (HarvestState); what it accepts must write back as a checkpoint
//               it accepts again, unchanged. Then a Harvester continues from it for a few pages
//               over a socketpair (the answer target's), and the checkpoint it saves must be
//               one it accepts: no number in the file may trap on the way.

#if canImport(Glibc)
import Glibc
#endif

private let checkpointAnswers: [[UInt8]] = [
    #"<photos page="1" pages="2" perpage="500" total="501"><photo id="1"/><photo id="9223372036854775808"/><photo id="18446744073709551615"/></photos>"#,
    #"<photos page="1" pages="18" perpage="500" total="9000"><photo id="2"/><photo id="3"/></photos>"#,
    #"<photos page="1" pages="0" perpage="500" total="0"></photos>"#,
].map { body in
    let xml = #"<?xml version="1.0" encoding="utf-8" ?><rsp stat="ok">"# + body + "</rsp>"
    return Array("HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: \(xml.utf8.count)\r\n\r\n\(xml)".utf8)
}

private let checkpointPath = "/dev/shm/flickr-fuzz-checkpoint-\(getpid()).json"
private let checkpointParameters = [("text", "x"), ("min_upload_date", "0"), ("max_upload_date", "10")]

func fuzzCheckpoint(_ bytes: UnsafeRawBufferPointer) {
    guard let selector = bytes.first else { return }
    let file = Array(bytes.dropFirst())
    let answer = checkpointAnswers[Int(selector) % checkpointAnswers.count]
    guard var query = try? HarvestQuery(method: "flickr.photos.search", parameters: checkpointParameters,
                                        options: [("checkpoint", checkpointPath)], now: 0) else {
        fatalError("the target's own query is refused")
    }
    // The reader alone: what it accepts, it writes back as it read it.
    if let state = try? HarvestState(bytes: file, path: "fuzz", query: &query) {
        var again = query
        guard let reread = try? HarvestState(bytes: Array(state.json.text.utf8), path: "fuzz", query: &again) else {
            fatalError("a checkpoint the library wrote is refused: \(state.json.text.prefix(300))")
        }
        if reread.json != state.json { fatalError("a checkpoint changed on its way back: \(state.json.text.prefix(300))") }
    }
    // A harvest continued from it, a few pages, then saved and read back.
    guard writeWhole(file, to: checkpointPath) else { return }
    let opened = answeringEveryAttempt(with: answer, readSize: 4096)
    defer { closeAnswers(opened) }
    do throws(FlickrError) {
        let context = try Context(apiKey: "key", sharedSecret: "secret")
        try context.set(.restEndpoint, string: "http://127.0.0.1:9/services/rest/")
        try context.set(.maxRetries, number: 0)
        try context.set(.timeoutMs, number: 300)
        let harvester = try Harvester(context: context, method: "flickr.photos.search",
                                      parameters: checkpointParameters, options: [("checkpoint", checkpointPath)])
        for _ in 0..<6 {
            guard (try? harvester.next()) != nil else { break }
        }
        if CheckpointJSON.parse(Array(harvester.reportJSON.utf8)) == nil { fatalError("a report that is not JSON") }
        try harvester.save()
        guard let saved = try CheckpointFile.read(checkpointPath) else { fatalError("the saved checkpoint is gone") }
        var again = query
        if (try? HarvestState(bytes: saved, path: "fuzz", query: &again)) == nil {
            fatalError("the harvest's own checkpoint is refused: \(String(decoding: saved.prefix(300), as: UTF8.self))")
        }
    } catch {
        // Refused (EINVAL) or failed (EPARSE, EIO...): a status, never a trap.
    }
}

/// Replaces `path` with `bytes`; false when it cannot.
private func writeWhole(_ bytes: [UInt8], to path: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = write(fd, base + offset, buffer.count - offset)
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
