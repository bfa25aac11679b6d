# SPDX-License-Identifier: MIT
# libflickr.so with Embedded Swift (FLICKR_EMBEDDED_SWIFT=ON, the default on glibc 2.36+).
#
# swiftc compiles each Swift module whole (-wmo) in Embedded mode, so the standard library code
# the library uses is compiled into it, specialized, and nothing else is: no runtime metadata,
# no reflection, no static libswiftCore.a. The toolchain's clang links the two modules, the C
# shims and the embedded Unicode tables with lld; flickr.map exports the flickr_* functions only.
# Embedded Swift has no value existentials, key paths or weak references: the sources avoid them
# (Operation is class-bound; RequestHandle finds itself through the registry). The C library
# comes in through Sources/EmbeddedGlibc, which stands in for the toolchain's Glibc overlay.
find_program(SWIFTC_EXECUTABLE swiftc REQUIRED)
get_filename_component(FLICKR_SWIFTC_REAL ${SWIFTC_EXECUTABLE} REALPATH)
get_filename_component(FLICKR_TOOLCHAIN_BIN ${FLICKR_SWIFTC_REAL} DIRECTORY)
set(FLICKR_LINKER_DRIVER ${FLICKR_TOOLCHAIN_BIN}/clang)
set(FLICKR_EMBEDDED_TRIPLE ${CMAKE_SYSTEM_PROCESSOR}-unknown-linux-gnu)
set(FLICKR_EMBEDDED_LIBDIR ${FLICKR_TOOLCHAIN_BIN}/../lib/swift/embedded/${FLICKR_EMBEDDED_TRIPLE})
if(NOT EXISTS ${FLICKR_EMBEDDED_LIBDIR}/libswiftUnicodeDataTables.a)
    message(FATAL_ERROR "This Swift toolchain has no embedded standard library for "
        "${FLICKR_EMBEDDED_TRIPLE} (${FLICKR_EMBEDDED_LIBDIR}); configure with "
        "-DFLICKR_EMBEDDED_SWIFT=OFF to build with SwiftPM and the static standard library.")
endif()

find_package(PkgConfig REQUIRED)
pkg_check_modules(FLICKR_DEPS REQUIRED libcurl expat libcrypto)

set(FLICKR_SWIFT_OUT ${CMAKE_BINARY_DIR}/embedded)
file(MAKE_DIRECTORY ${FLICKR_SWIFT_OUT})

# The flags every build shares (Package.swift and scripts/fuzz.sh read the same files).
set(FLICKR_SHARED_SWIFT_FLAGS)
foreach(flag_file swift-flags.txt swift-library-flags.txt)
    file(STRINGS ${CMAKE_SOURCE_DIR}/cmake/${flag_file} flag_lines)
    foreach(line ${flag_lines})
        string(REGEX REPLACE "#.*" "" line "${line}")
        separate_arguments(line_flags UNIX_COMMAND "${line}")
        list(APPEND FLICKR_SHARED_SWIFT_FLAGS ${line_flags})
    endforeach()
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${CMAKE_SOURCE_DIR}/cmake/swift-flags.txt ${CMAKE_SOURCE_DIR}/cmake/swift-library-flags.txt)

set(FLICKR_SWIFT_FLAGS
    -target ${FLICKR_EMBEDDED_TRIPLE}
    -enable-experimental-feature Embedded
    -wmo -parse-as-library -g
    # Each function in its own section: both modules emit the standard library code they use
    # (Array, String, sorting...) as weak definitions, and lld keeps one copy of each only when
    # it can drop sections; --gc-sections then also drops what nothing reaches. Without it the
    # stripped library was 1,424 KiB, about 500 KiB of that second copies (bench/NOTES.md, Change 15).
    -Xfrontend -function-sections
    # No unwind tables for the C headers' inline functions: one that clang marks uwtable, kept out
    # of line by a function compiled for size, makes LLVM put every function's frame information
    # in .eh_frame (110 KB of the stripped .so) instead of the .debug_frame that strip removes.
    -Xcc -fno-asynchronous-unwind-tables
    -package-name libflickr
    ${FLICKR_SHARED_SWIFT_FLAGS}
    -I ${CMAKE_SOURCE_DIR}/Sources/EmbeddedGlibc
    -I ${CMAKE_SOURCE_DIR}/Sources/CCurl
    -I ${CMAKE_SOURCE_DIR}/Sources/CExpat
    -I ${CMAKE_SOURCE_DIR}/Sources/COpenSSL
    -I ${CMAKE_SOURCE_DIR}/Sources/CFlickrShims/include
    -I ${CMAKE_SOURCE_DIR}/Sources/CFlickr/include
    -I ${FLICKR_SWIFT_OUT})
foreach(dir ${FLICKR_DEPS_INCLUDE_DIRS})
    list(APPEND FLICKR_SWIFT_FLAGS -Xcc -I${dir})
endforeach()
if(FLICKR_WARNINGS_AS_ERRORS)
    list(APPEND FLICKR_SWIFT_FLAGS -warnings-as-errors)
endif()
# FlickrCore holds every hot path (signing, the transfer, the XML mapper) and is compiled for speed;
# its cold files (harvest, budget files, photos and cache, OAuth flows, uploads' setup) mark each
# function @_optimize(size). Flickr, the C entry points, is compiled for size: mostly argument
# checks, handle tables and messages. Both keep flickr_call's instructions and the 500-photo parse
# unchanged and take 61 KB off the stripped .so (bench/NOTES.md, Change 22); the whole library at
# -Osize would be 5% more instructions a call.
set(FLICKR_CORE_OPTIMIZE -O)
set(FLICKR_API_OPTIMIZE -Osize)
set(FLICKR_LINK_EXTRA "")
if(FLICKR_SANITIZER)
    # The runtime comes with the sanitized executable that loads the library.
    list(APPEND FLICKR_SWIFT_FLAGS -sanitize=${FLICKR_SANITIZER})
