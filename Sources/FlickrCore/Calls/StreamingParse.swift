// SPDX-License-Identifier: MIT

/// Feeds a response body to the XML mapper chunk by chunk as curl delivers
/// it, remembering the first failure (an HTML error page is not XML, and
/// that is for the interpreter to judge, not a reason to stop receiving).
final class StreamingParse: @unchecked Sendable {
    private let mapper = XMLMapper()
    private var failure: FlickrError?

    func feed(_ chunk: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        do {
            try mapper.feed(chunk)
        } catch {
            failure = error
        }
    }

    func finish() -> Result<ValueTree, FlickrError> {
        if let failure { return .failure(failure) }
        do {
            return .success(try mapper.finish())
        } catch {
            return .failure(error)
        }
    }
}
