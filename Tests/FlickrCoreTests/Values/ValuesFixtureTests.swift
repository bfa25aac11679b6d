// SPDX-License-Identifier: MIT

import Foundation
import Testing

@testable import FlickrCore

/// Every fixture maps to exactly the JSON the independent reference
/// implementation (Tests/Fixtures/xml/make_expected.py) wrote beside it.
@Suite struct ValuesFixtureTests {
    @Test func fixturesArePresent() {
        let names = ValuesTestSupport.fixtureNames()
        #expect(names.count == 45)
        #expect(names.contains("flickr.interestingness.getList.xml"))
        #expect(names.contains("doc-examples/flickr.photos.getInfo.xml"))
        #expect(names.contains("alt/upload.janko.xml"))
    }

    @Test(arguments: ValuesTestSupport.fixtureNames())
    func fixtureMatchesReference(_ name: String) throws {
        let xml = try ValuesTestSupport.fixture(name)
        let base = ValuesTestSupport.fixturesDirectory.appendingPathComponent(String(name.dropLast(4)))
        let jsonURL = base.appendingPathExtension("json")
        let result: Result<String, FlickrError> = xml.withUnsafeBytes { buffer in
            let tree: ValueTree
            do throws(FlickrError) {
                tree = try XMLMapper.parse(buffer)
            } catch {
                return .failure(error)
            }
            return .success(withExtendedLifetime(tree) { tree.root.json() })
        }
        if FileManager.default.fileExists(atPath: jsonURL.path) {
            let expected = try Data(contentsOf: jsonURL)
            let actual = try result.get()
            #expect(Data(actual.utf8) == expected, "\(name)")
        } else {
            let expected = try String(contentsOf: base.appendingPathExtension("error.txt"), encoding: .utf8)
            #expect(throws: FlickrError(.parse, expected)) { try result.get() }
        }
    }

    @Test func rootNames() throws {
        let rsp = try ValuesTestSupport.fixture("flickr.photos.getInfo.xml")
        let rspTree = try ValuesTestSupport.parse(rsp)
        #expect(rspTree.rootName == "rsp")
        withExtendedLifetime(rspTree) {
            #expect(rspTree.root.member("stat")?.string == "ok")
            #expect(rspTree.root.lookup(path: "photo.title._text")?.string == "Robot")
            #expect(rspTree.root.lookup(path: "photo.title")?.string == "Robot")
        }
        let doc = try ValuesTestSupport.fixture("doc-examples/flickr.photos.getInfo.xml")
        let docTree = try ValuesTestSupport.parse(doc)
        #expect(docTree.rootName == "photo")
        withExtendedLifetime(docTree) {
            #expect(docTree.root.lookup(path: "tags.tag.1.raw")?.string == "hoopla")
            // One <url> in <urls>: still an array (plural rule).
            #expect(docTree.root.lookup(path: "urls.url")?.kind == .array)
            #expect(docTree.root.lookup(path: "urls.url")?.count == 1)
        }
    }

    /// Spot checks of a big real response, independent of the generated JSON.
    @Test func photoList() throws {
        let data = try ValuesTestSupport.fixture("flickr.interestingness.getList.xml")
        let tree = try ValuesTestSupport.parse(data)
        try withExtendedLifetime(tree) {
            let root = tree.root
            #expect(root.kind == .object)
            #expect(String(cString: try #require(root.key(at: 0))) == "stat")
            let photos = try #require(root.lookup(path: "photos.photo"))
            #expect(photos.kind == .array)
            #expect(photos.count == 100)
            #expect(root.lookup(path: "photos.photo.0.id")?.string == "53681747574")
            #expect(root.lookup(path: "photos.photo.0.ownername")?.string == "β r υ η o")
            #expect(root.lookup(path: "photos.page")?.string == "1")
            let first = try #require(photos.element(at: 0))
            #expect(String(cString: try #require(first.key(at: 0))) == "id")
            #expect(String(cString: try #require(first.key(at: 1))) == "owner")
            // The indentation between photos is dropped.
            #expect(root.lookup(path: "photos._text") == nil)
            #expect(root.member("_text") == nil)
        }
    }
}
