/* SPDX-License-Identifier: MIT */
/* mremap(2) is a GNU extension. */
#define _GNU_SOURCE
#include "flickr_shims.h"

#include "../../include/flickr/version.h"

#include <expat.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>
#include <sys/random.h>

CURLcode flickr__easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode flickr__easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode flickr__easy_setopt_ptr(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}
CURLcode flickr__easy_setopt_write(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, fn);
}
CURLcode flickr__easy_setopt_read(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_READFUNCTION, fn);
}
CURLcode flickr__easy_setopt_header(CURL *handle, size_t (*fn)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, fn);
}
CURLcode flickr__easy_setopt_xferinfo(CURL *handle, int (*fn)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, fn);
}
CURLcode flickr__easy_setopt_seek(CURL *handle, int (*fn)(void *, curl_off_t, int)) {
    return curl_easy_setopt(handle, CURLOPT_SEEKFUNCTION, fn);
}
CURLcode flickr__easy_getinfo_long(CURL *handle, CURLINFO info, long *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode flickr__easy_getinfo_off(CURL *handle, CURLINFO info, curl_off_t *out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode flickr__easy_getinfo_string(CURL *handle, CURLINFO info, char **out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLcode flickr__easy_getinfo_ptr(CURL *handle, CURLINFO info, void **out) {
    return curl_easy_getinfo(handle, info, out);
}
CURLMcode flickr__multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

long flickr__getrandom(void *buffer, size_t length) {
    return (long)getrandom(buffer, length, 0);
}

void *flickr__pages_map(size_t bytes) {
    void *pages = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return pages == MAP_FAILED ? NULL : pages;
}

void *flickr__pages_remap(void *pages, size_t old_bytes, size_t new_bytes) {
    void *moved = mremap(pages, old_bytes, new_bytes, MREMAP_MAYMOVE);
    return moved == MAP_FAILED ? NULL : moved;
}

void flickr__pages_unmap(void *pages, size_t bytes) {
    if (pages) munmap(pages, bytes);
}

/* expat's buffer holds the longest unfinished token (a 32 MiB comment: all of it) and grows by
 * malloc, copy and free. From glibc's heap (once a freed large block has raised its mmap
 * threshold) every size it passed through stays in the process: a second such answer cost 3x its
 * body instead of 2x (Tests/c/test_answer_memory.c). Each block carries its size and origin. */
typedef struct {
    size_t bytes;  /* the block's, header included */
    size_t mapped;
} flickr__block;

#define FLICKR__PAGES_MIN ((size_t)1 << 20)

static void *flickr__expat_malloc(size_t size) {
    flickr__block *block;
    if (size > SIZE_MAX - sizeof *block) return NULL;
    size += sizeof *block;
    block = size >= FLICKR__PAGES_MIN ? flickr__pages_map(size) : malloc(size);
    if (!block) return NULL;
    block->bytes = size;
    block->mapped = size >= FLICKR__PAGES_MIN;
    return block + 1;
}

static void flickr__expat_free(void *pointer) {
    flickr__block *block = pointer ? (flickr__block *)pointer - 1 : NULL;
    if (!block) return;
    if (block->mapped) munmap(block, block->bytes);
    else free(block);
}

static void *flickr__expat_realloc(void *pointer, size_t size) {
    flickr__block *block = pointer ? (flickr__block *)pointer - 1 : NULL, *moved;
    if (!block) return flickr__expat_malloc(size);
    if (size > SIZE_MAX - sizeof *block) return NULL;
    size += sizeof *block;
    if (block->mapped) {
        moved = flickr__pages_remap(block, block->bytes, size);
    } else if (size >= FLICKR__PAGES_MIN) {
        moved = flickr__pages_map(size);
        if (moved) {
            memcpy(moved, block, block->bytes);
            free(block);
        }
    } else {
        moved = realloc(block, size);
    }
    if (!moved) return NULL;
    moved->bytes = size;
    moved->mapped = moved->mapped || size >= FLICKR__PAGES_MIN;
    return moved + 1;
}

static const XML_Memory_Handling_Suite flickr__expat_suite = {
    flickr__expat_malloc, flickr__expat_realloc, flickr__expat_free,
};

const void *flickr__expat_memory(void) { return &flickr__expat_suite; }

static curl_socket_t flickr__given_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)purpose;
    (void)address;
    return (curl_socket_t)(intptr_t)clientp;
}
static int flickr__already_connected(void *clientp, curl_socket_t fd, curlsocktype purpose) {
    (void)clientp;
    (void)fd;
    (void)purpose;
    return CURL_SOCKOPT_ALREADY_CONNECTED;
}
CURLcode flickr__easy_use_socket(CURL *handle, int fd, long read_size) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, flickr__given_socket);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_OPENSOCKETDATA, (void *)(intptr_t)fd);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_SOCKOPTFUNCTION, flickr__already_connected);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_FRESH_CONNECT, 1L);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_FORBID_REUSE, 1L);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_BUFFERSIZE, read_size);
    return code;
}

const char *flickr__version_string(void) {
    return FLICKR_VERSION;
}
int flickr__version_number(void) {
    return FLICKR_VERSION_NUM;
}
