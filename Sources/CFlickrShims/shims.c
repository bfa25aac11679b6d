/* SPDX-License-Identifier: MIT */
#include "flickr_shims.h"

#include "../../include/flickr/version.h"

#include <stdint.h>

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
