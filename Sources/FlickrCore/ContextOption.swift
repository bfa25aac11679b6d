// SPDX-License-Identifier: MIT

/// What the options are (cases, C values and names) is generated from the header into
/// HeaderTables.swift; how the library stores and bounds them is written here.
extension ContextOption {
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
        case .retryPost, .checkArguments, .keepBody: 0...1
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
