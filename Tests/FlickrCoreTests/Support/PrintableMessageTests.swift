// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// Server text becomes error messages, which reach terminals and logs: no control character
/// survives (issue 19, fault 11: an error page's ESC[2J and BEL reached the CLI raw).
@Suite struct PrintableMessageTests {
    @Test func controlsAreEscaped() {
        let error = FlickrError(.http, "Oops\u{1B}[2J\u{07} down\r\nnow\u{7F}\u{9B}x")
        #expect(error.message == "Oops\\u{1B}[2J\\u{7} down  now\\u{7F}\\u{9B}x")
        #expect(!error.message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }

    @Test func setMessagesAreEscapedToo() {
        var error = FlickrError(.http, "fine")
        error.message = "bell\u{07}"
        #expect(error.message == "bell\\u{7}")
    }

    @Test func plainTextIsUnchanged() {
        #expect(FlickrError(.api, "Photo \"x\" not found — 東京").message == "Photo \"x\" not found — 東京")
    }
}
