/* SPDX-License-Identifier: MIT */
/* Typed wrappers for libcurl's variadic calls, which Swift cannot call.
 * Hidden visibility: none of these reach libflickr's export list. */
#ifndef FLICKR_SHIMS_H
#define FLICKR_SHIMS_H

#include <curl/curl.h>

#define FLICKR_SHIM __attribute__((visibility("hidden")))

FLICKR_SHIM CURLcode flickr__easy_setopt_long(CURL *handle, CURLoption option, long value);
FLICKR_SHIM CURLcode flickr__easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
FLICKR_SHIM CURLcode flickr__easy_setopt_ptr(CURL *handle, CURLoption option, const void *value);
FLICKR_SHIM CURLcode flickr__easy_setopt_write(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
FLICKR_SHIM CURLcode flickr__easy_setopt_read(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
FLICKR_SHIM CURLcode flickr__easy_setopt_header(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *));
FLICKR_SHIM CURLcode flickr__easy_setopt_xferinfo(CURL *handle,
                                                  int (*fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t));
FLICKR_SHIM CURLcode flickr__easy_setopt_seek(CURL *handle, int (*fn)(void *, curl_off_t, int));
FLICKR_SHIM CURLcode flickr__easy_getinfo_long(CURL *handle, CURLINFO info, long *out);
FLICKR_SHIM CURLcode flickr__easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out);
FLICKR_SHIM CURLcode flickr__easy_getinfo_string(CURL *handle, CURLINFO info, char **out);
FLICKR_SHIM CURLcode flickr__easy_getinfo_ptr(CURL *handle, CURLINFO info, void **out);
FLICKR_SHIM CURLMcode flickr__multi_setopt_long(CURLM *multi, CURLMoption option, long value);

/* Fuzzing only (scripts/fuzz.sh): the transfer talks over `fd`, already connected (one end of a
 * socketpair holding a scripted answer), on a fresh connection that is never reused, reading
 * `read_size` bytes at a time (so the answer arrives in other pieces). */
FLICKR_SHIM CURLcode flickr__easy_use_socket(CURL *handle, int fd, long read_size);

/* getrandom(2) (sys/random.h is not in Swift's Glibc module): bytes read, or -1 with errno set. */
FLICKR_SHIM long flickr__getrandom(void *buffer, size_t length);

/* Anonymous private pages for large buffers (Support/PageMemory.swift): mmap, mremap (which may
 * move them, never copying their bytes) and munmap; NULL on failure (mremap is variadic). */
FLICKR_SHIM void *flickr__pages_map(size_t bytes);
FLICKR_SHIM void *flickr__pages_remap(void *pages, size_t old_bytes, size_t new_bytes);
FLICKR_SHIM void flickr__pages_unmap(void *pages, size_t bytes);

/* expat's memory functions (an XML_Memory_Handling_Suite, typed void here so that expat's header
 * stays CExpat's): malloc's, except that a block of 2 MiB or more gets pages of its own. */
FLICKR_SHIM const void *flickr__expat_memory(void);
/* Locks (1) or unlocks (0) that suite's table of mapped blocks: around a fork (ForkGuard.swift). */
FLICKR_SHIM void flickr__expat_memory_lock(int lock);

/* FLICKR_VERSION and FLICKR_VERSION_NUM of include/flickr/version.h, compiled here so that the
 * header is the one place the version is written (the string has static storage). */
FLICKR_SHIM const char *flickr__version_string(void);
FLICKR_SHIM int flickr__version_number(void);

#endif
