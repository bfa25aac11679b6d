// SPDX-License-Identifier: MIT

/// A harvest's unit of work: a closed range of dates in unix seconds (both ends included, as
/// Flickr's min_/max_ date arguments are), with or without one licence id.
package struct HarvestSlice: Equatable, Sendable {
    package var lo: Int64
    package var hi: Int64
    package var license: Int64?
    /// A part of a slice the server answered (by time or licence): its total is already counted in
    /// what the harvest's first answers justify (`Harvester`'s bound on the totals).
    package var derived = false

    /// 2004-01-01: before Flickr opened (upload dates).
    static let earliestUpload: Int64 = 1_072_915_200
    /// 1800-01-01: taken dates reach before 1970 (scanned prints).
    static let earliestTaken: Int64 = -5_364_662_400
    /// 9999-12-31 23:59:59, the end of MySQL's DATETIME range where taken dates live.
    static let latest: Int64 = 253_402_300_799

    var seconds: Int64 { hi - lo + 1 }

    /// [lo, hi] cut into `count` slices of (nearly) equal length, fewer if it has fewer seconds.
    @_optimize(size)
    static func parts(lo: Int64, hi: Int64, count: Int64, license: Int64? = nil, derived: Bool = false) -> [HarvestSlice] {
        let length = hi - lo + 1
        // length < 2^38 (the date range) and n <= 2^20: length * i stays below 2^58.
        let n = Swift.max(1, Swift.min(count, length, 1 << 20))
        var result: [HarvestSlice] = []
        var start = lo
        for i in 1...n {
            let end = lo + length * i / n - 1
            result.append(HarvestSlice(lo: start, hi: end, license: license, derived: derived))
            start = end + 1
        }
        return result
    }

    /// The method's arguments for this slice: upload dates as unix seconds, taken dates as MySQL
    /// datetimes (Flickr takes either; the sandbox and Flickr both read a datetime before 1970).
    @_optimize(size)
    func arguments(taken: Bool) -> [(String, String)] {
        var args = taken ? [("min_taken_date", HarvestSlice.utc(lo)), ("max_taken_date", HarvestSlice.utc(hi))]
                         : [("min_upload_date", String(lo)), ("max_upload_date", String(hi))]
        if let license { args.append(("license", String(license))) }
        return args
    }

    /// `stamp` as "YYYY-MM-DD HH:MM:SS" UTC (the proleptic Gregorian calendar, any year 1 to 9999).
    @_optimize(size)
    static func utc(_ stamp: Int64) -> String {
        let days = stamp >= 0 ? stamp / 86400 : (stamp - 86399) / 86400
        let second = stamp - days * 86400
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        return pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + " " + pad(second / 3600, 2) + ":"
            + pad(second / 60 % 60, 2) + ":" + pad(second % 60, 2)
    }

    @_optimize(size)
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}
