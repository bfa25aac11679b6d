// SPDX-License-Identifier: MIT

// What Swift's Glibc overlay provides and the Embedded Swift build of libflickr.so lacks:
// that build imports the C library through Sources/EmbeddedGlibc, whose macros and variadic
// functions Swift cannot see. The normal build (and `swift test`) uses the overlay instead.
//
// A rule for every class in the library: its designated initializer never throws or fails.
// Embedded Swift's runtime (6.3) does not free an object whose initializer throws after the
// allocation (swift_deallocPartialClassInstance only destroys its fields), so fallible classes
// validate in a convenience initializer and delegate once nothing can fail.
// Tests/c/check_embedded_objects.py (ctest) fails the build's tests when one does.
#if hasFeature(Embedded)
import Glibc

/// The calling thread's `errno`.
package var errno: Int32 {
    get { flickr__errno_get() }
    set { flickr__errno_set(newValue) }
}

func open(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    flickr__open(path, flags, mode)
}

func openat(_ directory: Int32, _ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    flickr__openat(directory, path, flags, mode)
}

func fcntl(_ descriptor: Int32, _ command: Int32, _ lock: UnsafeMutablePointer<flock>) -> Int32 {
    flickr__fcntl_lock(descriptor, command, lock)
}

// <sys/stat.h>'s file type bits (macros Swift does not import as mode_t).
let S_IFMT = mode_t(0o170000)
let S_IFREG = mode_t(0o100000)
let S_IFDIR = mode_t(0o040000)
#endif
