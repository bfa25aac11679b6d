// swift-tools-version: 6.1
// SPDX-License-Identifier: MIT
import Foundation
import PackageDescription

/// The flags of cmake/<name>: one per line, "#" comments; shared with CMake and scripts/fuzz.sh.
func sharedFlags(_ name: String) -> [String] {
    let path = Context.packageDirectory + "/cmake/" + name
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
        fatalError("cannot read \(path)")
    }
    return text.split(separator: "\n").flatMap { line -> [String] in
        let flags = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return flags.split(separator: " ").map(String.init)
    }
}

/// FLICKR_VERSION_MAJOR of include/flickr/version.h, the one place the version is written: the
/// SONAME's number.
func headerMajorVersion() -> String {
    let path = Context.packageDirectory + "/include/flickr/version.h"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fatalError("cannot read \(path)") }
    for line in text.split(separator: "\n") where line.hasPrefix("#define FLICKR_VERSION_MAJOR ") {
        if let major = line.split(separator: " ").last, Int(major) != nil { return String(major) }
    }
    fatalError("\(path) has no FLICKR_VERSION_MAJOR line")
}

// The exported symbols are exactly the flickr_* functions of include/flickr.h:
// the version script hides the Swift runtime and every internal symbol.
let exportFlags: [String] = [
    // lld, because gold copies protected cross-module Swift symbols into .dynsym.
    "-use-ld=lld",
    "-Xlinker", "--version-script=\(Context.packageDirectory)/flickr.map",
    "-Xlinker", "-soname=libflickr.so.\(headerMajorVersion())",
]

// cmake/swift-flags.txt: the language of every module; swift-library-flags.txt: the library's
// own modules only (no regex engine, no concurrency runtime: the file says why).
let swiftSettings: [SwiftSetting] = [.unsafeFlags(sharedFlags("swift-flags.txt"))]
let librarySettings: [SwiftSetting] = [
    .unsafeFlags(sharedFlags("swift-flags.txt") + sharedFlags("swift-library-flags.txt"))
]

let package = Package(
    name: "libflickr",
    products: [
        // libflickr.so with the static standard library (CMake's FLICKR_EMBEDDED_SWIFT=OFF). By
        // default CMake compiles the same modules with Embedded Swift instead
        // (cmake/EmbeddedLibrary.cmake); `swift test` always builds them here.
        .library(name: "flickr", type: .dynamic, targets: ["Flickr"])
    ],
    targets: [
        // The hand-written public header, imported so that @c @implementation checks against it.
        .target(name: "CFlickr", path: "Sources/CFlickr"),
        // System libraries: libcurl (HTTP), expat (streaming XML), libcrypto (HMAC-SHA1, MD5, random).
        .systemLibrary(name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl"),
        .systemLibrary(name: "CExpat", path: "Sources/CExpat", pkgConfig: "expat"),
        .systemLibrary(name: "COpenSSL", path: "Sources/COpenSSL", pkgConfig: "libcrypto"),
        // Typed wrappers for libcurl's variadic setopt/getinfo.
        .target(name: "CFlickrShims", dependencies: ["CCurl"], path: "Sources/CFlickrShims"),
        .target(
            name: "FlickrCore",
            dependencies: ["CCurl", "CExpat", "COpenSSL", "CFlickrShims"],
            path: "Sources/FlickrCore",
            swiftSettings: librarySettings
        ),
        .target(
            name: "Flickr",
            dependencies: ["CFlickr", "FlickrCore"],
            path: "Sources/Flickr",
            swiftSettings: librarySettings,
            linkerSettings: [.unsafeFlags(exportFlags)]
        ),
        .testTarget(
            name: "FlickrCoreTests",
            dependencies: ["FlickrCore", "CFlickr"],
            path: "Tests/FlickrCoreTests",
            swiftSettings: swiftSettings
        ),
    ]
)
