// SPDX-License-Identifier: MIT

import Synchronization

/// One operation in flight: builds and signs its HTTP request, sends it
/// through the context's engine, follows same-origin redirects (re-signing
/// for the new URL), and completes exactly once with a response or an error.
/// Sync calls are a Request plus `wait()`.
package final class Request: @unchecked Sendable {
    package typealias Completion = @Sendable (Request) -> Void

    private struct State {
        var transfer: Transfer?
        var result: Result<Response, FlickrError>?
        var cancelled = false
        var redirects = 0
    }

    static let maxRedirects = 5

    private let context: Context  // kept alive while the request lives
    private let operation: any Operation
    private let settings: Settings
    private let onComplete: Completion?
    private let state = Mutex(State())
    private let done = Latch()

    init(context: Context, operation: any Operation, onComplete: Completion?) {
        self.context = context
        self.operation = operation
        self.settings = context.snapshot
        self.onComplete = onComplete
    }

    /// The outcome once complete, else nil.
    package var result: Result<Response, FlickrError>? {
        state.withLock { $0.result }
    }

    func start() throws(FlickrError) {
        try attempt(endpoint: operation.endpoint(settings))
    }

    /// Blocks until complete (and the done callback has returned). On the
    /// engine's own thread it cannot block: it answers at once.
    package func wait() -> Result<Response, FlickrError> {
        if let result { return result }
        if context.engine.isWorkerThread {
            return .failure(FlickrError(.state, "cannot wait for a request from a done callback: it has not completed"))
        }
        done.wait()
        return result ?? .failure(FlickrError(.error, "request finished without a result"))
    }

    /// Waits for the done callback to have run, unless called from the engine's thread.
    package func waitForCallback() {
        if !context.engine.isWorkerThread { done.wait() }
    }

    /// Aborts the request; it completes with FLICKR_EABORTED unless already complete.
    package func cancel() {
        let transfer = state.withLock { s -> Transfer? in
            s.cancelled = true
            return s.result == nil ? s.transfer : nil
        }
        if let transfer { context.engine.cancel(transfer) }
    }

    // MARK: Attempts

    private func attempt(endpoint: String) throws(FlickrError) {
        let request = try operation.httpRequest(endpoint: endpoint, settings: settings)
        let parse = operation.parsesXML ? StreamingParse() : nil
        let sink: ((UnsafeRawBufferPointer) -> Void)? = parse.map { parse in { parse.feed($0) } }
        let transfer = try Transfer(request: request, sink: sink) { [self] _, outcome in
            transferFinished(outcome, parse: parse, endpoint: endpoint, url: request.redactedURL)
        }
        let cancelled = state.withLock { s -> Bool in
            if !s.cancelled { s.transfer = transfer }
            return s.cancelled
        }
        if cancelled {
            complete(.failure(FlickrError(.aborted, "the request was cancelled")))
            return
        }
        try context.engine.submit(transfer)
    }

    /// Runs on the engine's thread.
    private func transferFinished(
        _ outcome: Result<HTTPOutcome, FlickrError>, parse: StreamingParse?, endpoint: String, url: String
    ) {
        let body = state.withLock { s -> [UInt8] in
            defer { s.transfer = nil }
            return s.transfer?.body ?? []
        }
        switch outcome {
        case .failure(let error):
            complete(.failure(error))
        case .success(let http):
            if (300..<400).contains(http.status), let location = http.location {
                follow(location, from: endpoint, status: http.status)
                return
            }
            complete(operation.interpret(status: http.status, body: body, parsed: parse?.finish(), url: url))
        }
    }

    /// Follows a redirect only to the same scheme, host and port: anything
    /// else could leak the signed request or downgrade https to http.
    private func follow(_ location: String, from endpoint: String, status: Int) {
        do throws(FlickrError) {
            let origin = try EndpointURL(parsing: endpoint, what: "the endpoint")
            let target = location.hasPrefix("/")
                ? "\(origin.scheme)://\(origin.host)\(origin.port.map { ":\($0)" } ?? "")\(location)"
                : location
            guard let next = try? EndpointURL(parsing: target, what: "the redirect"),
                next.scheme == origin.scheme, next.host == origin.host, next.effectivePort == origin.effectivePort
            else {
                throw FlickrError(.http, "refused to follow a redirect (HTTP \(status)) away from "
                                  + "\(origin.scheme)://\(origin.host): only same-origin redirects are followed",
                                  httpStatus: Int32(status))
            }
            let count = state.withLock { s -> Int in
                s.redirects += 1
                return s.redirects
            }
            guard count <= Request.maxRedirects else {
                throw FlickrError(.http, "too many redirects", httpStatus: Int32(status))
            }
            var newEndpoint = target
            if let mark = newEndpoint.firstIndex(of: "?") { newEndpoint = String(newEndpoint[..<mark]) }
            try attempt(endpoint: newEndpoint)
        } catch {
            complete(.failure(error))
        }
    }

    private func complete(_ result: Result<Response, FlickrError>) {
        let first = state.withLock { s -> Bool in
            guard s.result == nil else { return false }
            s.result = result
            s.transfer = nil
            return true
        }
        guard first else { return }
        onComplete?(self)
        done.open()
    }
}
