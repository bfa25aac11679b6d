// SPDX-License-Identifier: MIT

/// What the options are (cases, C values and names, a numeric option's range and default) is
/// generated from the header into HeaderTables.swift; how the library stores them is written here.
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

    /// Looks an option up by its C value; nil for values the header does not define.
    package init?(cValue: Int32) {
        self.init(rawValue: cValue)
    }
}
