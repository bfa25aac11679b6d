// SPDX-License-Identifier: MIT

internal import FlickrCore
import Glibc

/// Helpers every C entry point uses, so that no caller input can trap:
/// a trap here would kill the caller's process.

/// Runs an entry point's body; a thrown error becomes the return code and the
/// thread's last error.
func boundary(_ body: () throws(FlickrError) -> Void) -> CInt {
    do {
        try body()
        return FlickrError.Code.ok.rawValue
    } catch {
        ErrorSlot.record(error)
        return error.code.rawValue
    }
}

/// Reads a required C string argument as validated UTF-8. `name` is a static string, made text
/// only for a message: an `@autoclosure` name was specialised into a 1.5 KB copy of this function
/// per call site (26 of them, 40 KB of the library; bench/NOTES.md, Change 22).
func requiredString(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws(FlickrError) -> String {
    guard let string = validatedString(pointer) else { throw unreadableString(pointer, name.description) }
    return string
}

/// The same for a parameter's value, whose message names the parameter: that text is built only
/// when the value is bad (it cost an allocation on every call).
func parameterValue(_ pointer: UnsafePointer<CChar>, of parameter: String) throws(FlickrError) -> String {
    guard let string = validatedString(pointer) else {
        throw unreadableString(pointer, "the value of parameter \"\(parameter)\"")
    }
    return string
}

/// Reads a required C string argument that names a file: its bytes as the OS takes them, not
/// text (a Linux file name is any bytes but NUL and `/`; caf\xe9.png is a valid one).
func requiredPath(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws(FlickrError) -> [UInt8] {
    guard let pointer else { throw unreadableString(nil, name.description) }
    return Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer)))
}

/// Reads an optional C string argument (NULL gives nil) as validated UTF-8.
func optionalString(_ pointer: UnsafePointer<CChar>?, _ name: StaticString) throws(FlickrError) -> String? {
    guard let pointer else { return nil }
    return try requiredString(pointer, name)
}

/// A C string as a Swift string, nil when it is NULL or not UTF-8. One copy for every argument.
@inline(never)
private func validatedString(_ pointer: UnsafePointer<CChar>?) -> String? {
    guard let pointer else { return nil }
    return String(validatingCString: pointer)
}

/// The error for an argument `validatedString` refused.
@inline(never)
private func unreadableString(_ pointer: UnsafePointer<CChar>?, _ name: String) -> FlickrError {
    pointer == nil ? .invalid("\(name) must not be NULL") : .invalid("\(name) is not valid UTF-8")
}

/// Copies a Swift string into malloc'd memory the caller releases with flickr_free.
func ownedCString(_ string: String) throws(FlickrError) -> UnsafeMutablePointer<CChar> {
    guard let copy = string.withCString({ strdup($0) }) else { throw FlickrError(.noMemory, "out of memory") }
    return copy
}

/// A value and everything below it as JSON, malloc'd for the caller (flickr_free); NULL with
/// FLICKR_ENOMEM on this thread when memory runs out.
func renderedJSON(_ node: UnsafePointer<ValueNode>) -> UnsafeMutablePointer<CChar>? {
    guard let text = node.renderedJSON() else {
        ErrorSlot.record(FlickrError(.noMemory, "out of memory rendering JSON"))
        return nil
    }
    return text
}

/// The body of flickr_response_marshal and flickr_value_marshal: `out` and `outLen` checked and
/// cleared, then the value `node` finds rendered in Python's marshal format, malloc'd for the
/// caller (flickr_free).
func marshalEntry(
    _ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ outLen: UnsafeMutablePointer<Int>?,
    _ node: () throws(FlickrError) -> UnsafePointer<ValueNode>
) -> CInt {
    boundary { () throws(FlickrError) in
        guard let out else { throw .invalid("out must not be NULL") }
        out.pointee = nil
        guard let outLen else { throw .invalid("out_len must not be NULL") }
        outLen.pointee = 0
        guard let (bytes, count) = try node().renderedMarshal() else {
            throw FlickrError(.noMemory, "out of memory rendering marshal data")
        }
        out.pointee = UnsafeMutableRawPointer(bytes).assumingMemoryBound(to: CChar.self)
        outLen.pointee = count
    }
}

/// A pointer to static, NUL-terminated storage, as `const char *`.
func staticCString(_ string: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(string.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// Runs a builder of an owned string: a malloc'd copy for the caller, or NULL with the
/// thread's error set (for entry points that return `char *` rather than a status).
func ownedResult(_ build: () throws(FlickrError) -> String) -> UnsafeMutablePointer<CChar>? {
    do {
        return try ownedCString(try build())
    } catch {
        ErrorSlot.record(error)
        return nil
    }
}
