/* SPDX-License-Identifier: MIT */
/* mremap(2) is a GNU extension. */
#define _GNU_SOURCE
#include "flickr_shims.h"

#include "../../include/flickr/version.h"

#include <expat.h>
#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
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
 * body instead of 2x (Tests/c/test_answer_memory.c). A block of 2 MiB or more gets pages of its own
 * here, listed in a small table; every other block is malloc's, and while no block is mapped
 * (every small answer) each function is one test and a jump to malloc's own: a header on every
 * block cost 1 k instructions a call (bench/NOTES.md, Change 21). */
#define FLICKR__PAGES_MIN ((size_t)2 << 20) /* PageMemory.threshold */
#define FLICKR__MAPPED_MAX 64

static atomic_size_t flickr__mapped_count;  /* live entries of flickr__mapped */
static pthread_mutex_t flickr__mapped_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    void *block;
    size_t bytes;
} flickr__mapped[FLICKR__MAPPED_MAX];

/* Pages for a new block, listed; NULL when the table is full or no pages are left (then malloc). */
static void *flickr__expat_map(size_t size) {
    void *block = NULL;
    pthread_mutex_lock(&flickr__mapped_lock);
    for (int i = 0; i < FLICKR__MAPPED_MAX; i++) {
        if (flickr__mapped[i].block) continue;
        block = flickr__pages_map(size);
        if (block) {
            flickr__mapped[i].block = block;
            flickr__mapped[i].bytes = size;
            atomic_fetch_add_explicit(&flickr__mapped_count, 1, memory_order_release);
        }
        break;
    }
    pthread_mutex_unlock(&flickr__mapped_lock);
    return block;
}

/* The table's entry for `block`, or -1 (a malloc'd block); call with the lock held. */
static int flickr__expat_entry(const void *block) {
    for (int i = 0; i < FLICKR__MAPPED_MAX; i++)
        if (flickr__mapped[i].block == block) return i;
    return -1;
}

/* The slow paths, out of line so that the fast ones are a test and a jump (no frame). */
__attribute__((noinline)) static void *flickr__expat_malloc_large(size_t size) {
    void *block = flickr__expat_map(size);
    return block ? block : malloc(size);
}

/* Unmaps `block` if it is listed: 1, else 0 (a malloc'd block, or NULL). */
__attribute__((noinline)) static int flickr__expat_unmap(void *block) {
    int i = -1;
    if (!block) return 0;
    pthread_mutex_lock(&flickr__mapped_lock);
    i = flickr__expat_entry(block);
    if (i >= 0) {
        munmap(block, flickr__mapped[i].bytes);
        flickr__mapped[i].block = NULL;
        atomic_fetch_sub_explicit(&flickr__mapped_count, 1, memory_order_release);
    }
    pthread_mutex_unlock(&flickr__mapped_lock);
    return i >= 0;
}

__attribute__((noinline)) static void *flickr__expat_realloc_slow(void *block, size_t size) {
    if (!block) return size >= FLICKR__PAGES_MIN ? flickr__expat_malloc_large(size) : malloc(size);
    if (atomic_load_explicit(&flickr__mapped_count, memory_order_acquire) > 0) {
        pthread_mutex_lock(&flickr__mapped_lock);
        int i = flickr__expat_entry(block);
        void *moved = NULL;
        if (i >= 0) {
            moved = flickr__pages_remap(block, flickr__mapped[i].bytes, size);
            if (moved) {
                flickr__mapped[i].block = moved;
                flickr__mapped[i].bytes = size;
            }
        }
        pthread_mutex_unlock(&flickr__mapped_lock);
        if (i >= 0) return moved;
    }
    if (size >= FLICKR__PAGES_MIN) {
        void *moved = flickr__expat_map(size);
        if (moved) {
            size_t old = malloc_usable_size(block);
            memcpy(moved, block, old < size ? old : size);
            free(block);
            return moved;
        }
    }
    return realloc(block, size);
}

static void *flickr__expat_malloc(size_t size) {
    if (__builtin_expect(size >= FLICKR__PAGES_MIN, 0)) return flickr__expat_malloc_large(size);
    return malloc(size);
}

static void flickr__expat_free(void *block) {
    if (__builtin_expect(atomic_load_explicit(&flickr__mapped_count, memory_order_acquire) != 0, 0) &&
        flickr__expat_unmap(block))
        return;
    free(block);
}

static void *flickr__expat_realloc(void *block, size_t size) {
    if (__builtin_expect(size < FLICKR__PAGES_MIN && block &&
                         atomic_load_explicit(&flickr__mapped_count, memory_order_acquire) == 0, 1))
        return realloc(block, size);
    return flickr__expat_realloc_slow(block, size);
}

static const XML_Memory_Handling_Suite flickr__expat_suite = {
    flickr__expat_malloc, flickr__expat_realloc, flickr__expat_free,
};

const void *flickr__expat_memory(void) { return &flickr__expat_suite; }

void flickr__expat_memory_lock(int lock) {
    if (lock) pthread_mutex_lock(&flickr__mapped_lock);
    else pthread_mutex_unlock(&flickr__mapped_lock);
}

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
