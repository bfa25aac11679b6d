// SPDX-License-Identifier: MIT

import CCurl
import CFlickrShims
import Glibc

/// A context's HTTP engine. Asynchronous transfers run on one worker thread that drives
/// one curl multi handle: other threads only hand them over (under a lock) and wake it, so
/// many requests are in flight at once over one pool of kept-alive connections.
/// Synchronous transfers run on their caller's thread (`perform`), over pooled easy and
/// multi handles that keep their connections between calls; they share the rate limiter's
/// start slots with the worker's. docs/threading.md has the whole picture.
final class Engine: @unchecked Sendable {
    private struct Shared {
        var pending: [Transfer] = []
        /// Transfers waiting for their start time (retry back-off, rate limiting), by due time.
        var delayed: [(due: UInt64, transfer: Transfer)] = []
        /// The rate limiter's next free start slot.
        var nextSlotNs: UInt64 = 0
        /// FLICKR_OPT_MAX_CONNECTIONS as the latest submitted request saw it (the worker applies it).
        var maxConnections = Settings.defaultMaxConnections
        var cancelled: [Transfer] = []
        /// Work to run on the worker without a transfer (async requests answered locally).
        var posted: [@Sendable () -> Void] = []
        var threadRunning = false
        var shuttingDown = false
        var worker: pthread_t?
        /// The worker thread as created (joinable), so shutdown can wait for it.
        var thread: pthread_t?
    }

    private let shared = Locked(Shared())
    private let multi: UnsafeMutableRawPointer
    /// Idle easy handles for synchronous transfers, each with the options its last transfer
    /// left set (nil: unknown). A handle kept between calls keeps its connection alive, so a
    /// thread's sequential calls reuse one connection.
    private let easyPool = Locked<[(handle: UInt, setup: EasySetup?)]>([])
    static let maxPooledHandles = 32
    /// Idle multi handles that drive synchronous transfers on their callers' threads, each with its
    /// cache of kept-alive connections (taken last-in first-out, so a thread's calls find theirs).
    private let multiPool = Locked<[UInt]>([])
    /// Worker-only: transfers attached to the multi handle, by easy handle.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    /// Worker-only: the connection cap last set on the multi handle (0: none yet).
    private var appliedMaxConnections = 0

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    convenience init() throws(FlickrError) {
        try CurlGlobal.ensure()
        guard let multi = curl_multi_init() else { throw FlickrError(.noMemory, "curl_multi_init failed") }
        self.init(multi: multi)
    }

    private init(multi: UnsafeMutableRawPointer) {
        self.multi = multi
    }

    deinit {
        // The worker holds a reference while it runs, so it has exited by now.
        curl_multi_cleanup(multi)
        for entry in easyPool.withLock({ $0 }) {
            curl_easy_cleanup(UnsafeMutableRawPointer(bitPattern: entry.handle))
        }
        for handle in multiPool.withLock({ $0 }) {
            curl_multi_cleanup(UnsafeMutableRawPointer(bitPattern: handle))
        }
    }

    // MARK: Synchronous transfers (on the caller's thread)

    /// An easy handle from the pool for `request`, or nil to make a new one. `warm` when the request
    /// is a plain GET or POST and the handle's last transfer left exactly its `setup` set, so that
    /// only the per-transfer options need setting; otherwise it is reset (options go, the
    /// connection and DNS caches stay). An upload always gets a reset handle: a previous POST's
    /// copied body would otherwise be sent in place of the streamed one.
    func takeEasyHandle(for request: HTTPRequest) -> (easy: UnsafeMutableRawPointer, warm: Bool)? {
        guard let entry = easyPool.withLock({ $0.popLast() }), let easy = UnsafeMutableRawPointer(bitPattern: entry.handle)
        else { return nil }
        if request.upload == nil, entry.setup == request.setup { return (easy, true) }
        curl_easy_reset(easy)
        return (easy, false)
    }

    /// Takes back a synchronous transfer's handle with the options it left set (nil: unknown),
    /// or frees it when the pool is full.
    func recycle(_ easy: UnsafeMutableRawPointer, setup: EasySetup?) {
        let kept = easyPool.withLock { pool -> Bool in
            guard pool.count < Engine.maxPooledHandles else { return false }
            pool.append((UInt(bitPattern: easy), setup))
            return true
        }
        if !kept { curl_easy_cleanup(easy) }
    }

