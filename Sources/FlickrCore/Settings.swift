// SPDX-License-Identifier: MIT

import Glibc

/// Everything a context is configured with. A value type, so that a request
/// can take a consistent snapshot while other threads keep changing the context.
package struct Settings: Sendable {
    // The endpoints' defaults are the header's (HeaderTables.swift's `defaultURL`, which has one for
    // each of these options: the "" is never read).
    package static let defaultRESTEndpoint = ContextOption.restEndpoint.defaultURL ?? ""
    package static let defaultUploadEndpoint = ContextOption.uploadEndpoint.defaultURL ?? ""
    package static let defaultReplaceEndpoint = ContextOption.replaceEndpoint.defaultURL ?? ""
    package static let defaultOAuthEndpoint = ContextOption.oauthEndpoint.defaultURL ?? ""
    package static let defaultAuthEndpoint = ContextOption.authEndpoint.defaultURL ?? ""
    /// Connections of a context's asynchronous requests at once (the header's default, 256: enough
    /// for the 128 in flight the benchmarks drive, far below the 1024 descriptors a process usually has).
    package static let defaultMaxConnections = Int(clamping: ContextOption.maxConnections.defaultNumber)

    package let apiKey: String
    package let sharedSecret: String

    // Read a dozen times by every call: arrays by slot, not dictionaries (hashing an option cost
    // about 200 instructions a lookup, 3 k a call; bench/NOTES.md, Change 18).
    private var strings = OptionValues<String>(kind: .string)
    private var numbers = OptionValues<Int64>(kind: .number)
    /// Where one line per request (and per retry) goes; nil: nowhere.
    package var log: LogSink?
    /// Asked while synchronous calls wait whether to give up; nil: never.
    package var interrupt: InterruptCheck?

    package init(apiKey: String, sharedSecret: String?) throws(FlickrError) {
        guard !apiKey.isEmpty else { throw .invalid("the API key must not be empty") }
        try Settings.requirePrintable(apiKey, what: "the API key")
        try Settings.requirePrintable(sharedSecret ?? "", what: "the shared secret")
        self.apiKey = apiKey
        self.sharedSecret = sharedSecret ?? ""
    }

    // MARK: Reading

    /// The option's current value, or its default; nil when unset and without default.
    package func string(_ option: ContextOption) -> String? {
        if let value = strings[option] { return value }
        if let url = option.defaultURL { return url }  // the endpoints', from the header
        return option == .userAgent ? LibraryVersion.userAgent : nil
    }

    /// The option's value as an Int, saturated: only byte bounds (up to 2^40) can exceed a 32-bit
    /// Int, and no single buffer can be larger than Int.max anyway.
    package func number(_ option: ContextOption) -> Int {
        Int(clamping: number64(option))
    }

    /// The option's current value, or its default (the header's, HeaderTables.swift), in full.
    package func number64(_ option: ContextOption) -> Int64 {
        numbers[option] ?? option.defaultNumber
    }

    /// The minimum time between two request starts under the rate limits, or 0 when off.
    package var rateSpacingNs: UInt64 {
        var spacing: UInt64 = 0
        let perHour = number(.rateLimitPerHour), perSecond = number(.rateLimitPerSecond)
        if perHour > 0 { spacing = max(spacing, 3_600_000_000_000 / UInt64(perHour)) }
        if perSecond > 0 { spacing = max(spacing, 1_000_000_000 / UInt64(perSecond)) }
        return spacing
    }

    /// OAuth signing needs both halves of the token; empty strings do not count
    /// (ObjectiveFlickr treated "" as set and signed with garbage).
    package var oauthToken: (token: String, secret: String)? {
        guard let token = strings[.oauthToken], let secret = strings[.oauthTokenSecret] else { return nil }
        return (token, secret)
    }

    /// Where FLICKR_OPT_BASE_URL puts each endpoint: Flickr's own paths, which the sandbox serves
    /// on one host.
    static let endpointPaths: [(option: ContextOption, path: String)] = [
        (.restEndpoint, "/services/rest/"), (.uploadEndpoint, "/services/upload/"),
        (.replaceEndpoint, "/services/replace/"), (.oauthEndpoint, "/services/oauth/"),
        (.authEndpoint, "/services/auth/"), (.photoEndpoint, "/photos"),
    ]

    // MARK: Writing

    /// Sets or (with nil) resets a string option after validating it.
    package mutating func set(_ option: ContextOption, string value: String?) throws(FlickrError) {
        guard option.kind == .string else {
            throw .invalid("\(option.name) is a numeric option: use flickr_context_set_long")
        }
        guard let value else {
            strings[option] = nil
            if option == .baseURL {
                for endpoint in Settings.endpointPaths { strings[endpoint.option] = nil }
            }
            return
        }
        switch option {
        case .baseURL:
            _ = try EndpointURL(parsing: value, what: option.name)
            var base = Substring(value)
            while base.hasSuffix("/") { base = base.dropLast() }
            strings[option] = String(base)
            for endpoint in Settings.endpointPaths { strings[endpoint.option] = String(base) + endpoint.path }
        case .restEndpoint, .uploadEndpoint, .replaceEndpoint, .authEndpoint:
            _ = try EndpointURL(parsing: value, what: option.name)
            strings[option] = value
        case .oauthEndpoint:
            _ = try EndpointURL(parsing: value, what: option.name)
            strings[option] = value.hasSuffix("/") ? value : value + "/"
        case .photoEndpoint:
            _ = try EndpointURL(parsing: value, what: option.name)
            strings[option] = value
        case .oauthToken, .oauthTokenSecret, .authToken:
            try Settings.requirePrintable(value, what: option.name)
            strings[option] = value.isEmpty ? nil : value
        case .userAgent:
            try Settings.requirePrintable(value, what: option.name)
            strings[option] = value
        case .proxy:
            try Settings.requirePrintable(value, what: option.name)
            strings[option] = value
        case .photoCacheDir:
            guard !value.isEmpty else { throw .invalid("\(option.name) must name a directory") }
            try Settings.requirePrintable(value, what: option.name)
            strings[option] = value
        case .caFile:
            guard !value.isEmpty else { throw .invalid("\(option.name) must name a file") }
            guard access(value, R_OK) == 0 else {
                throw .invalid("\(option.name): cannot read \"\(value)\"")
            }
            strings[option] = value
        default:
            throw .invalid("\(option.name) is not a string option")
        }
    }

    package mutating func set(_ option: ContextOption, number value: Int) throws(FlickrError) {
        try set(option, number: Int64(value))
    }

    package mutating func set(_ option: ContextOption, number value: Int64) throws(FlickrError) {
        guard option.kind == .number else {
            throw .invalid("\(option.name) is a string option: use flickr_context_set_string")
        }
        guard option.range.contains(value) else {
            throw .invalid(
                "\(option.name) must be between \(option.range.lowerBound) and \(option.range.upperBound), not \(value)")
        }
        numbers[option] = value
    }

    /// Refuses control characters: they could split HTTP headers or hide in logs.
    private static func requirePrintable(_ value: String, what: String) throws(FlickrError) {
        if value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) {
            throw .invalid("\(what) must not contain control characters")
        }
    }
}

/// The values set for the options of one kind, in an array indexed by `ContextOption.slot`.
struct OptionValues<Value: Sendable>: Sendable {
    private var values: [Value?]

    init(kind: ContextOption.Kind) {
        values = Array(repeating: nil, count: ContextOption.slotCount(of: kind))
    }

    /// nil for an option of the other kind (never stored: `set` checks the kind first).
    subscript(option: ContextOption) -> Value? {
        get {
            let slot = option.slot
            return slot >= 0 && slot < values.count ? values[slot] : nil
        }
        set {
            let slot = option.slot
            if slot >= 0 && slot < values.count { values[slot] = newValue }
        }
    }
}
