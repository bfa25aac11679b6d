// SPDX-License-Identifier: MIT

import Synchronization

/// What `flickr_context` points to: the settings behind a lock, shared by
/// every thread and request that uses the context.
package final class Context: Sendable {
    private let settings: Mutex<Settings>

    package init(apiKey: String, sharedSecret: String?) throws(FlickrError) {
        settings = Mutex(try Settings(apiKey: apiKey, sharedSecret: sharedSecret))
    }

    /// A consistent copy of the settings, taken when a request starts.
    package var snapshot: Settings {
        settings.withLock { $0 }
    }

    package func set(_ option: ContextOption, string value: String?) throws(FlickrError) {
        try settings.withLock { (s: inout Settings) throws(FlickrError) in try s.set(option, string: value) }
    }

    package func set(_ option: ContextOption, number value: Int) throws(FlickrError) {
        try settings.withLock { (s: inout Settings) throws(FlickrError) in try s.set(option, number: value) }
    }
}