    /// When a transfer may start, and by when its call must be over.
    struct Schedule {
        /// Not before this (monotonic ns): a retry's back-off.
        var notBefore: UInt64 = 0
        /// Under a rate limit, at least this long after the context's previous start (0: no limit).
        var spacingNs: UInt64 = 0
        /// The call's deadline, or 0: a start slot past it is not taken, the call times out at once.
        var deadlineNs: UInt64 = 0
        /// The context's cap on connections of submitted transfers (curl queues the rest).
        var maxConnections = Settings.defaultMaxConnections
    }

    /// Runs a transfer to completion on the calling thread, after waiting for its
    /// start time and rate-limit slot like a submitted one; its completion runs here too.
    /// No thread switch: this is what keeps a synchronous call's cost near libcurl's own.
    func perform(_ transfer: Transfer, _ schedule: Schedule = Schedule()) {
        let now = MonotonicClock.nowNs()
        let reserved = shared.withLock { Engine.reserveStart(&$0, now: now, schedule) }
        guard case .success(let due) = reserved else {
            if case .failure(let error) = reserved { transfer.finish(with: error) }
            return
        }
        if due > now, !InterruptCheck.sleep(ns: due - now, checking: transfer.interrupt) {
            transfer.finish(with: InterruptCheck.interrupted)
            return
        }
        guard transfer.arm(now: MonotonicClock.nowNs()) else {
            transfer.finish(with: Engine.outOfTime)
            return
        }
        drive(transfer)
    }

