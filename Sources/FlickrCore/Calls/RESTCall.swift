// SPDX-License-Identifier: MIT

/// A call of a Flickr method as the caller asked for it, before signing.
package final class RESTCall: Sendable {
    package let method: String
    package let parameters: [(String, String)]
    package let verb: HTTPRequest.Verb
    /// The caller will not read the answer (flickr_call_discard): no value tree is built for a success.
    package let discardsAnswer: Bool

    /// Names the library sets itself; a caller passing them would break the signature or the parsing.
    static let reservedNames: Set<String> = ["method", "api_key", "api_sig", "auth_token", "format", "nojsoncallback"]

    // Convenience, so that a failure throws before the object exists (see EmbeddedPlatform.swift).
    package convenience init(
        method: String, parameters: [(String, String)], verb: HTTPRequest.Verb, discardsAnswer: Bool = false
    ) throws(FlickrError) {
        try RESTCall.validate(method: method, parameters: parameters)
        self.init(validMethod: method, parameters: parameters, verb: verb, discardsAnswer: discardsAnswer)
    }

    private init(validMethod method: String, parameters: [(String, String)], verb: HTTPRequest.Verb,
                 discardsAnswer: Bool) {
        self.method = method
        self.parameters = parameters
        self.verb = verb
        self.discardsAnswer = discardsAnswer
    }

    /// Arguments the library fills in itself (the legacy token, OAuth's): a catalogue's "required"
    /// `auth_token` or `oauth_token` is satisfied by signing.
    package static func isSetByLibrary(_ name: String) -> Bool {
        reservedNames.contains(name) || name.hasPrefix("oauth_")
    }

    /// The checks every call's method and parameters pass (also a pager's, before its first page).
    static func validate(method: String, parameters: [(String, String)]) throws(FlickrError) {
        guard !method.isEmpty else { throw .invalid("the method name must not be empty") }
        guard method.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalid("the method name must be printable ASCII without spaces")
        }
        for (name, _) in parameters {
            guard !name.isEmpty else { throw .invalid("a parameter name must not be empty") }
            if RESTCall.isSetByLibrary(name) {
                throw .invalid("parameter \"\(name)\" is set by libflickr; do not pass it")
            }
        }
    }
}

extension HTTPRequest.Verb {
    /// FLICKR_GET, FLICKR_POST, or FLICKR_METHOD_VERB: the catalogue's verb for `method` (GET for a
    /// method it does not hold).
    package init?(cValue: UInt32, method: String) {
        switch cValue {
        case 0: self = .get
        case 1: self = .post
        case 2: self = MethodCatalogue.entry(named: method)?.verb ?? .get
        default: return nil
        }
    }
}
