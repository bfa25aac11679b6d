// SPDX-License-Identifier: MIT

/// The options of `flickr_option`; raw values are the C values.
package enum ContextOption: Int32, Sendable, CaseIterable {
    case restEndpoint = 1
    case uploadEndpoint = 2
    case replaceEndpoint = 3
    case oauthEndpoint = 4
    case oauthToken = 5
    case oauthTokenSecret = 6
    case authToken = 7
    case userAgent = 8
    case proxy = 9
    case caFile = 10
    case authEndpoint = 11
    case photoCacheDir = 12
    case photoEndpoint = 13
    case baseURL = 14

    case timeoutMs = 100
    case connectTimeoutMs = 101
    case maxResponseBytes = 102
    case oauthInHeader = 103
    case uploadIdleTimeoutMs = 104
    case uploadResponseTimeoutMs = 105
    case maxRetries = 106
    case retryBaseMs = 107
    case retryPost = 108
    case rateLimitPerHour = 109
    case rateLimitPerSecond = 110
    case photoCacheMaxBytes = 111
    case maxConnections = 112
    case checkArguments = 113
    case budgetPerHour = 114

    package enum Kind: Sendable { case string, number }

    /// String options are numbered below 100, numeric ones from 100, as the header documents.
    package var kind: Kind { rawValue < 100 ? .string : .number }

    /// The option's index among those of its kind: string options are numbered from 1 and numeric
    /// ones from 100, without gaps (SettingsTests checks every option has a slot of its own).
    var slot: Int { Int(rawValue) - (rawValue < 100 ? 1 : 100) }

    /// Slots the options of `kind` need.
    static func slotCount(of kind: Kind) -> Int {
        allCases.reduce(0) { $1.kind == kind ? Swift.max($0, $1.slot + 1) : $0 }
    }

    /// The C enumerator's name, used in error messages.
    package var name: String {
        switch self {
        case .restEndpoint: "FLICKR_OPT_REST_ENDPOINT"
        case .uploadEndpoint: "FLICKR_OPT_UPLOAD_ENDPOINT"
        case .replaceEndpoint: "FLICKR_OPT_REPLACE_ENDPOINT"
        case .oauthEndpoint: "FLICKR_OPT_OAUTH_ENDPOINT"
        case .oauthToken: "FLICKR_OPT_OAUTH_TOKEN"
        case .oauthTokenSecret: "FLICKR_OPT_OAUTH_TOKEN_SECRET"
        case .authToken: "FLICKR_OPT_AUTH_TOKEN"
        case .userAgent: "FLICKR_OPT_USER_AGENT"
        case .proxy: "FLICKR_OPT_PROXY"
        case .caFile: "FLICKR_OPT_CA_FILE"
        case .authEndpoint: "FLICKR_OPT_AUTH_ENDPOINT"
        case .photoCacheDir: "FLICKR_OPT_PHOTO_CACHE_DIR"
        case .photoEndpoint: "FLICKR_OPT_PHOTO_ENDPOINT"
        case .baseURL: "FLICKR_OPT_BASE_URL"
        case .timeoutMs: "FLICKR_OPT_TIMEOUT_MS"
        case .connectTimeoutMs: "FLICKR_OPT_CONNECT_TIMEOUT_MS"
        case .maxResponseBytes: "FLICKR_OPT_MAX_RESPONSE_BYTES"
        case .oauthInHeader: "FLICKR_OPT_OAUTH_IN_HEADER"
        case .uploadIdleTimeoutMs: "FLICKR_OPT_UPLOAD_IDLE_TIMEOUT_MS"
        case .uploadResponseTimeoutMs: "FLICKR_OPT_UPLOAD_RESPONSE_TIMEOUT_MS"
        case .maxRetries: "FLICKR_OPT_MAX_RETRIES"
        case .retryBaseMs: "FLICKR_OPT_RETRY_BASE_MS"
        case .retryPost: "FLICKR_OPT_RETRY_POST"
        case .rateLimitPerHour: "FLICKR_OPT_RATE_LIMIT_PER_HOUR"
        case .rateLimitPerSecond: "FLICKR_OPT_RATE_LIMIT_PER_SECOND"
        case .photoCacheMaxBytes: "FLICKR_OPT_PHOTO_CACHE_MAX_BYTES"
        case .maxConnections: "FLICKR_OPT_MAX_CONNECTIONS"
        case .checkArguments: "FLICKR_OPT_CHECK_ARGUMENTS"
        case .budgetPerHour: "FLICKR_OPT_BUDGET_PER_HOUR"
        }
    }

    /// The accepted range of a numeric option: 64-bit, so byte bounds up to 2^40 hold where Int
    /// (C's long) has 32 bits (the i686 and armv7 wheels).
    package var range: ClosedRange<Int64> {
        switch self {
        case .timeoutMs: 0...86_400_000
        case .connectTimeoutMs: 0...600_000
        case .maxResponseBytes: 1024...(1 << 40)
        case .oauthInHeader: 0...1
        case .uploadIdleTimeoutMs, .uploadResponseTimeoutMs: 0...86_400_000
        case .maxRetries: 0...10
        case .retryBaseMs: 0...60_000
        case .retryPost, .checkArguments: 0...1
        case .rateLimitPerHour: 0...3_600_000
        case .rateLimitPerSecond: 0...1000
        case .photoCacheMaxBytes: 1024...(1 << 40)
        case .maxConnections: 1...65_536
        case .budgetPerHour: 0...Int64(BudgetRing.maxCapacity)
        default: 0...0
        }
    }

    /// Looks an option up by its C value; nil for values the header does not define.
    package init?(cValue: Int32) {
        self.init(rawValue: cValue)
    }
}
