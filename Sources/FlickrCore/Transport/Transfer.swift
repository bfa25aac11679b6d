// SPDX-License-Identifier: MIT

import CCurl
import CFlickrShims
import Glibc

/// One HTTP exchange in flight: a curl easy handle, the body as it arrives,
/// and where it goes. Created on the caller's thread, then touched only by the
/// thread that runs it (the caller's for a synchronous call, the engine's worker
/// for an asynchronous one) until `completion` has run.
final class Transfer: @unchecked Sendable {
    typealias Completion = @Sendable (Transfer, Result<HTTPOutcome, FlickrError>) -> Void

    let request: HTTPRequest
    /// The raw body received so far, up to `keptBodyBytes` (for flickr_response_body and error messages).
    let body: ResponseBody
    /// Every body byte received, kept or not (the size cap counts these).
    private var received = 0
    /// Receives each chunk as it arrives (the streaming XML parser, a file); a thrown error stops the transfer.
    private let sink: ((UnsafeRawBufferPointer) throws(FlickrError) -> Void)?
    private let completion: Completion

    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Why a callback stopped the transfer, when it did.
    private var abortReason: FlickrError?
    private var location: String?
    private var retryAfter: Int?
    private var finished = false
    /// When the whole call must be over (monotonic ns), or 0 for no limit (uploads keep their own clocks).
    private let deadlineNs: UInt64
    /// Asked every InterruptCheck.intervalNs whether to stop (synchronous calls only; Engine.drive asks).
    let interrupt: InterruptCheck?
    /// Header bytes of the answer so far: a server must not make us hold an endless header block.
    private var headerBytes = 0
    /// Between a status line and the blank line after the headers: libcurl's "out of memory" there
    /// means a header line longer than it accepts (100 KB), not a failed allocation.
    private var inHeaders = false
    static let maxHeaderBytes = 256 * 1024
    /// libcurl refuses longer URLs (CURL_MAX_INPUT_LENGTH); a GET that long must go as POST.
    static let maxURLBytes = 8_000_000

    // Uploads: the streamed body, its progress, and the idle/answer-wait clocks.
    private var upload: MultipartBody?
    private var progress: UploadProgress?
    private var idleTimeoutNs: UInt64 = 0
    private var responseTimeoutNs: UInt64 = 0
    private var lastActivityNs: UInt64 = 0
    private var lastUploaded: Int64 = -1
    private var lastDownloaded: Int64 = -1
    private var allSentAtNs: UInt64?

    /// Where a pooled handle goes back when the transfer is done (synchronous transfers), with
    /// the options it leaves set (nil when they are not plain `setup`: uploads, failed setup).
    private let recycle: (@Sendable (UnsafeMutableRawPointer, EasySetup?) -> Void)?
    private var leavesSetup: EasySetup?
    /// In the child of a fork: the handle is on the parent's connection, never cleaned up here.
    private var abandoned = false

    /// `easy` is a handle from the engine's pool (given back through `recycle`), or nil for a new
    /// one; `warm` when the pool says it already has this request's `EasySetup` options set.
    ///
    /// Convenience, so that nothing throws before the object exists (see EmbeddedPlatform.swift);
    /// a setup failure afterwards releases it, and `deinit` gives the handle back.
    convenience init(
        request: HTTPRequest, sink: ((UnsafeRawBufferPointer) throws(FlickrError) -> Void)?,
        keptBodyBytes: Int = Int.max, deadlineNs: UInt64 = 0, interrupt: InterruptCheck? = nil,
        easy pooled: UnsafeMutableRawPointer? = nil,
        warm: Bool = false, recycle: (@Sendable (UnsafeMutableRawPointer, EasySetup?) -> Void)? = nil,
        completion: @escaping Completion
    ) throws(FlickrError) {
        // Until the object exists, a pooled handle is ours to give back.
        func release() {
            guard let pooled else { return }
            if let recycle { recycle(pooled, nil) } else { curl_easy_cleanup(pooled) }
        }
        guard request.url.utf8.count <= Transfer.maxURLBytes else {
            release()
            throw .invalid("the request URL is \(request.url.utf8.count) bytes, more than the \(Transfer.maxURLBytes) "
                           + "libcurl accepts: send such large parameters with POST")
        }
        do {
            try CurlGlobal.ensure()
        } catch {
            release()
            throw error
        }
        guard let easy = pooled ?? curl_easy_init() else { throw FlickrError(.noMemory, "curl_easy_init failed") }
        self.init(easy: easy, request: request, sink: sink, keptBodyBytes: keptBodyBytes, deadlineNs: deadlineNs,
                  interrupt: interrupt, recycle: recycle, completion: completion)
        try configure(warm: pooled != nil && warm)
    }

