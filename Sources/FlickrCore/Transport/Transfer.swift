// SPDX-License-Identifier: MIT

import CCurl
import CFlickrShims
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP exchange in flight: a curl easy handle, the body as it arrives,
/// and where it goes. Created on the caller's thread, then touched only by
/// the engine's worker thread until `completion` has run.
final class Transfer: @unchecked Sendable {
    typealias Completion = @Sendable (Transfer, Result<HTTPOutcome, FlickrError>) -> Void

    let request: HTTPRequest
    /// The raw body received so far (kept for flickr_response_body and error messages).
    private(set) var body: [UInt8] = []
    /// Receives each chunk as it arrives (the streaming XML parser); never called after it throws.
    private let sink: ((UnsafeRawBufferPointer) -> Void)?
    private let completion: Completion

    let easy: UnsafeMutableRawPointer
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
    /// Why a callback stopped the transfer, when it did.
    private var abortReason: FlickrError?
    private var location: String?
    private var retryAfter: Int?
    private var finished = false

    init(
        request: HTTPRequest, sink: ((UnsafeRawBufferPointer) -> Void)?, completion: @escaping Completion
    ) throws(FlickrError) {
        try CurlGlobal.ensure()
        guard let easy = curl_easy_init() else { throw FlickrError(.noMemory, "curl_easy_init failed") }
        self.easy = easy
        self.request = request
        self.sink = sink
        self.completion = completion
        errorBuffer.initialize(to: 0)
        do {
            try configure()
        } catch {
            cleanup()
            throw error
        }
    }

    deinit {
        cleanup()
    }

    private func cleanup() {
        curl_easy_cleanup(easy)
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
            throw FlickrError(code == CURLE_OUT_OF_MEMORY ? .noMemory : .error,
                              "libcurl refused option \(option.rawValue): \(reason)")
        }
    }

    private func configure() throws(FlickrError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try set(CURLOPT_URL, request.url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_FOLLOWLOCATION, 0)  // redirects are judged and re-signed by the caller
        try set(CURLOPT_SSL_VERIFYPEER, 1)
        try set(CURLOPT_SSL_VERIFYHOST, 2)
        try set(CURLOPT_ACCEPT_ENCODING, "")  // any encoding curl can decode; the size cap applies after decoding
        try set(CURLOPT_USERAGENT, request.userAgent)
        try set(CURLOPT_TIMEOUT_MS, request.timeoutMs)
        try set(CURLOPT_CONNECTTIMEOUT_MS, request.connectTimeoutMs)
        try check(flickr__easy_setopt_off(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(request.maxResponseBytes)),
                  CURLOPT_MAXFILESIZE_LARGE)
        if let caFile = request.caFile { try set(CURLOPT_CAINFO, caFile) }
        if let proxy = request.proxy { try set(CURLOPT_PROXY, proxy) }
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_ERRORBUFFER, errorBuffer), CURLOPT_ERRORBUFFER)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_PRIVATE, me), CURLOPT_PRIVATE)

        try check(flickr__easy_setopt_write(easy, Transfer.writeCallback), CURLOPT_WRITEFUNCTION)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_WRITEDATA, me), CURLOPT_WRITEDATA)
        try check(flickr__easy_setopt_header(easy, Transfer.headerCallback), CURLOPT_HEADERFUNCTION)
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_HEADERDATA, me), CURLOPT_HEADERDATA)

        var headers = request.headers
        headers.append("Expect:")  // no 100-continue round trip
        for header in headers {
            guard let list = header.withCString({ curl_slist_append(headerList, $0) }) else {
                throw FlickrError(.noMemory, "out of memory building request headers")
            }
            headerList = list
        }
        try check(flickr__easy_setopt_ptr(easy, CURLOPT_HTTPHEADER, headerList), CURLOPT_HTTPHEADER)

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
    }

    // MARK: Callbacks (worker thread)

    private static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?)
        -> Int = { data, size, count, user in
            guard let user else { return 0 }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            let (length, overflow) = size.multipliedReportingOverflow(by: count)
            guard !overflow else { return 0 }
            return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
        }

    private func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard body.count + chunk.count <= request.maxResponseBytes else {
            abortReason = FlickrError(
                .tooBig, "the response from \(request.redactedURL) exceeded \(request.maxResponseBytes) bytes")
            return false
        }
        body.append(contentsOf: chunk)
        sink?(chunk)
        return true
    }

    private static let headerCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?)
        -> Int = { data, size, count, user in
            let length = size &* count
            guard let user, let data else { return length }
            let transfer = Unmanaged<Transfer>.fromOpaque(user).takeUnretainedValue()
            transfer.header(UnsafeRawBufferPointer(start: data, count: length))
            return length
        }

    private func header(_ raw: UnsafeRawBufferPointer) {
        let line = String(decoding: raw, as: UTF8.self)
        if line.hasPrefix("HTTP/") {  // a new response (after 100 Continue): forget the previous one's headers
            location = nil
            retryAfter = nil
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        switch name {
        case "location": location = value
        case "retry-after": retryAfter = Int(value)
        default: break
        }
    }

    // MARK: Completion (worker thread)

    /// Runs the completion once, with curl's result for this handle.
    func finish(curlCode: CURLcode) {
        guard !finished else { return }
        finished = true
        var status = 0
        _ = flickr__easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        let result: Result<HTTPOutcome, FlickrError>
        if curlCode == CURLE_OK {
            result = .success(HTTPOutcome(status: status, location: location, retryAfterSeconds: retryAfter))
        } else {
            var error = abortReason ?? CurlErrorMapping.error(
                for: curlCode, detail: String(cString: errorBuffer), url: request.redactedURL,
                maxResponseBytes: request.maxResponseBytes)
            error.httpStatus = Int32(clamping: status)
            result = .failure(error)
        }
        completion(self, result)
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
