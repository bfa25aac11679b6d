// SPDX-License-Identifier: MIT

internal import CFlickr
internal import FlickrCore
import Glibc

/// Every live flickr_request.
let requests = HandleRegistry<RequestHandle>(kind: "request")

/// What flickr_request points to: the core request, the caller's done
/// callback, and the request's own error record (requests end on the worker
/// thread, so the thread-local record cannot describe them).
final class RequestHandle: @unchecked Sendable {
    private let done: flickr_done_fn?
    private let userdata: UInt  // the caller's pointer, carried as a number (never dereferenced here)
    private let core = Locked<FlickrCore.Request?>(nil)
    private let record = ErrorRecord.allocate()
    /// Tells this handle from a later one allocated at the same address.
    private let serial: UInt64

    /// The last serial handed out.
    private static let lastSerial = Locked<UInt64>(0)

    init(done: flickr_done_fn?, userdata: UnsafeMutableRawPointer?) {
        self.done = done
        self.userdata = UInt(bitPattern: userdata)
        serial = RequestHandle.nextSerial()
    }

    /// Out of line, so that no error path of `withLock` is left in the initializer: at -Osize
    /// (the module's mode) one was, and a throw there would leak the object in Embedded Swift.
    @inline(never)
    private static func nextSerial() -> UInt64 {
        lastSerial.withLock { last in
            last += 1
            return last
        }
    }

    deinit {
        ErrorRecord.deallocate(record)
    }

    /// Starts the operation; its completion calls the caller back with `pointer` (this handle's C address).
    ///
    /// The completion finds the handle through the registry rather than holding it (the handle
    /// holds the request, and a handle the caller has freed calls nobody back). Embedded Swift,
    /// in which libflickr.so is built, has no weak references; the serial stands in for one.
    func start(context: Context, operation: any Operation, pointer: OpaquePointer) throws(FlickrError) {
        let address = UInt(bitPattern: UnsafeRawPointer(pointer))
        let serial = serial
        let request = try context.start(operation) { core in
            guard let pointer = OpaquePointer(bitPattern: address),
                let handle = try? requests.object(pointer), handle.serial == serial
            else { return }
            handle.completed(core, pointer: pointer)
        }
        core.withLock { $0 = request }
    }

    var request: FlickrCore.Request? { core.withLock { $0 } }

    /// The worker thread's completion: fill the record, then call the caller back.
    func completed(_ request: FlickrCore.Request, pointer: OpaquePointer) {
        let result = request.result
        var status: CInt = 0
        var response: Response?
        switch result {
        case .success(let value)?:
            response = value
        case .failure(let error)?:
            status = error.code.rawValue
            setRecord(error)
        case nil:
            break
        }
        guard let done else { return }
        if let response {
            // Borrowed for the callback: registered so the caller may use the response API on it.
            let handle = responses.register(response)
            _ = CallbackGate.run { done(pointer, status, handle, UnsafeMutableRawPointer(bitPattern: userdata)) }
            responses.release(handle)
        } else {
            _ = CallbackGate.run { done(pointer, status, nil, UnsafeMutableRawPointer(bitPattern: userdata)) }
        }
    }

    private func setRecord(_ error: FlickrError) {
        record.pointee.set(error)
    }

    var errorRecord: UnsafePointer<flickr_error> { UnsafePointer(ErrorRecord.publicRecord(record)) }

    /// FLICKR_EBUDGET's wait in the request's own record (flickr_error_retry_after_ms).
    var retryAfterMs: Int64 { record.pointee.retryAfterMs }

    // fork() (ForkHandlers): the handle's lock, then its request's, are held across the fork.

    func lockForFork() {
        core.lockForFork()
        core.peekLockedForFork { $0 }?.lockForFork()
    }

    func unlockAfterForkInParent() {
        core.peekLockedForFork { $0 }?.unlockAfterForkInParent()
        core.unlockAfterFork()
    }

    /// A request still in flight ends in the child with Request.inFlightAtFork, recorded for
    /// flickr_request_error (no done callback reports it).
    func unlockAfterForkInChild() {
        let request = core.peekLockedForFork { $0 }
        core.unlockAfterFork()
        if request?.unlockAfterForkInChild() == true { setRecord(Request.inFlightAtFork) }
    }

    static func lockSerialForFork() { lastSerial.lockForFork() }
    static func unlockSerialAfterFork() { lastSerial.unlockAfterFork() }
}

/// Starts an operation as a flickr_request: the shared body of every `*_async` entry point.
func startRequest(
    _ out: UnsafeMutablePointer<OpaquePointer?>?, _ ctx: OpaquePointer?, _ done: flickr_done_fn?,
    _ userdata: UnsafeMutableRawPointer?, _ makeOperation: () throws(FlickrError) -> any Operation
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        let context = try contexts.object(ctx)
        let operation = try makeOperation()
        let handle = RequestHandle(done: done, userdata: userdata)
        let pointer = requests.register(handle)
        do throws(FlickrError) {
            try handle.start(context: context, operation: operation, pointer: pointer)
        } catch {
            requests.release(pointer)
            throw error
        }
        out.pointee = pointer
    }
}
