// SPDX-License-Identifier: MIT

import CCurl
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A context's HTTP engine: one curl multi handle driven by one worker thread.
///
/// Every transfer of the context, synchronous or not, runs here, so the
/// context has a single pool of kept-alive connections and many requests can
/// be in flight at once. Other threads only hand transfers over (under a lock)
/// and wake the worker; only the worker touches curl handles.
final class Engine: @unchecked Sendable {
    private struct Shared {
        var pending: [Transfer] = []
        var cancelled: [Transfer] = []
        var threadRunning = false
        var shuttingDown = false
        var worker: pthread_t?
    }

    private let shared = Mutex(Shared())
    private let multi: UnsafeMutableRawPointer
    /// Worker-only: transfers attached to the multi handle, by easy handle.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    init() throws(FlickrError) {
        try CurlGlobal.ensure()
        guard let multi = curl_multi_init() else { throw FlickrError(.noMemory, "curl_multi_init failed") }
        self.multi = multi
    }

    deinit {
        // The worker holds a reference while it runs, so it has exited by now.
        curl_multi_cleanup(multi)
    }

    /// True on the engine's worker thread (where done callbacks run).
    var isWorkerThread: Bool {
        shared.withLock { state in
            guard let worker = state.worker else { return false }
            return pthread_equal(worker, pthread_self()) != 0
        }
    }

    /// Hands a transfer to the worker; its completion will run on the worker thread.
    func submit(_ transfer: Transfer) throws(FlickrError) {
        let start = shared.withLock { state -> Bool in
            state.pending.append(transfer)
            if state.threadRunning { return false }
            state.threadRunning = true
            return true
        }
        if start {
            try startThread()
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Stops a transfer; it completes with FLICKR_EABORTED unless it already finished.
    func cancel(_ transfer: Transfer) {
        shared.withLock { $0.cancelled.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Lets the worker exit once nothing is left to do (the context is gone).
    func shutdown() {
        shared.withLock { $0.shuttingDown = true }
        curl_multi_wakeup(multi)
    }

    private func startThread() throws(FlickrError) {
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
                defer { state.pending.removeAll() }
                return state.pending
            }
            let error = FlickrError(.error, "could not start the worker thread (pthread_create: \(status))")
            for transfer in orphans { transfer.finish(with: error) }
            throw error
        }
        pthread_detach(thread)
    }

    // MARK: Worker

    private func run() {
        shared.withLock { $0.worker = pthread_self() }
        while true {
            let (incoming, cancels, exit) = shared.withLock { state -> ([Transfer], [Transfer], Bool) in
                let work = (state.pending, state.cancelled)
                state.pending.removeAll()
                state.cancelled.removeAll()
                let exit = state.shuttingDown && work.0.isEmpty && active.isEmpty
                if exit {
                    state.threadRunning = false
                    state.worker = nil
                }
                return (work.0, work.1, exit)
            }
            if exit { return }
            for transfer in incoming { attach(transfer) }
            for transfer in cancels { abort(transfer) }

            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            drainMessages()
            if active.isEmpty {
                // Nothing in flight: sleep until woken by submit/cancel/shutdown.
                curl_multi_poll(multi, nil, 0, 60_000, nil)
            } else {
                curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }
    }

    private func attach(_ transfer: Transfer) {
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
        transfer.finish(with: FlickrError(.aborted, "the request was cancelled"))
    }

    private func drainMessages() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            if let transfer = active.removeValue(forKey: easy) {
                transfer.finish(curlCode: code)
            }
        }
    }
}
