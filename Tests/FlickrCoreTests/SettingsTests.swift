// SPDX-License-Identifier: MIT

import CFlickr
import Testing

@testable import FlickrCore

@Suite struct SettingsTests {
    private func settings() throws -> Settings {
        try Settings(apiKey: "key", sharedSecret: "secret")
    }

    private func rejection(_ body: () throws(FlickrError) -> Void) -> FlickrError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func defaultsAreFlickrs() throws {
        let s = try settings()
        #expect(s.string(.restEndpoint) == "https://api.flickr.com/services/rest/")
        #expect(s.string(.uploadEndpoint) == "https://up.flickr.com/services/upload/")
        #expect(s.string(.replaceEndpoint) == "https://up.flickr.com/services/replace/")
        #expect(s.string(.oauthEndpoint) == "https://www.flickr.com/services/oauth/")
        #expect(s.string(.userAgent) == "libflickr/" + FLICKR_VERSION)
        #expect(s.string(.oauthToken) == nil)
        #expect(s.string(.proxy) == nil)
        #expect(s.number(.timeoutMs) == 30_000)
        #expect(s.number(.connectTimeoutMs) == 10_000)
        #expect(s.number(.maxResponseBytes) == 32 << 20)
        #expect(s.number(.oauthInHeader) == 0)
        #expect(s.number(.uploadIdleTimeoutMs) == 60_000)
        #expect(s.number(.uploadResponseTimeoutMs) == 300_000)
    }

    /// Options are stored by slot: every option must have its own, or setting one would lose it
    /// or overwrite another.
    @Test func everyOptionHasASlotOfItsOwn() throws {
        for kind in [ContextOption.Kind.string, .number] {
            let options = ContextOption.allCases.filter { $0.kind == kind }
            let slots = Set(options.map(\.slot))
            #expect(slots.count == options.count)
            #expect(slots.allSatisfy { $0 >= 0 && $0 < ContextOption.slotCount(of: kind) })
        }
        var s = try settings()
        for (index, option) in ContextOption.allCases.filter({ $0.kind == .number }).enumerated() {
            try s.set(option, number: option.range.lowerBound + Int64(index % 2))
        }
        for (index, option) in ContextOption.allCases.filter({ $0.kind == .number }).enumerated() {
            #expect(s.number64(option) == option.range.lowerBound + Int64(index % 2), "\(option.name)")
        }
        try s.set(.userAgent, string: "agent/1")
        try s.set(.proxy, string: "http://proxy.invalid:3128")
        try s.set(.oauthToken, string: "token")
        #expect(s.string(.userAgent) == "agent/1")
        #expect(s.string(.proxy) == "http://proxy.invalid:3128")
        #expect(s.string(.oauthToken) == "token")
        #expect(s.string(.authToken) == nil)
    }

    @Test func emptyKeyAndControlCharactersAreRefused() {
        #expect(rejection { () throws(FlickrError) in _ = try Settings(apiKey: "", sharedSecret: nil) }?.code
            == .invalidArgument)
        #expect(rejection { () throws(FlickrError) in _ = try Settings(apiKey: "k\r\n", sharedSecret: nil) }?.code
            == .invalidArgument)
        #expect(rejection { () throws(FlickrError) in _ = try Settings(apiKey: "k", sharedSecret: "s\u{7F}") } != nil)
    }

    @Test(arguments: [
        "http://127.0.0.1:8080/services/rest/", "https://api.flickr.com/services/rest", "HTTPS://Example.com",
        "http://[::1]:9000/x",
    ])
    func acceptedEndpoints(url: String) throws {
        var s = try settings()
        try s.set(.restEndpoint, string: url)
        #expect(s.string(.restEndpoint) == url)
    }

    @Test(arguments: [
        "", "api.flickr.com/services/rest/", "ftp://host/", "http://", "http:// space/", "http://h:0/",
        "http://h:70000/", "http://user:pw@host/", "http://h/\nX-Injected: 1", "http://h:port/",
    ])
    func refusedEndpoints(url: String) throws {
        var s = try settings()
        let error = rejection { () throws(FlickrError) in try s.set(.restEndpoint, string: url) }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("FLICKR_OPT_REST_ENDPOINT") == true)
        #expect(s.string(.restEndpoint) == Settings.defaultRESTEndpoint, "unchanged after a refusal")
    }

    @Test func oauthEndpointGetsTrailingSlash() throws {
        var s = try settings()
        try s.set(.oauthEndpoint, string: "http://127.0.0.1:1234/services/oauth")
        #expect(s.string(.oauthEndpoint) == "http://127.0.0.1:1234/services/oauth/")
    }

    @Test func nilRestoresDefault() throws {
        var s = try settings()
        try s.set(.restEndpoint, string: "http://localhost/x")
        try s.set(.restEndpoint, string: nil)
        #expect(s.string(.restEndpoint) == Settings.defaultRESTEndpoint)
    }

    @Test func oauthTokenNeedsBothNonEmptyHalves() throws {
        var s = try settings()
        try s.set(.oauthToken, string: "tok")
        #expect(s.oauthToken == nil)
        try s.set(.oauthTokenSecret, string: "")
        #expect(s.oauthToken == nil)
        try s.set(.oauthTokenSecret, string: "sec")
        #expect(s.oauthToken?.token == "tok")
        #expect(s.oauthToken?.secret == "sec")
    }

    @Test func secretsAreNeverEchoedInMessages() throws {
        var s = try settings()
        let error = rejection { () throws(FlickrError) in try s.set(.oauthTokenSecret, string: "TOPSECRET\n") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("TOPSECRET") == false)
    }

    @Test func caFileMustBeReadable() throws {
        var s = try settings()
        #expect(rejection { () throws(FlickrError) in try s.set(.caFile, string: "/nonexistent/ca.pem") }?.code
            == .invalidArgument)
        #expect(rejection { () throws(FlickrError) in try s.set(.caFile, string: "") } != nil)
        try s.set(.caFile, string: "/etc/hostname")
        #expect(s.string(.caFile) == "/etc/hostname")
    }

    @Test func numbersAreRangeChecked() throws {
        var s = try settings()
        try s.set(.timeoutMs, number: 0)
        try s.set(.maxResponseBytes, number: 1024)
        try s.set(.oauthInHeader, number: 1)
        #expect(s.number(.timeoutMs) == 0)
        #expect(s.number(.oauthInHeader) == 1)
        for (option, bad) in [(ContextOption.timeoutMs, -1), (.maxResponseBytes, 1023), (.oauthInHeader, 2),
                              (.connectTimeoutMs, Int.max)] {
            #expect(rejection { () throws(FlickrError) in try s.set(option, number: bad) }?.code == .invalidArgument)
        }
        #expect(s.number(.maxResponseBytes) == 1024, "unchanged after a refusal")
    }

    @Test func optionKindsAreEnforced() throws {
        var s = try settings()
        #expect(rejection { () throws(FlickrError) in try s.set(.timeoutMs, string: "5") }?.message
            .contains("flickr_context_set_long") == true)
        #expect(rejection { () throws(FlickrError) in try s.set(.restEndpoint, number: 5) }?.message
            .contains("flickr_context_set_string") == true)
    }
}