    private init(
        easy: UnsafeMutableRawPointer, request: HTTPRequest,
        sink: ((UnsafeRawBufferPointer) throws(FlickrError) -> Void)?, keptBodyBytes: Int, deadlineNs: UInt64,
        interrupt: InterruptCheck?, recycle: (@Sendable (UnsafeMutableRawPointer, EasySetup?) -> Void)?, completion: @escaping Completion
    ) {
        self.easy = easy
        self.recycle = recycle
        self.request = request
        self.sink = sink
        body = ResponseBody(keepingAtMost: keptBodyBytes)
        self.deadlineNs = request.upload == nil ? deadlineNs : 0
        self.interrupt = interrupt
        self.completion = completion
        errorBuffer.initialize(to: 0)
    }

    deinit {
        cleanup()
    }

    private func cleanup() {
        upload = nil
        if abandoned {
            // Leaked: curl_easy_cleanup could write (a TLS close_notify) on the parent's socket.
        } else if let recycle {
            recycle(easy, leavesSetup)
        } else {
            curl_easy_cleanup(easy)
        }
        curl_slist_free_all(headerList)
        headerList = nil
        errorBuffer.deallocate()
    }

    // MARK: Setup

    private func set(_ option: CURLoption, _ value: Int) throws(FlickrError) {
        try check(flickr__easy_setopt_long(easy, option, value), option)
    }

