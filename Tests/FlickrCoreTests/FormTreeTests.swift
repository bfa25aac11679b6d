// SPDX-License-Identifier: MIT

import Testing

@testable import FlickrCore

@Suite struct FormTreeTests {
    @Test func pairsBecomeStringEntriesInOrder() throws {
        let tree = try ValueTree.object(
            [("fullname", "Jamal Fanaian"), ("oauth_token", "72157626318069415-087bfc7b5816092c"),
             ("user_nsid", "21207597@N07"), ("odd", "<&\"'>\ttab\nline\u{1}")],
            rootName: "oauth")
        #expect(tree.rootName == "oauth")
        #expect(tree.root.json()
            == #"{"fullname":"Jamal Fanaian","oauth_token":"72157626318069415-087bfc7b5816092c","user_nsid":"21207597@N07","odd":"<&\"'>\ttab\nline\#u{FFFD}"}"#)
    }

    @Test func badNamesAndRepeatsAreSkipped() throws {
        let tree = try ValueTree.object([("1bad", "x"), ("a b", "y"), ("ok", "1"), ("ok", "2"), ("", "z")],
                                        rootName: "oauth")
        #expect(tree.root.count == 1)
        #expect(tree.root.member("ok")?.string == "1")
    }
}
