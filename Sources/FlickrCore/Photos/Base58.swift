// SPDX-License-Identifier: MIT

/// flic.kr short-URL encoding of photo ids (docs/protocol.md §8).
package enum Base58 {
    package static let alphabet: [UInt8] = Array("123456789abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ".utf8)

    /// flic.kr alphabet (no 0 O I l), most significant first; "0" -> "1". nil when `photoID` is not a plain
    /// decimal number that fits in UInt64 (empty, sign, spaces, letters, overflow). Leading zeros are accepted.
    @_optimize(size)
    package static func encode(photoID: String) -> String? {
        guard !photoID.isEmpty, photoID.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let number = UInt64(photoID)
        else { return nil }
        return encode(number)
    }

    @_optimize(size)
    package static func encode(_ number: UInt64) -> String {
        var value = number
        var digits: [UInt8] = []
        repeat {
            digits.append(alphabet[Int(value % 58)])
            value /= 58
        } while value > 0
        return String(decoding: digits.reversed(), as: UTF8.self)
    }

    /// The number a flic.kr code stands for; nil for an empty code, a character outside the
    /// alphabet, or a value past UInt64 (checked: codes come from pasted URLs).
    @_optimize(size)
    package static func decode(_ code: String) -> UInt64? {
        guard !code.isEmpty, code.utf8.count <= 12 else { return nil }
        var value: UInt64 = 0
        for byte in code.utf8 {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 58)
            let (sum, carry) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { return nil }
            value = sum
        }
        return value
    }
}
