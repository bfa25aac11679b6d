/* SPDX-License-Identifier: MIT */
#include "flickr_shims.h"

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
