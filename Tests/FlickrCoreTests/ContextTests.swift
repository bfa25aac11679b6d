// SPDX-License-Identifier: MIT

import Dispatch
import Testing

@testable import FlickrCore

@Suite struct ContextTests {
    /// Many threads set options at once; every snapshot is a consistent value.
    @Test func concurrentSettersAreSafe() throws {
        let context = try Context(apiKey: "key", sharedSecret: "secret")
        DispatchQueue.concurrentPerform(iterations: 200) { i in
            try? context.set(.timeoutMs, number: Int64(i))
            try? context.set(.userAgent, string: "agent-\(i)")
            _ = context.snapshot.string(.userAgent)
        }
        let final = context.snapshot
        #expect((0..<200).contains(final.number(.timeoutMs)))
        #expect(final.string(.userAgent)?.hasPrefix("agent-") == true)
    }

    @Test func snapshotIsIndependentOfLaterChanges() throws {
        let context = try Context(apiKey: "key", sharedSecret: nil)
        let before = context.snapshot
        try context.set(.restEndpoint, string: "http://127.0.0.1:1/")
        #expect(before.string(.restEndpoint) == Settings.defaultRESTEndpoint)
        #expect(context.snapshot.string(.restEndpoint) == "http://127.0.0.1:1/")
        #expect(before.sharedSecret == "")
    }
}
