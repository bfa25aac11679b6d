/* SPDX-License-Identifier: MIT */
/**
 * @file flickr/version.h
 * @brief Compile-time version of the libflickr headers.
 *
 * Compare FLICKR_VERSION_NUM with flickr_version_number() at run time to
 * detect a program built against other headers than the library it loaded.
 *
 * The one place the version is written: CMake, the Swift core (through the C
 * shims), Package.swift and the Python packages all read these lines, so they
 * must stay plain `#define NAME value` lines.
 */
#ifndef FLICKR_VERSION_H
#define FLICKR_VERSION_H

/** The version of these headers, "MAJOR.MINOR.PATCH". @note Added in 0.1. */
#define FLICKR_VERSION "0.5.0"
/** Major version: bumped only on an ABI break (it is the SONAME's number). */
#define FLICKR_VERSION_MAJOR 0
/** Minor version: bumped when API is added. */
#define FLICKR_VERSION_MINOR 5
/** Patch version: bumped for fixes. */
#define FLICKR_VERSION_PATCH 0
/** The version as one number, 0xMMmmpp, comparable with flickr_version_number(). */
#define FLICKR_VERSION_NUM \
    ((FLICKR_VERSION_MAJOR << 16) | (FLICKR_VERSION_MINOR << 8) | FLICKR_VERSION_PATCH)
/** True when these headers are at least version a.b.c. */
#define FLICKR_VERSION_CHECK(a, b, c) (FLICKR_VERSION_NUM >= (((a) << 16) | ((b) << 8) | (c)))

#endif /* FLICKR_VERSION_H */
