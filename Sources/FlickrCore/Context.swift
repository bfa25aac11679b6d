// SPDX-License-Identifier: MIT


/// What `flickr_context` points to: the settings behind a lock, shared by
/// every thread and request that uses the context.
package final class Context: Sendable {
    private let settings: Locked<Settings>
    /// The connection pools, and the worker thread of asynchronous requests.
    let engine: Engine

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    package convenience init(apiKey: String, sharedSecret: String?) throws(FlickrError) {
        let settings = try Settings(apiKey: apiKey, sharedSecret: sharedSecret)
        self.init(settings: settings, engine: try Engine())
    }

    private init(settings: Settings, engine: Engine) {
        self.settings = Locked(settings)
        self.engine = engine
    }

    deinit {
        engine.shutdown()
    }

    /// A consistent copy of the settings, taken when a request starts.
    package var snapshot: Settings {
        settings.withLock { $0 }
    }

    package func set(_ option: ContextOption, string value: String?) throws(FlickrError) {
        try settings.withLock { (s: inout Settings) throws(FlickrError) in try s.set(option, string: value) }
    }

    package func setLog(_ sink: LogSink?) {
        settings.withLock { $0.log = sink }
    }

    package func setInterrupt(_ check: InterruptCheck?) {
        settings.withLock { $0.interrupt = check }
    }

    package func set(_ option: ContextOption, number value: Int) throws(FlickrError) {
        try settings.withLock { (s: inout Settings) throws(FlickrError) in try s.set(option, number: value) }
    }
}

extension Context {
    /// True on this context's worker thread, where done callbacks (and async requests' progress callbacks) run.
    package var isOnWorkerThread: Bool { engine.isWorkerThread }

    /// Runs an operation (a call, a token request, an upload) and waits for the answer; its time
    /// limit counts from `startedNs`.
    package func perform(_ operation: any Operation, startedNs: UInt64 = Engine.nowNs())
        throws(FlickrError) -> Response
    {
        try refuseOnWorkerThread()
        let request = Request(context: self, operation: operation, onComplete: nil, inline: true, startedNs: startedNs)
        try request.start()
        return try request.wait().get()
    }

    /// A synchronous call from a done callback of this context would wait for the worker it blocks.
    func refuseOnWorkerThread() throws(FlickrError) {
        if engine.isWorkerThread {
            throw FlickrError(.state, "synchronous calls cannot be made from a done callback; use flickr_call_async")
        }
    }

    /// Starts an operation; `onComplete` runs once on the engine's thread when it ends.
    package func start(_ operation: any Operation, onComplete: Request.Completion?) throws(FlickrError) -> Request {
        let request = Request(context: self, operation: operation, onComplete: onComplete)
        try request.start()
        return request
    }
}
