// SPDX-License-Identifier: MIT

extension ValueTree {
    /// A one-level object of string entries, for answers that are form-encoded
    /// rather than XML (the OAuth token endpoints). Built by writing the pairs
    /// as attributes of one element and mapping it, so it follows exactly the
    /// same rules and storage as every other tree. Names that are not XML
    /// names are left out; a repeated name keeps its first value.
    package static func object(_ pairs: [(String, String)], rootName: String) throws(FlickrError) -> ValueTree {
        var xml = "<\(rootName)"
        var seen = Set<String>()
        for (name, value) in pairs where isXMLName(name) && seen.insert(name).inserted {
            xml += " \(name)=\"\(escapedAttribute(value))\""
        }
        xml += "/>"
        let bytes = Array(xml.utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(FlickrError) -> ValueTree in try XMLMapper.parse(buffer) }
        }
        return try result.get()
    }

    private static func isXMLName(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || isLetter(first) else { return false }
        return name.utf8.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D || $0 == 0x2E }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    /// Escapes for a double-quoted attribute; characters XML 1.0 cannot carry become U+FFFD.
    private static func escapedAttribute(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out.unicodeScalars.append("\u{FFFD}")
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
