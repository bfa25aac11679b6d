// SPDX-License-Identifier: MIT

import CFlickr
import Testing

@testable import FlickrCore

/// The Swift core and the hand-written header must agree on every number they share. The status
/// codes and options are generated from the header (HeaderTables.swift, scripts/gen-header-tables.py;
/// ctest header_tables_are_current); what is written twice is checked here.
@Suite struct HeaderAgreementTests {
    /// The version is written once, in version.h: the library reads it through the C shims, and
    /// the string and the numbers there must say the same thing.
    @Test func versionIsTheHeaders() {
        #expect(FLICKR_VERSION == "\(FLICKR_VERSION_MAJOR).\(FLICKR_VERSION_MINOR).\(FLICKR_VERSION_PATCH)")
        #expect(LibraryVersion.string == FLICKR_VERSION)
        #expect(LibraryVersion.number == (FLICKR_VERSION_MAJOR << 16) | (FLICKR_VERSION_MINOR << 8) | FLICKR_VERSION_PATCH)
        #expect(LibraryVersion.userAgent == "libflickr/" + FLICKR_VERSION)
    }

    @Test func methodVerbsAndPermissionsMatchHeader() {
        #expect(HTTPRequest.Verb(cValue: FLICKR_GET.rawValue, method: "flickr.photos.delete") == .get)
        #expect(HTTPRequest.Verb(cValue: FLICKR_POST.rawValue, method: "flickr.photos.search") == .post)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.photos.delete") == .post)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.photos.search") == .get)
        #expect(HTTPRequest.Verb(cValue: FLICKR_METHOD_VERB.rawValue, method: "flickr.not.known") == .get)
        #expect(HTTPRequest.Verb(cValue: 3, method: "flickr.photos.search") == nil)
        let permissions: [(MethodCatalogue.Permission, flickr_permission)] = [
            (.none, FLICKR_PERM_NONE), (.read, FLICKR_PERM_READ), (.write, FLICKR_PERM_WRITE),
            (.delete, FLICKR_PERM_DELETE),
        ]
        for (permission, cValue) in permissions {
            #expect(UInt32(permission.rawValue) == cValue.rawValue, "\(permission.name)")
        }
    }
}
