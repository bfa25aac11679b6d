// SPDX-License-Identifier: MIT

extension String {
    /// A cold path's message joined from its parts, numbers as `String(n)`: one call with an array,
    /// where Embedded Swift inlines an interpolation's appends and releases at every use, about
    /// 100 bytes a part (docs/embedded-swift.md, rule 8; bench/NOTES.md, Change 24).
    @_optimize(size) @inline(never)
    package static func message(_ parts: [String]) -> String {
        var text = ""
        for part in parts { text += part }
        return text
    }
}
