// SPDX-License-Identifier: MIT

/// What one request does, apart from how it is driven: how each attempt's
/// HTTP request is built (and signed), and what the answer means. REST calls,
/// OAuth token requests and uploads are operations; `Request` drives any of
/// them through the context's engine, with cancellation and redirects.
///
/// Class-bound because libflickr.so is built with Embedded Swift, whose
/// existentials (`any Operation`) must be references.
package protocol Operation: AnyObject, Sendable {
    /// The URL of the first attempt.
    func endpoint(_ settings: Settings) -> String
    /// The HTTP request for an attempt at `endpoint`; called again, and so
    /// re-signed, for each followed redirect.
    func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest
    /// Whether the body is XML to stream into the mapper as it arrives.
    var parsesXML: Bool { get }
    /// The outcome of a completed exchange. `parsed` is nil when `parsesXML` is false. `limit` ends
    /// any wait it makes (the photo cache's lock): the call's deadline, interrupt or cancel.
    func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    /// Safe to send twice (a GET call): retried after passing failures without opting in.
    var isIdempotent: Bool { get }
    /// Whether the request can be sent again at all (a one-shot stream cannot).
    var isResendable: Bool { get }
    /// What the log calls this request (a method name, "upload"...).
    var logLabel: String { get }
    /// Whether FLICKR_OPT_TIMEOUT_MS bounds the whole request (uploads have idle and answer-wait limits instead).
    var hasCallDeadline: Bool { get }
    /// The shared limit each attempt counts against: the key's budget, or an image host's back-off.
    var limit: CallLimit { get }

    /// An answer available without the network (a cached photo), checked when the request starts.
    func localResult() -> Result<Response, FlickrError>?
    /// A fresh destination for one attempt's body, besides the bytes kept in memory; nil for none.
    func bodySink() throws(FlickrError) -> (any BodySink)?
    /// How many body bytes are kept in memory for `interpret` (the rest only goes to the sink).
    var keptBodyBytes: Int { get }
    /// Whether a success needs no more of the body than its tree (FLICKR_OPT_KEEP_BODY 0 applies).
    var answerIsItsTree: Bool { get }
    /// Adjusts a transport failure's message for this kind of request.
    func describeFailure(_ error: FlickrError) -> FlickrError
    /// Called once when the request ends, whatever the outcome: releases what attempts left behind.
    func ended()
    /// Refuses, before anything is sent, what the request's own rules forbid (a REST call missing a
    /// required argument of a known method).
    func check(_ settings: Settings) throws(FlickrError)
}

extension Operation {
    package var isIdempotent: Bool { false }
    package var isResendable: Bool { true }
    package var logLabel: String { "request" }
    package var hasCallDeadline: Bool { true }
    package var limit: CallLimit { .apiKey }
    package func localResult() -> Result<Response, FlickrError>? { nil }
    package func bodySink() throws(FlickrError) -> (any BodySink)? { nil }
    package var keptBodyBytes: Int { Int.max }
    package var answerIsItsTree: Bool { false }
    package func describeFailure(_ error: FlickrError) -> FlickrError { error }
    package func ended() {}
    package func check(_ settings: Settings) throws(FlickrError) {}
}

extension RESTCall: Operation {
    package var isIdempotent: Bool { verb == .get }
    package var logLabel: String { method }
    /// A discarded answer is mapped from its body when it is not a plain success.
    package var answerIsItsTree: Bool { !discardsAnswer }

    /// A known method's missing required argument costs no round trip (FLICKR_OPT_CHECK_ARGUMENTS);
    /// an unknown method is sent as given, with a log line: Flickr adds methods.
    package func check(_ settings: Settings) throws(FlickrError) {
        guard let known = MethodCatalogue.entry(named: method) else {
            settings.log?.write("\(method) is not in libflickr's method catalogue: sent as given")
            return
        }
        guard settings.number(.checkArguments) != 0,
              let missing = MethodCatalogue.missingArgument(of: known, in: parameters) else { return }
        throw .invalid("\(method) requires the argument \"\(missing)\" (FLICKR_OPT_CHECK_ARGUMENTS)")
    }

    package func endpoint(_ settings: Settings) -> String {
        settings.string(.restEndpoint) ?? Settings.defaultRESTEndpoint
    }

    package func httpRequest(endpoint: String, settings: Settings) throws(FlickrError) -> HTTPRequest {
        try RequestSigning.request(for: self, settings: settings, endpoint: endpoint)
    }

    /// An answer nobody reads is not streamed into the mapper: it is kept, and mapped only if it is
    /// not plainly a success (so that failures read exactly as flickr_call's).
    package var parsesXML: Bool { !discardsAnswer }

    package func interpret(
        status: Int, body: ResponseBody, parsed: Result<ValueTree, FlickrError>?, url: String, within limit: WaitLimit
    ) -> Result<Response, FlickrError>
    {
        var parsed = parsed
        if discardsAnswer {
            if SuccessEnvelope.matches(body.bytes), let response = Response.discarded(status: status) {
                return .success(response)
            }
            parsed = Result { () throws(FlickrError) in try XMLMapper.parse(UnsafeRawBufferPointer(body.bytes)) }
        }
        return ResponseInterpreter.interpret(
            status: status, body: body, parsed: parsed ?? .failure(FlickrError(.parse, "no XML body")), url: url)
    }
}
