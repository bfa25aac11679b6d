// SPDX-License-Identifier: MIT

internal import FlickrCore

/// Reads a NULL-terminated `key, value, ..., NULL` array into ordered pairs.
func parameters(_ array: UnsafePointer<UnsafePointer<CChar>?>?) throws(FlickrError) -> [(String, String)] {
    guard let array else { return [] }
    var pairs: [(String, String)] = []
    var index = 0
    while let key = array[index] {
        // A bound, so that an unterminated array fails instead of reading on forever.
        guard pairs.count < 10_000 else { throw .invalid("params has more than 10000 pairs (missing NULL terminator?)") }
        let name = try requiredString(key, "a parameter name")
        guard let value = array[index + 1] else {
            throw .invalid("parameter \"\(name)\" has no value (NULL where a value was expected)")
        }
        pairs.append((name, try parameterValue(value, of: name)))
        index += 2
    }
    return pairs
}