    /// What curl_easy_perform does, with a wait of our choosing between rounds: at most
    /// InterruptCheck.intervalNs when the caller may stop the call, so that it is asked that often
    /// even while the server says nothing (curl would sleep up to a second).
    private func drive(_ transfer: Transfer) {
        let taken = multiPool.withLock { $0.popLast() }.flatMap { UnsafeMutableRawPointer(bitPattern: $0) }
        guard let multi = taken ?? curl_multi_init() else {
            transfer.finish(with: FlickrError(.noMemory, "curl_multi_init failed"))
            return
        }
        defer { giveBack(multi) }
        let added = curl_multi_add_handle(multi, transfer.easy)
        guard added == CURLM_OK else {
            transfer.finish(with: FlickrError(.error, "curl_multi_add_handle failed: \(String(cString: curl_multi_strerror(added)))"))
            return
        }
        let waitMs: Int32 = transfer.interrupt == nil ? 1000 : Int32(InterruptCheck.intervalNs / 1_000_000)
        var lastAskedNs = MonotonicClock.nowNs()
        var result: CURLcode?
        while result == nil {
            var running: Int32 = 0
            let code = curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                if message.pointee.msg == CURLMSG_DONE { result = message.pointee.data.result }
            }
            if result == nil, code != CURLM_OK || running == 0 { result = CURLE_RECV_ERROR }  // never expected
            guard result == nil else { break }
            if let interrupt = transfer.interrupt, MonotonicClock.nowNs() &- lastAskedNs >= InterruptCheck.intervalNs {
                lastAskedNs = MonotonicClock.nowNs()
                if interrupt.shouldStop() {
                    curl_multi_remove_handle(multi, transfer.easy)
                    transfer.finish(with: transfer.stoppedError(InterruptCheck.interrupted, how: "interrupted"))
                    return
                }
            }
            curl_multi_poll(multi, nil, 0, waitMs, nil)
        }
        curl_multi_remove_handle(multi, transfer.easy)
        transfer.finish(curlCode: result ?? CURLE_RECV_ERROR)
    }

    private func giveBack(_ multi: UnsafeMutableRawPointer) {
        let kept = multiPool.withLock { pool -> Bool in
            guard pool.count < Engine.maxPooledHandles else { return false }
            pool.append(UInt(bitPattern: multi))
            return true
        }
        if !kept { curl_multi_cleanup(multi) }
    }

    static let outOfTime = FlickrError(.timeout, "the call's time limit (FLICKR_OPT_TIMEOUT_MS) passed before it could start")

    /// When a transfer may start: not before `notBefore` and, under a rate limit, at the
    /// context's next free slot, which it takes. Shared by submitted and synchronous transfers.
    /// A start past the call's deadline takes no slot: the call fails at once instead of
    /// sleeping for nothing (an hour, at one call an hour).
    private static func reserveStart(_ state: inout Shared, now: UInt64, _ schedule: Schedule)
        -> Result<UInt64, FlickrError>
    {
        var due = max(now, schedule.notBefore)
        if schedule.spacingNs > 0 { due = max(due, state.nextSlotNs) }
        if schedule.deadlineNs != 0, due >= schedule.deadlineNs {
            let waitMs = (due - now) / 1_000_000
            return .failure(FlickrError(
                .timeout, "the rate limit allows the next request in \(waitMs) ms, after the call's time limit"
                    + " (FLICKR_OPT_TIMEOUT_MS)"))
        }
        if schedule.spacingNs > 0 { state.nextSlotNs = due.addingSaturated(schedule.spacingNs) }
        return .success(due)
    }

    /// Marks every context's worker thread, so that waits which could close a cycle between two
    /// contexts (each done callback waiting for the other's request) are never entered.
    private static let workerKey: pthread_key_t? = {
        var key = pthread_key_t()
        return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    /// True on any context's worker thread.
    static var isAnyWorkerThread: Bool {
        guard let key = workerKey else { return false }
        return pthread_getspecific(key) != nil
    }

    /// True on the engine's worker thread (where done callbacks run).
    var isWorkerThread: Bool {
        shared.withLock { state in
            guard let worker = state.worker else { return false }
            return pthread_equal(worker, pthread_self()) != 0
        }
    }

    /// Hands a transfer to the worker; its completion will run on the worker thread.
    /// It starts no earlier than `notBefore` (monotonic ns) and, with a rate limit
    /// (`spacingNs` > 0), no sooner than `spacingNs` after the context's previous start.
    func submit(_ transfer: Transfer, _ schedule: Schedule = Schedule()) throws(FlickrError) {
        let now = MonotonicClock.nowNs()
        let start = try shared.withLock { (state: inout Shared) throws(FlickrError) -> Bool in
            let due = try Engine.reserveStart(&state, now: now, schedule).get()
            state.maxConnections = schedule.maxConnections
            if due > now {
                // After every transfer due no later: the order a stable sort by `due` gave.
                let slot = state.delayed.firstIndex { $0.due > due } ?? state.delayed.endIndex
                state.delayed.insert((due, transfer), at: slot)
            } else {
                state.pending.append(transfer)
            }
            return Engine.claimThread(&state)
        }
        try wake(startingThread: start, submitting: transfer)
    }

    /// Runs `work` on the worker thread, as if a transfer had completed: how a request
    /// answered without the network (a cached photo) still calls back on that thread.
    func post(_ work: @escaping @Sendable () -> Void) throws(FlickrError) {
        let start = shared.withLock { state -> Bool in
            state.posted.append(work)
            return Engine.claimThread(&state)
        }
        try wake(startingThread: start)
    }

    /// True when the caller must start the worker (none is running).
    private static func claimThread(_ state: inout Shared) -> Bool {
        if state.threadRunning { return false }
        state.threadRunning = true
        return true
    }

    /// `submitting`: the transfer whose submission this is; if the thread cannot start, the
    /// caller's error reports it, so it is not also completed (its done callback never runs).
    private func wake(startingThread start: Bool, submitting: Transfer? = nil) throws(FlickrError) {
        if start {
            try startThread(submitting: submitting)
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Stops a transfer; it completes with FLICKR_EABORTED unless it already finished.
    func cancel(_ transfer: Transfer) {
        shared.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// In the child of a fork, for the parent's engine: its worker thread does not exist here and its
    /// connections are the parent's sockets, so it is never touched again, nor freed (curl's cleanup
    /// could write a TLS close_notify on them). Kept in a list, for the child's life.
    func abandon() {
        Engine.abandoned.withLock { $0.append(self) }
    }

    private static let abandoned = Locked<[Engine]>([])

    static func lockAbandonedForFork() { abandoned.lockForFork() }
    static func unlockAbandonedAfterFork() { abandoned.unlockAfterFork() }

    /// Stops the worker (the context is gone, so no request is left) and waits for
    /// it to exit, so that its sockets and TLS state are gone when this returns —
    /// unless called on the worker itself (a context freed from a done callback),
    /// which then finishes on its own.
    func shutdown() {
        let (thread, onWorker) = shared.withLock { state -> (pthread_t?, Bool) in
            state.shuttingDown = true
            defer { state.thread = nil }
            return (state.thread, state.thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false)
        }
        curl_multi_wakeup(multi)
        guard let thread else { return }
        if onWorker {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    private func startThread(submitting: Transfer?) throws(FlickrError) {
        var thread = pthread_t()
        let retained = Unmanaged.passRetained(self).toOpaque()
        let status = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Engine>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, retained)
        guard status == 0 else {
            Unmanaged<Engine>.fromOpaque(retained).release()
            let orphans = shared.withLock { state -> [Transfer] in
                state.threadRunning = false
                state.posted.removeAll()  // their requests fail to start: the caller gets the error
                state.delayed.removeAll { $0.transfer === submitting }
                defer { state.pending.removeAll() }
                return state.pending
            }
            let error = FlickrError(.error, "could not start the worker thread (pthread_create: \(status))")
            for transfer in orphans where transfer !== submitting { transfer.finish(with: error) }
            throw error
        }
        // Joinable: shutdown() waits for it. A thread that ended before (only after a
        // shutdown, which took it) leaves nothing behind to join.
        shared.withLock { $0.thread = thread }
    }

    // MARK: Worker

    private func run() {
        shared.withLock { $0.worker = pthread_self() }
        if let key = Engine.workerKey { pthread_setspecific(key, UnsafeRawPointer(bitPattern: 1)) }
        let generation = ForkGeneration.current
        while true {
            // A done callback forked, and this is the child: the loop's transfers and connections
            // are the parent's. The thread ends (the child with it, this being its only thread).
            if ForkGeneration.current != generation { return }
            let now = MonotonicClock.nowNs()
            let (incoming, cancels, posted, exit, nextDue, maxConnections) = shared.withLock {
                state -> ([Transfer], [Transfer], [@Sendable () -> Void], Bool, UInt64?, Int) in
                let dueCount = state.delayed.prefix { $0.due <= now }.count
                var ready = state.pending
                ready.append(contentsOf: state.delayed.prefix(dueCount).map { $0.transfer })
                state.delayed.removeFirst(dueCount)
                // A cancelled transfer still waiting for its start is dropped from the
                // queue; abort() below completes it (outside the lock) without starting it.
                let cancels = state.cancelled
                state.delayed.removeAll { entry in cancels.contains { $0 === entry.transfer } }
                state.pending.removeAll()
                state.cancelled.removeAll()
                let posted = state.posted
                state.posted.removeAll()
                let work = (ready, cancels)
                let exit = state.shuttingDown && work.0.isEmpty && posted.isEmpty && active.isEmpty
                    && state.delayed.isEmpty
                if exit {
                    state.threadRunning = false
                    state.worker = nil
                }
                return (work.0, work.1, posted, exit, state.delayed.first?.due, state.maxConnections)
            }
            if exit { return }
            if maxConnections != appliedMaxConnections {
                // Transfers past the cap wait in curl's queue instead of each opening a socket.
                _ = flickr__multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, maxConnections)
                // And the idle connections are kept up to the same cap: curl's default keeps only four
                // per transfer in progress, so a burst that drains to one transfer closed the rest and
                // the next burst reconnected (test_connections.py saw 9 connections for 8 in flight).
                _ = flickr__multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, maxConnections)
                appliedMaxConnections = maxConnections
            }
            for work in posted { work() }
            for transfer in incoming { attach(transfer) }
            for transfer in cancels { abort(transfer) }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainMessages()
            // Sleep until curl has work, a delayed transfer is due, or submit/cancel/shutdown wakes us.
            var timeoutMs: Int32 = active.isEmpty ? 60_000 : 1000
            if let nextDue {
                let now = MonotonicClock.nowNs()  // read once: a second read past nextDue made the difference negative (a trap)
                let wait = nextDue > now ? (nextDue - now) / 1_000_000 + 1 : 0
                timeoutMs = min(timeoutMs, Int32(clamping: wait))
            }
            curl_multi_poll(multi, nil, 0, timeoutMs, nil)
        }
    }

    private func attach(_ transfer: Transfer) {
        guard transfer.arm(now: MonotonicClock.nowNs()) else {
            transfer.finish(with: Engine.outOfTime)
            return
        }
        let code = curl_multi_add_handle(multi, transfer.easy)
        guard code == CURLM_OK else {
            let reason = String(cString: curl_multi_strerror(code))
            transfer.finish(with: FlickrError(.error, "curl_multi_add_handle failed: \(reason)"))
            return
        }
        active[transfer.easy] = transfer
    }

    private func abort(_ transfer: Transfer) {
        if active.removeValue(forKey: transfer.easy) != nil {
            curl_multi_remove_handle(multi, transfer.easy)
        }
        // Completes at most once: a transfer that already finished ignores this.
        transfer.finish(with: transfer.stoppedError(FlickrError(.aborted, "the request was cancelled"), how: "cancelled"))
    }

    private func drainMessages() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            if let transfer = active.removeValue(forKey: easy) {
                let generation = ForkGeneration.current
                transfer.finish(curlCode: code)
                if ForkGeneration.current != generation { return }  // forked in the done callback: see run()
            }
        }
    }
}