    private func set(_ option: CURLoption, _ value: String) throws(FlickrError) {
        // libcurl copies string options (since 7.17), so the temporary C string may go.
        try check(value.withCString { flickr__easy_setopt_ptr(easy, option, $0) }, option)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(FlickrError) {
        guard code == CURLE_OK else {
            let reason = String(cString: curl_easy_strerror(code))
            let kind: FlickrError.Code
            switch code {
            case CURLE_OUT_OF_MEMORY: kind = .noMemory
            case CURLE_BAD_FUNCTION_ARGUMENT, CURLE_URL_MALFORMAT: kind = .invalidArgument
            default: kind = .error
            }
            throw FlickrError(kind, "libcurl refused option \(option.rawValue): \(reason)")
        }
    }

    /// `warm`: the handle already has this request's EasySetup options (and the callbacks) from its
    /// last transfer, a plain GET or POST; only what belongs to this transfer is set again.
    private func configure(warm: Bool) throws(FlickrError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_URL, request.url)
        if !warm {
            try set(CURLOPT_PROTOCOLS_STR, "http,https")
            try set(CURLOPT_NOSIGNAL, 1)
            try set(CURLOPT_FOLLOWLOCATION, 0)  // redirects are judged and re-signed by the caller
            try set(CURLOPT_SSL_VERIFYPEER, 1)
            try set(CURLOPT_SSL_VERIFYHOST, 2)
            // Decode what the server compressed (the size cap applies after decoding); the header
            // itself is RequestHeaders.acceptEncoding, which libcurl then does not write again.
            try set(CURLOPT_ACCEPT_ENCODING, "")
            try set(CURLOPT_USERAGENT, request.setup.userAgent)
            try set(CURLOPT_CONNECTTIMEOUT_MS, request.setup.connectTimeoutMs)
            try check(flickr__easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.setup.maxResponseBytes)),
                      CURLOPT_MAXFILESIZE_LARGE)
            if let caFile = request.setup.caFile { try set(CURLOPT_CAINFO, caFile) }
            if let proxy = request.setup.proxy { try set(CURLOPT_PROXY, proxy) }
            try check(flickr__easy_setopt_write(easy, Transfer.writeCallback), CURLOPT_WRITEFUNCTION)
            try check(flickr__easy_setopt_header(easy, Transfer.headerCallback), CURLOPT_HEADERFUNCTION)
        }
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_PRIVATE, me), CURLOPT_PRIVATE)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me), CURLOPT_WRITEDATA)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me), CURLOPT_HEADERDATA)

        #if FLICKR_FUZZING
        // scripts/fuzz.sh's "answer" target: the scripted answer arrives over a socketpair.
        if let (socket, readSize) = Transfer.fuzzingSocket?() {
            try check(flickr__easy_use_socket(easy, socket, readSize), CURLOPT_OPENSOCKETFUNCTION)
        }
        #endif

        if request.headers.isEmpty && request.upload == nil && request.verb == .get {
            // A plain GET, most calls: the process's one list, built once (libcurl only reads it).
            try check(flickr__easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, RequestHeaders.plainGet), CURLOPT_HTTPHEADER)
        } else {
            var headers = request.headers
            if let acceptEncoding = RequestHeaders.acceptEncoding { headers.append(acceptEncoding) }
            headers.append("Expect:")  // no 100-continue round trip
            for header in headers {
                guard let list = header.withCString({ curl_slist_append(headerList, $0) }) else {
                    throw FlickrError(.noMemory, "out of memory building request headers")
                }
                headerList = list
            }
            try check(flickr__easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
        }

        if let plan = request.upload {
            try configureUpload(plan, me: me)
            return
        }
        switch request.verb {
        case .get:
            try set(CURLOPT_HTTPGET, 1)
        case .post:
            let body = request.body ?? []
            try check(flickr__easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)),
                      CURLOPT_POSTFIELDSIZE_LARGE)
            if body.isEmpty {
                try set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                try check(body.withUnsafeBytes { flickr__easy_setopt_ptr(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) },
                          CURLOPT_COPYPOSTFIELDS)
            }
        }
        leavesSetup = request.setup  // every option was taken: the pool may hand the handle out warm
    }

    /// A streamed multipart POST: no total deadline, an idle limit while
    /// sending and a separate limit on waiting for the answer.
    private func configureUpload(_ plan: UploadPlan, me: UnsafeMutableRawPointer) throws(FlickrError) {
        let body = MultipartBody(fields: plan.fields, source: plan.source, reader: try plan.source.openReader())
        upload = body
        progress = plan.progress.map { UploadProgress(handler: $0) }
        idleTimeoutNs = UInt64(plan.idleTimeoutMs) * 1_000_000
        responseTimeoutNs = UInt64(plan.responseTimeoutMs) * 1_000_000
        lastActivityNs = MonotonicClock.nowNs()

        guard let list = "Content-Type: \(body.contentType)".withCString({ curl_slist_append(headerList, $0) }) else {
            throw FlickrError(.noMemory, "out of memory building request headers")
        }
        headerList = list
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)
        try set(CURLOPT_POST, 1)
        try check(flickr__easy_setopt_off(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.length)),
                  CURLOPT_POSTFIELDSIZE_LARGE)
        try set(CURLOPT_TIMEOUT_MS, 0)
        try set(CURLOPT_UPLOAD_BUFFERSIZE, 256 * 1024)
        try check(flickr__easy_setopt_read(easy, Transfer.readCallback), CURLOPT_READFUNCTION)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_READDATA, me), CURLOPT_READDATA)
        try check(flickr__easy_setopt_seek(easy, Transfer.seekCallback), CURLOPT_SEEKFUNCTION)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_SEEKDATA, me), CURLOPT_SEEKDATA)
        try set(CURLOPT_NOPROGRESS, 0)
        try check(flickr__easy_setopt_xferinfo(easy, Transfer.transferInfoCallback), CURLOPT_XFERINFOFUNCTION)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_XFERINFODATA, me), CURLOPT_XFERINFODATA)
    }

    /// How a stop from outside (a cancel, the interrupt callback) is reported: an upload whose
    /// whole body went out may have created the photo, and the message says so.
    func stoppedError(_ otherwise: FlickrError, how: String) -> FlickrError {
        guard uploadFullyHandedOver else { return otherwise }
        return FlickrError(.aborted, "the upload was \(how) after its whole body was sent: Flickr may have stored the photo")
    }

    /// True once an upload's last body byte has been handed to curl: from then on the server may
    /// store the photo whatever happens here.
    var uploadFullyHandedOver: Bool {
        guard let upload else { return false }
        return upload.position >= upload.length
    }

    #if FLICKR_FUZZING
    /// Fuzzing builds only: where each transfer's connection comes from (see flickr__easy_use_socket).
    nonisolated(unsafe) static var fuzzingSocket: (() -> (Int32, Int)?)?
    #endif

    /// Sets the time left for this attempt, right before it starts (after any back-off or
    /// rate-limit wait): the call's deadline covers every attempt. False when no time is left.
    func arm(now: UInt64) -> Bool {
        guard request.upload == nil else { return true }  // uploads: idle and answer-wait clocks
        guard deadlineNs != 0 else {
            return flickr__easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, 0) == CURLE_OK
        }
        guard now < deadlineNs else { return false }
        let remainingMs = Int(clamping: (deadlineNs - now) / 1_000_000 + 1)
        return flickr__easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, remainingMs) == CURLE_OK
    }

    // MARK: Callbacks (the thread running the transfer)

    private static let readCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?)
        -> Int = { data, size, count, user in
            guard let user, let data else { return Int(CURL_READFUNC_ABORT) }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            let (length, overflow) = size.multipliedReportingOverflow(by: count)
            guard !overflow else { return Int(CURL_READFUNC_ABORT) }
            return transfer.produce(UnsafeMutableRawBufferPointer(start: data, count: length))
        }

    private func produce(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let upload else { return 0 }
        do {
            return try upload.read(into: buffer)
        } catch {
            abortReason = error
            return Int(CURL_READFUNC_ABORT)
        }
    }

    private static let seekCallback: @convention(c) (UnsafeMutableRawPointer?, curl_off_t, Int32) -> Int32 = {
        user, offset, origin in
        guard let user, origin == SEEK_SET else { return Int32(CURL_SEEKFUNC_CANTSEEK) }
        let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
        return transfer.upload?.seek(to: Int64(offset)) == true ? Int32(CURL_SEEKFUNC_OK) : Int32(CURL_SEEKFUNC_CANTSEEK)
    }

    private static let transferInfoCallback:
        @convention(c) (UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t) -> Int32 = {
            user, _, downloaded, _, uploaded in
            guard let user else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            return transfer.transferInfo(uploaded: Int64(uploaded), downloaded: Int64(downloaded)) ? 0 : 1
        }

    /// Progress and the upload clocks; false stops the transfer (abortReason says why).
    private func transferInfo(uploaded: Int64, downloaded: Int64) -> Bool {
        guard let upload else { return true }
        let now = MonotonicClock.nowNs()
        if uploaded != lastUploaded || downloaded != lastDownloaded {
            lastActivityNs = now
            lastUploaded = uploaded
            lastDownloaded = downloaded
        }
        // An abort is honoured only while part of the body has not been handed to curl: without
        // its last bytes the server never sees a complete upload, so "aborted" means "no photo".
        // Once the whole body is out, the server may store the photo whatever we do; the call
        // then waits for and reports the server's answer (with the photo id) instead.
        if let progress, !progress.report(sent: uploaded, total: upload.length), upload.position < upload.length {
            abortReason = FlickrError(.aborted, "the progress callback stopped the upload")
            return false
        }
        if uploaded < upload.length {
            if idleTimeoutNs > 0, now &- lastActivityNs > idleTimeoutNs {
                abortReason = FlickrError(
                    .timeout, "the upload stalled: no byte moved for \(idleTimeoutNs / 1_000_000) ms")
                return false
            }
        } else {
            let sentAt = allSentAtNs ?? now
            allSentAtNs = sentAt
            if responseTimeoutNs > 0, downloaded == 0, now &- sentAt > responseTimeoutNs {
                abortReason = FlickrError(
                    .timeout, "no answer \(responseTimeoutNs / 1_000_000) ms after the upload was sent")
                return false
            }
        }
        return true
    }

    private static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?)
        -> Int = { data, size, count, user in
            guard let user else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            let (length, overflow) = size.multipliedReportingOverflow(by: count)
            guard !overflow else { return 0 }
            return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }

    private func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        // curl checks its timeout only between reads; a compressed body can decode for long
        // inside one, so the deadline is checked here too.
        if deadlineNs != 0, MonotonicClock.nowNs() > deadlineNs {
            abortReason = FlickrError(.timeout, "the call's time limit passed while the answer from "
                                      + "\(request.redactedURL) was arriving")
            return false
        }
        guard chunk.count <= request.setup.maxResponseBytes - received else {
            abortReason = FlickrError(
                .tooBig, "the response from \(request.redactedURL) exceeded \(request.setup.maxResponseBytes) bytes")
            return false
        }
        received += chunk.count
        guard body.append(chunk) else {
            abortReason = FlickrError(.noMemory, "out of memory while receiving the answer from \(request.redactedURL)")
            return false
        }
        do {
            try sink?(chunk)
        } catch {
            abortReason = error
            return false
        }
        return true
    }

    private static let headerCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?)
        -> Int = { data, size, count, user in
            let (length, overflow) = size.multipliedReportingOverflow(by: count)
            guard !overflow, let user, let data else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            return transfer.header(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }

    /// False stops the transfer: the header block is larger than any real answer's.
    private func header(_ raw: UnsafeRawBufferPointer) -> Bool {
        guard raw.count <= Transfer.maxHeaderBytes - headerBytes else {
            abortReason = FlickrError(
                .tooBig, "the answer's headers from \(request.redactedURL) exceed \(Transfer.maxHeaderBytes) bytes")
            return false
        }
        headerBytes += raw.count
        inHeaders = !(raw.count <= 2 && raw.allSatisfy { $0 == 13 || $0 == 10 })  // the blank line ends them
        // Only two headers matter; test their names on the bytes, so the other
        // lines of every answer cost no String.
        if Transfer.hasPrefix(raw, "HTTP/") {  // a new response (after 100 Continue): forget the previous one's
            location = nil
            retryAfter = nil
        } else if Transfer.hasPrefix(raw, "location:") {
            location = String(decoding: raw.dropFirst(9), as: UTF8.self).trimmingSpaces
        } else if Transfer.hasPrefix(raw, "retry-after:") {
            retryAfter = RetryAfter.seconds(raw.dropFirst(12), nowEpochSeconds: time(nil))
        }
        return true
    }

    /// ASCII case-insensitive prefix test (`name` is lower case).
    private static func hasPrefix(_ raw: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        guard raw.count >= name.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for (index, byte) in expected.enumerated() {
            let actual = raw[index]
            if actual != byte && actual | 0x20 != byte { return false }
        }
        return true
    }

    // MARK: Completion (the thread running the transfer)

    /// In the child of a fork, for a transfer that was in flight: its handle stays untouched.
    func abandon() { abandoned = true }

    /// Runs the completion once, with curl's result for this handle.
    func finish(curlCode: CURLcode) {
        guard !finished else { return }
        finished = true
        var status = 0
        _ = flickr__easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let result: Result<HTTPOutcome, FlickrError>
        if curlCode == CURLE_OK {
            if let upload { progress?.complete(total: upload.length) }
            result = .success(HTTPOutcome(status: status, location: location, retryAfterSeconds: retryAfter))
        } else {
            var osErrno = 0
            _ = flickr__easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &osErrno)
            if curlCode == CURLE_COULDNT_CONNECT, osErrno == 0 { osErrno = Int(Transfer.descriptorShortage()) }
            var error = abortReason ?? CurlErrorMapping.error(
                for: curlCode, detail: String(cString: errorBuffer), url: request.redactedURL,
                maxResponseBytes: request.setup.maxResponseBytes, midHeaders: inHeaders, osErrno: Int32(clamping: osErrno))
            error.httpStatus = Int32(clamping: status)
            result = .failure(error)
        }
        completion(self, result)
    }

    /// EMFILE or ENFILE when the process cannot open another socket now, else 0. libcurl reports a
    /// failed socket() as "Couldn't connect" without its errno; one probe tells the two apart.
    private static func descriptorShortage() -> Int32 {
        let probe = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard probe < 0 else {
            Glibc.close(probe)
            return 0
        }
        let code = errno
        return code == EMFILE || code == ENFILE ? code : 0
    }

    /// Completes without curl having finished (cancelled before or during the exchange).
    func finish(with error: FlickrError) {
        guard !finished else { return }
        finished = true
        completion(self, .failure(error))
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
