# SPDX-License-Identifier: MIT
# libflickr.so through SwiftPM with the whole static standard library (FLICKR_EMBEDDED_SWIFT=OFF):
# for toolchains without the embedded standard library, or a C library older than glibc 2.36.
set(FLICKR_SWIFT_SCRATCH ${CMAKE_BINARY_DIR}/swiftpm)

set(FLICKR_SWIFTPM_FLAGS "")
if(FLICKR_SANITIZER)
    list(APPEND FLICKR_SWIFTPM_FLAGS --sanitize=${FLICKR_SANITIZER})
endif()
# Relative relocations packed as DT_RELR (about 350 KB less .so and less work for the loader at
# dlopen), where the C library can load them: glibc 2.36 or later.
if(FLICKR_GLIBC_2_36)
    list(APPEND FLICKR_SWIFTPM_FLAGS -Xlinker -z -Xlinker pack-relative-relocs)
endif()

# SwiftPM tracks its own dependencies, so it runs on every build and returns
# at once when nothing changed. -static-stdlib makes the .so self-contained.
add_custom_target(flickr_swift ALL
    COMMAND ${SWIFT_EXECUTABLE} build -c release
            --package-path ${CMAKE_SOURCE_DIR}
            --scratch-path ${FLICKR_SWIFT_SCRATCH}
            --product flickr
            -Xswiftc -static-stdlib ${FLICKR_SWIFTPM_FLAGS}
    COMMAND ${CMAKE_COMMAND} -E copy_if_different
            ${FLICKR_SWIFT_SCRATCH}/release/libflickr.so ${CMAKE_BINARY_DIR}/${FLICKR_REALNAME}
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${FLICKR_REALNAME} ${CMAKE_BINARY_DIR}/${FLICKR_SONAME}
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${FLICKR_SONAME} ${CMAKE_BINARY_DIR}/libflickr.so
    BYPRODUCTS ${CMAKE_BINARY_DIR}/${FLICKR_REALNAME} ${CMAKE_BINARY_DIR}/${FLICKR_SONAME}
               ${CMAKE_BINARY_DIR}/libflickr.so
    WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
    COMMENT "Building libflickr.so with SwiftPM"
    USES_TERMINAL)
