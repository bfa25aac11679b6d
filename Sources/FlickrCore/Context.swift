// SPDX-License-Identifier: MIT


/// What `flickr_context` points to: the settings behind a lock, shared by
/// every thread and request that uses the context.
package final class Context: Sendable {
    private struct Shared {
        var settings: Settings
        /// The connection pools, and the worker thread of asynchronous requests.
        var engine: Engine
        /// ForkGeneration.current when `engine` was made: another one means this is a child of a
        /// fork, and the engine is the parent's.
        var generation: UInt64
    }

    private let shared: Locked<Shared>

    /// Every live context, by address, for the fork handlers (ForkGuard).
    private static let live = Locked<Set<UInt>>([])

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    package convenience init(apiKey: String, sharedSecret: String?) throws(FlickrError) {
        let settings = try Settings(apiKey: apiKey, sharedSecret: sharedSecret)
        self.init(settings: settings, engine: try Engine())
    }

    private init(settings: Settings, engine: Engine) {
        self.shared = Locked(Shared(settings: settings, engine: engine, generation: ForkGeneration.current))
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        _ = Context.live.withLock { $0.insert(address) }
    }

    deinit {
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        _ = Context.live.withLock { $0.remove(address) }
        let (engine, ours) = shared.withLock { ($0.engine, $0.generation == ForkGeneration.current) }
        if ours {
            engine.shutdown()
        } else {
            engine.abandon()  // the parent's worker does not exist here to be stopped
        }
    }

    /// A consistent copy of the settings, taken when a request starts.
    package var snapshot: Settings {
        shared.withLock { $0.settings }
    }

    /// The settings and the engine for a request starting now. The first request in the child of a
    /// fork makes the context a new engine (its own connections and worker); the parent's is leaked.
    func session() throws(FlickrError) -> (Settings, Engine) {
        try shared.withLock { (s: inout Shared) throws(FlickrError) -> (Settings, Engine) in
            if s.generation != ForkGeneration.current {
                let fresh = try Engine()
                s.engine.abandon()
                s.engine = fresh
                s.generation = ForkGeneration.current
            }
            return (s.settings, s.engine)
        }
    }

    package func set(_ option: ContextOption, string value: String?) throws(FlickrError) {
        try shared.withLock { (s: inout Shared) throws(FlickrError) in try s.settings.set(option, string: value) }
    }

    package func setLog(_ sink: LogSink?) {
        shared.withLock { $0.settings.log = sink }
    }

    package func setInterrupt(_ check: InterruptCheck?) {
        shared.withLock { $0.settings.interrupt = check }
    }

    package func set(_ option: ContextOption, number value: Int64) throws(FlickrError) {
        try shared.withLock { (s: inout Shared) throws(FlickrError) in try s.settings.set(option, number: value) }
    }

    // fork() (ForkGuard): the list, then each context, are held across the fork.

    static func lockAllForFork() {
        live.lockForFork()
        forEachListed { $0.shared.lockForFork() }
    }

    static func unlockAllAfterFork() {
        forEachListed { $0.shared.unlockAfterFork() }
        live.unlockAfterFork()
    }

    /// The listed contexts, without retaining them: one may be in its deinit, waiting for the list's
    /// lock to unlist itself (its properties are whole until then).
    private static func forEachListed(_ body: (Context) -> Void) {
        live.peekLockedForFork { addresses in
            for address in addresses {
                guard let raw = UnsafeRawPointer(bitPattern: address) else { continue }
                Unmanaged<Context>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
            }
        }
    }
}

extension Context {
    /// True on this context's worker thread, where done callbacks (and async requests' progress callbacks) run.
    package var isOnWorkerThread: Bool { shared.withLock { $0.generation == ForkGeneration.current && $0.engine.isWorkerThread } }

    /// Runs an operation (a call, a token request, an upload) and waits for the answer; its time
    /// limit counts from `startedNs`.
    package func perform(_ operation: any Operation, startedNs: UInt64 = MonotonicClock.nowNs())
        throws(FlickrError) -> Response
    {
        let (settings, engine) = try session()
        if engine.isWorkerThread { throw Self.syncCallFromDoneCallback }
        let request = Request(context: self, settings: settings, engine: engine, operation: operation, onComplete: nil,
                              inline: true, startedNs: startedNs)
        try request.start()
        return try request.wait().get()
    }

    /// A synchronous call from a done callback of this context would wait for the worker it blocks.
    func refuseOnWorkerThread() throws(FlickrError) {
        if isOnWorkerThread { throw Self.syncCallFromDoneCallback }
    }

    private static var syncCallFromDoneCallback: FlickrError {
        FlickrError(.state, "synchronous calls cannot be made from a done callback; use flickr_call_async")
    }

    /// Starts an operation; `onComplete` runs once on the engine's thread when it ends.
    package func start(_ operation: any Operation, onComplete: Request.Completion?) throws(FlickrError) -> Request {
        let (settings, engine) = try session()
        let request = Request(context: self, settings: settings, engine: engine, operation: operation,
                              onComplete: onComplete)
        try request.start()
        return request
    }
}
