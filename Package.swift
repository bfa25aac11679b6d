// swift-tools-version: 6.1
// SPDX-License-Identifier: MIT
import PackageDescription

// The exported symbols are exactly the flickr_* functions of include/flickr.h:
// the version script hides the Swift runtime and every internal symbol.
let exportFlags: [String] = [
    // lld, because gold copies protected cross-module Swift symbols into .dynsym.
    "-use-ld=lld",
    "-Xlinker", "--version-script=\(Context.packageDirectory)/flickr.map",
    "-Xlinker", "-soname=libflickr.so.0",
]

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// The library's own modules import neither the regex engine (_StringProcessing, _RegexParser) nor
// _Concurrency, so that -static-stdlib does not link them: about 1.4 MB of the stripped .so
// (bench/NOTES.md, "Change 3"). Support/TextSearch.swift stands in for String-in-String search.
let librarySettings: [SwiftSetting] = swiftSettings + [
    .unsafeFlags([
        "-Xfrontend", "-disable-implicit-string-processing-module-import",
        "-Xfrontend", "-disable-implicit-concurrency-module-import",
    ])
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
