// SPDX-License-Identifier: MIT
// Fuzz targets for what a server sends and for size arithmetic (issue 19: a Retry-After header
// and a file size killed the process). See FuzzTargets.swift for the entry point.
//
//   answer  a whole HTTP answer as a server would send it (status line, headers, chunked or
//           gzip body), read by libcurl over a socketpair and taken through the same code as
//           every call: Transfer's callbacks, the streaming parser, the interpreter, redirects,
//           retries and the deadline. Byte 0 picks libcurl's read size (so the body arrives in
//           other pieces), byte 1 the mode (bit 0 POST, bit 1 asynchronous, bit 2 one retry,
//           bit 3 answer not read); the rest is the answer.
//   sizes   lengths, offsets and header values from the input, eight bytes at a time, through
//           the multipart body, upload sources, Retry-After and the retry policy.

#if canImport(Glibc)
import Glibc
#endif

/// Runs one scripted exchange; every attempt of the request gets a fresh socketpair with the answer.
func fuzzAnswer(_ bytes: UnsafeRawBufferPointer) {
    guard bytes.count >= 2 else { return }
    let readSize = 1024 + Int(bytes[0]) * 64
    let mode = bytes[1]
    let opened = answeringEveryAttempt(with: Array(bytes[2...]), readSize: readSize)
    defer { closeAnswers(opened) }
    do throws(FlickrError) {
        let context = try Context(apiKey: "key", sharedSecret: "secret")
        try context.set(.restEndpoint, string: "http://127.0.0.1:9/services/rest/")
        try context.set(.maxRetries, number: mode & 4 != 0 ? 1 : 0)
        try context.set(.retryBaseMs, number: 0)
        try context.set(.timeoutMs, number: 300)  // a Retry-After past it is not waited for
        try context.set(.maxResponseBytes, number: 1 << 20)
        try context.set(.oauthToken, string: "token")
        try context.set(.oauthTokenSecret, string: "token-secret")
        let call = try RESTCall(method: "flickr.test.echo", parameters: [("a", "b")],
                                verb: mode & 1 != 0 ? .post : .get, discardsAnswer: mode & 8 != 0)
        let outcome: Result<Response, FlickrError>
        if mode & 2 != 0 {
            outcome = try context.start(call, onComplete: nil).wait()
        } else {
            outcome = Result { () throws(FlickrError) in try context.perform(call) }
        }
        if case .failure(let error) = outcome {
            check(error.message)
        }
    } catch {
        check(error.message)
    }
}

/// Sets every transfer's connection to a fresh socketpair that holds `answer`, read `readSize` bytes
/// at a time; `closeAnswers` with what it returns ends the script (the test's ends of the pairs).
func answeringEveryAttempt(with answer: [UInt8], readSize: Int) -> Locked<[Int32]> {
    let opened = Locked<[Int32]>([])
    Transfer.fuzzingSocket = {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
        else { return nil }
        var size: Int32 = 1 << 20
        setsockopt(pair[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = answer.withUnsafeBytes { send(pair[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(pair[0], Int32(SHUT_WR))
        opened.withLock { $0.append(pair[0]) }
        return (pair[1], readSize)  // libcurl closes its end
    }
    return opened
}

func closeAnswers(_ opened: Locked<[Int32]>) {
    Transfer.fuzzingSocket = nil
    for fd in opened.withLock({ $0 }) { close(fd) }
}

/// Messages never carry a control character, whatever the server sent.
private func check(_ message: String) {
    if message.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        fatalError("a control character in a message: \(message.debugDescription)")
    }
}

/// Reads eight bytes at a time as Int64 values (zero past the end).
private struct Numbers {
    var bytes: UnsafeRawBufferPointer
    var offset = 0

    mutating func next() -> Int64 {
        var value: Int64 = 0
        for shift in stride(from: 0, to: 64, by: 8) where offset < bytes.count {
            value |= Int64(bytes[offset]) << Int64(shift)
            offset += 1
        }
        return value
    }
}

func fuzzSizes(_ bytes: UnsafeRawBufferPointer) {
    var numbers = Numbers(bytes: bytes)
    // A stream of any announced length: refused past the maximum, else read and rewound anywhere.
    let length = numbers.next()
    let read: UploadReadFunction = { buffer, capacity, _ in
        if let buffer { memset(buffer, 0x61, capacity) }
        return Int64(capacity)
    }
    if let source = try? UploadSource(.stream(read: read, userdata: 0, length: length)),
        let reader = try? source.openReader()
    {
        let body = MultipartBody(fields: [("title", "t")], source: source, reader: reader)
        if body.length < length { fatalError("the body is shorter than its photo") }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<4 {
            let target = numbers.next()
            _ = body.seek(to: target)
            _ = buffer.withUnsafeMutableBytes { try? body.read(into: $0) }
            if body.position < 0 || body.position > body.length { fatalError("the body's position left it") }
        }
    }
    // Retry-After of any text, and the retry policy over any numbers.
    let text = UnsafeRawBufferPointer(rebasing: bytes[min(numbers.offset, bytes.count)...])
    let seconds = RetryAfter.seconds(text, nowEpochSeconds: Int(truncatingIfNeeded: numbers.next()))
    if let seconds, seconds < 0 || seconds > RetryAfter.maxSeconds { fatalError("Retry-After out of range") }
    if var settings = try? Settings(apiKey: "k", sharedSecret: "s") {
        _ = try? settings.set(.retryBaseMs, number: Int(truncatingIfNeeded: numbers.next()))
        let policy = RetryPolicy(settings: settings, idempotent: true, resendable: true)
        let error = FlickrError(.http, "busy", httpStatus: 503)
        let retry = Int(truncatingIfNeeded: numbers.next())
        if let delay = policy.delayMs(for: error, retry: retry, retryAfterSeconds: seconds ?? Int(truncatingIfNeeded: numbers.next())),
            delay < 0 || delay > RetryPolicy.maxRetryAfterMs
        {
            fatalError("a retry delay out of range: \(delay)")
        }
    }
    _ = UInt64.nanoseconds(milliseconds: Int(truncatingIfNeeded: numbers.next()))
}
