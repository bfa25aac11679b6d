// SPDX-License-Identifier: MIT


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
        var retries = 0
        /// The last attempt's verb and URL without query, for the log.
        var lastAttempt = ""
    }

    static let maxRedirects = 5

    private let context: Context  // kept alive while the request lives
    /// The context's engine when the request started (in a child of a fork, the parent's stays theirs).
    private let engine: Engine
    private let operation: any Operation
    private let settings: Settings
    private let onComplete: Completion?
    private let state = Locked(State())
    private let done = Latch()
    private let retryPolicy: RetryPolicy
    private let startedNs: UInt64
    /// When the call must be over, every attempt, back-off and rate-limit wait included
    /// (FLICKR_OPT_TIMEOUT_MS from the start); 0 when unlimited or the operation keeps its own clocks.
    private let deadlineNs: UInt64
    /// Synchronous: every attempt runs on the calling thread (no handoff to the worker).
    private let inline: Bool

    /// `startedNs`: when the call began, if before this request (a fetch that first waited for its cache entry).
    init(context: Context, settings: Settings, engine: Engine, operation: any Operation, onComplete: Completion?,
         inline: Bool = false, startedNs: UInt64 = MonotonicClock.nowNs()) {
        self.context = context
        self.engine = engine
        self.startedNs = startedNs
        self.operation = operation
        self.inline = inline
        self.settings = settings
        self.onComplete = onComplete
        retryPolicy = RetryPolicy(
            settings: settings, idempotent: operation.isIdempotent, resendable: operation.isResendable)
        deadlineNs = operation.hasCallDeadline ? WaitLimit.deadline(startedNs: startedNs, settings: settings) : 0
    }

    /// The outcome once complete, else nil.
    package var result: Result<Response, FlickrError>? {
        state.withLock { $0.result }
    }

    func start() throws(FlickrError) {
        try operation.check(settings)
        if let local = operation.localResult() {
            state.withLock { $0.lastAttempt = "(cache)" }
            if inline {
                complete(local)
            } else {
                try engine.post { [self] in complete(local) }  // done callbacks run on the worker
            }
            return
        }
        try attempt(endpoint: operation.endpoint(settings))
    }

    /// Blocks until complete (and the done callback has returned). On a worker thread (of any
    /// context: two done callbacks waiting for each other's requests would never return) it
    /// cannot block: it answers at once. Synchronous requests run on the caller's thread.
    package func wait() -> Result<Response, FlickrError> {
        // The result is set before the done callback runs: only the latch says the callback has returned.
        if !inline && Engine.isAnyWorkerThread {
            return result
                ?? .failure(FlickrError(.state, "cannot wait for a request from a done callback: it has not completed"))
        }
        done.wait()
        return result ?? .failure(FlickrError(.error, "request finished without a result"))
    }

    /// Waits for the done callback to have run, unless called from a worker thread (any context's).
    package func waitForCallback() {
        if !Engine.isAnyWorkerThread { done.wait() }
    }

    /// Aborts the request; it completes with FLICKR_EABORTED unless already complete.
    package func cancel() {
        let transfer = state.withLock { s -> Transfer? in
            s.cancelled = true
            return s.result == nil ? s.transfer : nil
        }
        if let transfer { engine.cancel(transfer) }
    }

    // MARK: Attempts

    private func attempt(endpoint: String, notBefore: UInt64 = 0) throws(FlickrError) {
        let request = try operation.httpRequest(endpoint: endpoint, settings: settings)
        // The key's budget or the image host's back-off, shared beyond this context: a slot is taken now.
        let limitStart = try operation.limit.start(settings: settings, url: endpoint, within: waitLimit)
        // Only a caller's own thread may be asked; async requests are stopped by cancel.
        let interrupt = inline ? settings.interrupt : nil
        let parse = operation.parsesXML ? StreamingParse() : nil
        // Without the body (FLICKR_OPT_KEEP_BODY 0) a failure still has its first bytes for its message.
        var keptBodyBytes = operation.keptBodyBytes
        if operation.answerIsItsTree, settings.number(.keepBody) == 0 {
            keptBodyBytes = min(keptBodyBytes, ResponseBody.failurePrefixBytes)
        }
        var sink: ((UnsafeRawBufferPointer) throws(FlickrError) -> Void)?
        if let parse {
            sink = { parse.feed($0) }
        } else if let destination = try operation.bodySink() {
            sink = destination.write
        }
        let engine = engine
        var recycle: (@Sendable (UnsafeMutableRawPointer, EasySetup?) -> Void)?
        var pooled: (easy: UnsafeMutableRawPointer, warm: Bool)?
        if inline {
            recycle = { easy, setup in engine.recycle(easy, setup: setup) }
            pooled = engine.takeEasyHandle(for: request)
        }
        let shownURL = request.redactedURL
        let transfer = try Transfer(
            request: request, sink: sink, keptBodyBytes: keptBodyBytes, deadlineNs: deadlineNs,
            interrupt: interrupt, easy: pooled?.easy, warm: pooled?.warm ?? false, recycle: recycle
        ) { [self, url = shownURL, verb = request.verb] _, outcome in
            transferFinished(outcome, parse: parse, endpoint: endpoint, url: url, verb: verb)
        }
        let cancelled = state.withLock { s -> Bool in
            if !s.cancelled {
                s.transfer = transfer
                s.lastAttempt = "\(request.verb.rawValue) \(shownURL)"
            }
            return s.cancelled
        }
        if cancelled {
            complete(.failure(FlickrError(.aborted, "the request was cancelled")))
            return
        }
        let schedule = Engine.Schedule(notBefore: max(notBefore, limitStart), spacingNs: settings.rateSpacingNs, deadlineNs: deadlineNs,
                                       maxConnections: settings.number(.maxConnections))
        if inline {
            engine.perform(transfer, schedule)
            return
        }
        do {
            try engine.submit(transfer, schedule)
        } catch {
            // Never started: let go of it, or it and this request would keep each other alive.
            state.withLock { $0.transfer = nil }
            throw error
        }
    }

    /// Runs on the thread that ran the transfer: the caller's (synchronous) or the worker (asynchronous).
    private func transferFinished(
        _ outcome: Result<HTTPOutcome, FlickrError>, parse: StreamingParse?, endpoint: String, url: String,
        verb: HTTPRequest.Verb
    ) {
        let body = state.withLock { s -> ResponseBody in
            defer { s.transfer = nil }
            return s.transfer?.body ?? ResponseBody()
        }
        switch outcome {
        case .failure(let error):
            finishOrRetry(.failure(operation.describeFailure(error)), retryAfterSeconds: nil, endpoint: endpoint)
        case .success(let http):
            if http.status == 429 {
                operation.limit.overLimit(
                    settings: settings, url: endpoint, retryAfterSeconds: http.retryAfterSeconds, within: waitLimit)
            }
            if (300..<400).contains(http.status), let location = http.location {
                follow(location, from: endpoint, status: http.status, verb: verb)
                return
            }
            let interpreted = operation.interpret(
                status: http.status, body: body, parsed: parse?.finish(), url: url, within: waitLimit)
            finishOrRetry(interpreted, retryAfterSeconds: http.retryAfterSeconds, endpoint: endpoint)
        }
    }

    /// What ends a wait of `interpret` (the photo cache's lock): the call's deadline, and the interrupt
    /// callback (synchronous) or a cancel (asynchronous: the worker must not wait on regardless).
    private var waitLimit: WaitLimit {
        WaitLimit(deadlineNs: deadlineNs, interrupt: inline ? settings.interrupt : nil,
                  isCancelled: { [self] in state.withLock { $0.cancelled } })
    }

    /// Completes, or tries again after a passing failure as the retry policy allows.
    private func finishOrRetry(
        _ result: Result<Response, FlickrError>, retryAfterSeconds: Int?, endpoint: String
    ) {
        guard case .failure(let error) = result else {
            complete(result)
            return
        }
        let plan = state.withLock { s -> (retry: Int, delayMs: Int, attempt: String)? in
            guard !s.cancelled,
                let delay = retryPolicy.delayMs(for: error, retry: s.retries + 1, retryAfterSeconds: retryAfterSeconds)
            else { return nil }
            s.retries += 1
            return (s.retries, delay, s.lastAttempt)
        }
        guard let plan else {
            complete(result)
            return
        }
        let notBefore = MonotonicClock.nowNs().addingSaturated(.nanoseconds(milliseconds: plan.delayMs))
        if deadlineNs != 0, notBefore >= deadlineNs {
            // Waiting would spend the rest of the call's time: report the failure now.
            settings.log?.write("no retry of \(operation.logLabel) \(plan.attempt) after \(Request.describe(error)):"
                                + " a wait of \(plan.delayMs) ms would pass the call's time limit")
            complete(result)
            return
        }
        settings.log?.write(
            "retry \(plan.retry)/\(retryPolicy.maxRetries) of \(operation.logLabel) \(plan.attempt) in \(plan.delayMs) ms"
                + " after \(Request.describe(error))")
        do throws(FlickrError) {
            try attempt(endpoint: endpoint, notBefore: notBefore)
        } catch {
            complete(.failure(error))
        }
    }

    /// A short outcome for log lines: the HTTP status or the error's class and code.
    static func describe(_ error: FlickrError) -> String {
        var text = error.code.symbol.description
        if error.httpStatus != 0 { text += " (HTTP \(error.httpStatus))" }
        if error.apiCode != 0 { text += " (Flickr error \(error.apiCode))" }
        return text
    }

    /// Follows a redirect only to the same scheme, host and port: anything
    /// else could leak the signed request or downgrade https to http.
    /// Never sends a request twice where that could act twice: a 303 answers a POST that the
    /// server has already acted on, and a stream's bytes are gone once sent.
    private func follow(_ location: String, from endpoint: String, status: Int, verb: HTTPRequest.Verb) {
        do throws(FlickrError) {
            if status == 303 && verb == .post {
                throw FlickrError(.http, "the server answered the POST with HTTP 303 See Other: it was not sent again",
                                  httpStatus: 303)
            }
            guard operation.isResendable else {
                throw FlickrError(.http, "the server redirected the upload (HTTP \(status)); a stream cannot be "
                                  + "sent twice: upload a file or a buffer to follow redirects", httpStatus: Int32(clamping: status))
            }
            let origin = try EndpointURL(parsing: endpoint, what: "the endpoint")
            let target = location.hasPrefix("/")
                ? "\(origin.scheme)://\(origin.host)\(origin.port.map { ":\($0)" } ?? "")\(location)"
                : location
            guard let next = try? EndpointURL(parsing: target, what: "the redirect"),
                next.scheme == origin.scheme, next.host == origin.host, next.effectivePort == origin.effectivePort
            else {
                throw FlickrError(.http, "refused to follow a redirect (HTTP \(status)) away from "
                                  + "\(origin.scheme)://\(origin.host): only same-origin redirects are followed",
                                  httpStatus: Int32(clamping: status))
            }
            let count = state.withLock { s -> Int in
                s.redirects += 1
                return s.redirects
            }
            guard count <= Request.maxRedirects else {
                throw FlickrError(.http, "too many redirects", httpStatus: Int32(clamping: status))
            }
            var newEndpoint = target
            if let mark = newEndpoint.firstIndex(of: "?") { newEndpoint = String(newEndpoint[..<mark]) }
            try attempt(endpoint: newEndpoint)
        } catch {
            complete(.failure(error))
        }
    }

    // MARK: fork() (ForkGuard; the C layer reaches each live request through its handle)

    /// How the requests that were in flight at the fork end in the child.
    package static let inFlightAtFork = FlickrError(
        .state, "the request was in flight when the process forked: it belongs to the parent process, and ends"
            + " in the child without an answer (start it again in the child)")

    package func lockForFork() {
        state.lockForFork()
        done.lockForFork()
    }

    package func unlockAfterForkInParent() {
        done.unlockAfterForkInParent()
        state.unlockAfterFork()
    }

    /// In the child, once unlocked: a request that had not ended belongs to the parent; it ends here
    /// with Request.inFlightAtFork, without its done callback (one running at the fork, on the
    /// parent's worker, counts as returned). Its transfer's curl handle is on the parent's
    /// connection: left as it is. True when it ended so (the caller records the error).
    package func unlockAfterForkInChild() -> Bool {
        done.unlockAfterForkInChild()
        state.unlockAfterFork()
        let (ended, transfer) = state.withLock { s -> (Bool, Transfer?) in
            defer { s.transfer = nil }
            guard s.result == nil else { return (false, s.transfer) }
            s.result = .failure(Request.inFlightAtFork)
            return (true, s.transfer)
        }
        transfer?.abandon()
        done.open()
        return ended
    }

    private func complete(_ result: Result<Response, FlickrError>) {
        let first = state.withLock { s -> (retries: Int, attempt: String)? in
            guard s.result == nil else { return nil }
            s.result = result
            s.transfer = nil
            return (s.retries, s.lastAttempt)
        }
        guard let first else { return }
        operation.ended()
        if let log = settings.log {
            let outcome: String
            switch result {
            case .success(let response):
                outcome = response.httpStatus == 0 ? "answered locally" : "HTTP \(response.httpStatus)"
            case .failure(let error): outcome = Request.describe(error)
            }
            let ms = (MonotonicClock.nowNs() &- startedNs) / 1_000_000
            log.write("\(operation.logLabel) \(first.attempt) -> \(outcome) in \(ms) ms, \(first.retries) retries")
        }
        onComplete?(self)
        done.open()
    }
}
