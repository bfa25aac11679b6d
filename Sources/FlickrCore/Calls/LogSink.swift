// SPDX-License-Identifier: MIT

/// The caller's log callback: one line per request and per retry. Lines hold
/// the method, the URL without its query (where tokens and signatures travel),
/// the outcome, the duration and the retries — never a secret.
package final class LogSink: Sendable {
    package typealias Function = @convention(c) (UnsafePointer<CChar>?, UnsafeMutableRawPointer?) -> Void

    private let function: Function
    private let userdata: UInt

    package init(function: @escaping Function, userdata: UnsafeMutableRawPointer?) {
        self.function = function
        self.userdata = UInt(bitPattern: userdata)
    }

    func write(_ line: String) {
        _ = CallbackGate.run { line.withCString { function($0, UnsafeMutableRawPointer(bitPattern: userdata)) } }
    }
}
