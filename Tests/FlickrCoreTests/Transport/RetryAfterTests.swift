// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Retry-After is the server's text: every form parses without trapping (issue 19, fault 1:
/// `Retry-After: 9223372036854776` overflowed `seconds * 1000` and killed the process).
@Suite struct RetryAfterTests {
    static let now = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT

    static func seconds(_ text: String) -> Int? { RetryAfter.seconds(Array(text.utf8), nowEpochSeconds: now) }

    @Test func deltaSeconds() {
        #expect(Self.seconds("0") == 0)
        #expect(Self.seconds(" 3\r\n") == 3)
        #expect(Self.seconds("120") == 120)
    }

    @Test(arguments: ["9223372036854776", "9223372036854775807", "99999999999999999999999999999999999999"])
    func hugeNumbersSaturate(text: String) {
        #expect(Self.seconds(text) == RetryAfter.maxSeconds)
    }

    @Test func httpDates() {
        #expect(RetryAfter.httpDate(Array("Sun, 06 Nov 1994 08:49:37 GMT".utf8)) == Self.now)
        #expect(RetryAfter.httpDate(Array("Thu, 01 Jan 1970 00:00:00 GMT".utf8)) == 0)
        #expect(Self.seconds("Sun, 06 Nov 1994 08:50:07 GMT") == 30)
        #expect(Self.seconds("Sun, 06 Nov 1994 08:00:00 GMT") == 0)  // past: now
        #expect(Self.seconds("Fri, 31 Dec 9999 23:59:59 GMT") == 253_402_300_799 - Self.now)
    }

    @Test(arguments: ["", "-1", "+5", "1.5", "soon", "0x10", "Sunday, 06-Nov-94 08:49:37 GMT",
                      "Sun Nov  6 08:49:37 1994", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 99 Nov 1994 08:49:37 GMT",
                      "Sun, 06 Nov 1994 08:49:37 UTC", "\u{1B}[2J"])
    func otherFormsAreIgnored(text: String) {
        #expect(Self.seconds(text) == nil)
    }

    @Test func aHugeRetryAfterIsNotWaitedFor() throws {
        var settings = try Settings(apiKey: "k", sharedSecret: "s")
        try settings.set(.retryBaseMs, number: 1)
        let policy = RetryPolicy(settings: settings, idempotent: true, resendable: true)
        let busy = FlickrError(.http, "busy", httpStatus: 503)
        #expect(policy.delayMs(for: busy, retry: 1, retryAfterSeconds: Int.max) == nil)
        #expect(policy.delayMs(for: busy, retry: 1, retryAfterSeconds: RetryAfter.maxSeconds) == nil)
        #expect(policy.delayMs(for: busy, retry: 1, retryAfterSeconds: 2) == 2000)
        #expect(policy.delayMs(for: busy, retry: Int.max, retryAfterSeconds: nil) == nil)
    }

    @Test func saturatingHelpers() {
        #expect(Int.max.addingSaturated(1) == .max)
        #expect(Int.min.subtractingSaturated(1) == .min)
        #expect((Int.max / 2).multipliedSaturated(by: 3) == .max)
        #expect((-5).multipliedSaturated(by: Int.max) == .min)
        #expect(UInt64.nanoseconds(milliseconds: .max) == .max)
        #expect(UInt64.nanoseconds(milliseconds: -1) == 0)
        #expect(UInt64.max.addingSaturated(1) == .max)
    }
}
