// SPDX-License-Identifier: MIT

/// A server's `Retry-After` header (RFC 9110 §10.2.3): delta-seconds or an HTTP-date.
///
/// The value comes from the server, so nothing about it is trusted: digits of any length
/// saturate instead of overflowing, a date in the past means "now", and anything else (a
/// negative number, a fraction, words, an obsolete date form) is ignored, as if the header
/// were absent: the ordinary back-off applies then.
enum RetryAfter {
    /// Larger values are clamped here; the retry policy refuses to wait anywhere near this long.
    static let maxSeconds = 1 << 40

    /// Seconds to wait, or nil when the value is not one of the two forms.
    /// `nowEpochSeconds` is the current time, for HTTP dates.
    @_optimize(size)
    static func seconds(_ raw: some Collection<UInt8>, nowEpochSeconds: Int) -> Int? {
        let value = trimmed(raw)
        guard !value.isEmpty else { return nil }
        if value.allSatisfy({ isDigit($0) }) {
            var seconds = 0
            for digit in value {
                seconds = min(seconds.multipliedSaturated(by: 10).addingSaturated(Int(digit &- 48)), maxSeconds)
            }
            return seconds
        }
        guard let date = httpDate(value) else { return nil }
        return min(max(0, date.subtractingSaturated(nowEpochSeconds)), maxSeconds)
    }

    /// IMF-fixdate, the form servers must send: "Sun, 06 Nov 1994 08:49:37 GMT".
    @_optimize(size)
    static func httpDate(_ value: [UInt8]) -> Int? {
        guard value.count == 29, value[3] == UInt8(ascii: ","), value[4] == 32, value[7] == 32,
            value[11] == 32, value[16] == 32, value[19] == UInt8(ascii: ":"), value[22] == UInt8(ascii: ":"),
            value[25] == 32, Array(value[26...]) == Array("GMT".utf8),
            let day = number(value[5..<7]), let year = number(value[12..<16]),
            let hour = number(value[17..<19]), let minute = number(value[20..<22]),
            let second = number(value[23..<25]),
            let month = months.firstIndex(of: Array(value[8..<11]))
        else { return nil }
        guard (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        let days = daysFromCivil(year: year, month: month + 1, day: day)
        return days * 86_400 + hour * 3600 + minute * 60 + second
    }

    private static let months: [[UInt8]] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ].map { Array($0.utf8) }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm);
    /// `year` has four digits here, so nothing can overflow.
    @_optimize(size)
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    @_optimize(size)
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard isDigit(digit) else { return nil }
            value = value * 10 + Int(digit - 48)  // at most four digits
        }
        return value
    }

    @_optimize(size)
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    @_optimize(size)
    private static func trimmed(_ raw: some Collection<UInt8>) -> [UInt8] {
        let isSpace: (UInt8) -> Bool = { $0 == 32 || $0 == 9 || $0 == 13 || $0 == 10 }
        var bytes = Array(raw)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        return Array(bytes[start...])
    }
}