else()
    list(APPEND FLICKR_LINK_EXTRA -Wl,-z,defs)  # every symbol resolved at link time
endif()
if(FLICKR_GLIBC_2_36)
    list(APPEND FLICKR_LINK_EXTRA -Wl,-z,pack-relative-relocs)
endif()

file(GLOB_RECURSE FLICKR_CORE_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/Sources/FlickrCore/*.swift)
file(GLOB_RECURSE FLICKR_API_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/Sources/Flickr/*.swift)
file(GLOB FLICKR_MODULE_MAPS CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/Sources/*/module.modulemap ${CMAKE_SOURCE_DIR}/Sources/*/*.h
    ${CMAKE_SOURCE_DIR}/Sources/*/include/*)
file(GLOB_RECURSE FLICKR_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/include/*.h)

# FlickrCore's interface first (type-checking only), so that Flickr compiles beside FlickrCore's code.
add_custom_command(
    OUTPUT ${FLICKR_SWIFT_OUT}/FlickrCore.swiftmodule
    COMMAND ${SWIFTC_EXECUTABLE} ${FLICKR_SWIFT_FLAGS} ${FLICKR_CORE_OPTIMIZE} -module-name FlickrCore
            -emit-module -emit-module-path ${FLICKR_SWIFT_OUT}/FlickrCore.swiftmodule ${FLICKR_CORE_SOURCES}
    DEPENDS ${FLICKR_CORE_SOURCES} ${FLICKR_MODULE_MAPS}
    COMMENT "Emitting the FlickrCore module (Embedded Swift)"
    VERBATIM)

add_custom_command(
    OUTPUT ${FLICKR_SWIFT_OUT}/FlickrCore.o
    COMMAND ${SWIFTC_EXECUTABLE} ${FLICKR_SWIFT_FLAGS} ${FLICKR_CORE_OPTIMIZE} -module-name FlickrCore
            -c -o ${FLICKR_SWIFT_OUT}/FlickrCore.o ${FLICKR_CORE_SOURCES}
    DEPENDS ${FLICKR_CORE_SOURCES} ${FLICKR_MODULE_MAPS}
    COMMENT "Compiling FlickrCore (Embedded Swift)"
    VERBATIM)

add_custom_command(
    OUTPUT ${FLICKR_SWIFT_OUT}/Flickr.o
    COMMAND ${SWIFTC_EXECUTABLE} ${FLICKR_SWIFT_FLAGS} ${FLICKR_API_OPTIMIZE} -module-name Flickr
            -c -o ${FLICKR_SWIFT_OUT}/Flickr.o ${FLICKR_API_SOURCES}
    DEPENDS ${FLICKR_API_SOURCES} ${FLICKR_SWIFT_OUT}/FlickrCore.swiftmodule ${FLICKR_MODULE_MAPS}
            ${FLICKR_PUBLIC_HEADERS}
    COMMENT "Compiling Flickr, the C entry points (Embedded Swift)"
    VERBATIM)

# libcurl's variadic setopt/getinfo behind typed C functions; built with the project's C flags
# (so the sanitizer builds instrument it too).
add_library(flickr_shims OBJECT ${CMAKE_SOURCE_DIR}/Sources/CFlickrShims/shims.c)
set_target_properties(flickr_shims PROPERTIES POSITION_INDEPENDENT_CODE ON)
target_include_directories(flickr_shims PRIVATE ${CMAKE_SOURCE_DIR}/Sources/CFlickrShims/include
                                                ${FLICKR_DEPS_INCLUDE_DIRS})

add_custom_command(
    OUTPUT ${CMAKE_BINARY_DIR}/${FLICKR_REALNAME}
    COMMAND ${FLICKR_LINKER_DRIVER} -shared -fuse-ld=lld
            -o ${CMAKE_BINARY_DIR}/${FLICKR_REALNAME}
            ${FLICKR_SWIFT_OUT}/FlickrCore.o ${FLICKR_SWIFT_OUT}/Flickr.o $<TARGET_OBJECTS:flickr_shims>
            -Wl,--version-script=${CMAKE_SOURCE_DIR}/flickr.map -Wl,-soname=${FLICKR_SONAME}
            -Wl,--gc-sections -Wl,--build-id ${FLICKR_LINK_EXTRA}
            -L${FLICKR_EMBEDDED_LIBDIR} -lswiftUnicodeDataTables
            ${FLICKR_DEPS_LDFLAGS} -lm -lpthread
    DEPENDS ${FLICKR_SWIFT_OUT}/FlickrCore.o ${FLICKR_SWIFT_OUT}/Flickr.o $<TARGET_OBJECTS:flickr_shims>
            flickr_shims ${CMAKE_SOURCE_DIR}/flickr.map
    COMMENT "Linking libflickr.so"
    VERBATIM)

add_custom_target(flickr_swift ALL
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${FLICKR_REALNAME} ${CMAKE_BINARY_DIR}/${FLICKR_SONAME}
    COMMAND ${CMAKE_COMMAND} -E create_symlink ${FLICKR_SONAME} ${CMAKE_BINARY_DIR}/libflickr.so
    DEPENDS ${CMAKE_BINARY_DIR}/${FLICKR_REALNAME}
    BYPRODUCTS ${CMAKE_BINARY_DIR}/${FLICKR_SONAME} ${CMAKE_BINARY_DIR}/libflickr.so)
