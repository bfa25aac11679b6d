// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

/// The compiled table (MethodTable.swift) as the core reads it; the C view and its agreement with
/// data/flickr-methods.json are tested in Tests/c/test_methods.c and the Python suite.
@Suite struct MethodCatalogueTests {
    @Test func tableHoldsEveryMethodSorted() {
        let methods = MethodCatalogue.methods
        #expect(methods.count == 223)
        for (earlier, later) in zip(methods, methods.dropFirst()) {
            #expect(Array(earlier.name.utf8).lexicographicallyPrecedes(Array(later.name.utf8)))
        }
        // Flickr's rule: write and delete methods are POSTed, everything else is a GET.
        for method in methods {
            #expect((method.verb == .post) == (method.permission == .write || method.permission == .delete))
            #expect(!method.required.contains("api_key") && !method.optional.contains("api_key"))
        }
    }

    @Test func lookup() throws {
        let search = try #require(MethodCatalogue.method(named: "flickr.photos.search"))
        #expect(search.verb == .get && search.permission == .none && search.required.isEmpty)
        #expect(search.optional.contains("text") && search.optional.contains("bbox"))
        let replies = try #require(MethodCatalogue.method(named: "flickr.groups.discuss.replies.getList"))
        #expect(replies.required == ["group_id", "topic_id", "per_page"])
        #expect(MethodCatalogue.method(named: "flickr.activity.userComments")?.permission == .read)
        #expect(MethodCatalogue.method(named: "flickr.urls.lookupUser") != nil)
        for missing in ["", "flickr", "flickr.photos", "flickr.photos.searchx", "flickr.photos.searc", "zzz"] {
            #expect(MethodCatalogue.method(named: missing) == nil)
        }
    }

    @Test func missingArguments() throws {
        let getInfo = try #require(MethodCatalogue.entry(named: "flickr.photos.getInfo"))
        #expect(MethodCatalogue.missingArgument(of: getInfo, in: []) == "photo_id")
        #expect(MethodCatalogue.missingArgument(of: getInfo, in: [("secret", "x")]) == "photo_id")
        #expect(MethodCatalogue.missingArgument(of: getInfo, in: [("photo_id", "1")]) == nil)
        // Arguments the library sends itself are never missing.
        let check = try #require(MethodCatalogue.entry(named: "flickr.auth.oauth.checkToken"))
        #expect(MethodCatalogue.missingArgument(of: check, in: []) == nil)
        let legacy = try #require(MethodCatalogue.entry(named: "flickr.auth.checkToken"))
        #expect(MethodCatalogue.missingArgument(of: legacy, in: []) == nil)
    }

    /// Calls read the table's bytes (entries), the C API its strings (methods): they agree on
    /// every method, verb and missing argument.
    @Test func entriesAgreeWithMethods() throws {
        /// The rule, over the method's strings: its first required argument neither given nor sent by the library.
        func missing(_ method: MethodCatalogue.Method, _ given: [(String, String)]) -> String? {
            method.required.first { name in !RESTCall.isSetByLibrary(name) && !given.contains { $0.0 == name } }
        }
        for (index, method) in MethodCatalogue.methods.enumerated() {
            let entry = try #require(MethodCatalogue.entry(named: method.name))
            #expect(entry.index == index && entry.verb == method.verb)
            var given: [(String, String)] = []
            #expect(MethodCatalogue.missingArgument(of: entry, in: given) == missing(method, given))
            for name in method.required {
                given.append((name, "1"))
                #expect(MethodCatalogue.missingArgument(of: entry, in: given) == missing(method, given),
                        "\(method.name) given \(name)")
            }
            #expect(MethodCatalogue.missingArgument(of: entry, in: given) == nil)
            // A prefix or an extension is another method only if the catalogue holds it (getContext/getContexts).
            for near in [method.name + "x", String(method.name.dropLast())] {
                #expect(MethodCatalogue.entry(named: near)?.index == MethodCatalogue.methods.firstIndex { $0.name == near })
            }
        }
        #expect(MethodCatalogue.entry(named: "") == nil && MethodCatalogue.entry(named: "flickr.photos.getInfo\u{0}") == nil)
    }

    /// The generated record offsets that `entry(named:)` searches are where the table's records start.
    @Test func recordStartsAreTheRecords() {
        #expect(MethodCatalogue.recordStarts.map(Int.init) == MethodCatalogue.entries(in: MethodCatalogue.table).map(\.nameStart))
    }

    @Test func parserSkipsMalformedRecords() {
        let methods = MethodCatalogue.parse("a.b\0G9\0x\0\0\0c.d\0P2\0id\0\0opt\0\0trailing")
        #expect(methods.count == 1)
        #expect(methods.first?.name == "c.d" && methods.first?.verb == .post && methods.first?.permission == .write)
        #expect(methods.first?.required == ["id"] && methods.first?.optional == ["opt"])
        #expect(MethodCatalogue.parse("").isEmpty)
    }

    @Test func baseURLSetsEveryEndpoint() throws {
        var settings = try Settings(apiKey: "key", sharedSecret: "secret")
        try settings.set(.baseURL, string: "http://127.0.0.1:8080/")
        #expect(settings.string(.restEndpoint) == "http://127.0.0.1:8080/services/rest/")
        #expect(settings.string(.photoEndpoint) == "http://127.0.0.1:8080/photos")
        try settings.set(.baseURL, string: nil)
        #expect(settings.string(.restEndpoint) == "https://api.flickr.com/services/rest/")
        #expect(settings.string(.baseURL) == nil)
    }
}
