// SPDX-License-Identifier: MIT

/// Where a response body goes as it arrives, for answers too large to hold in
/// memory (photo downloads stream to a file). One sink serves one attempt.
package protocol BodySink: AnyObject, Sendable {
    /// Takes the next chunk; a thrown error stops the transfer and becomes its outcome.
    func write(_ chunk: UnsafeRawBufferPointer) throws(FlickrError)
}
