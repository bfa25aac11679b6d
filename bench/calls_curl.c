/* SPDX-License-Identifier: MIT
 *
 * Workload 2 baseline: the least a signed Flickr call can cost from C. One
 * reused libcurl easy handle (keep-alive), each call signed OAuth 1.0a
 * HMAC-SHA1 with OpenSSL (same parameters as libflickr sends: method, api_key,
 * test, oauth_*), the answer discarded unparsed.
 *
 *   calls_curl seq N        (environment as calls_flickr)
 */
#define _GNU_SOURCE
#include <curl/curl.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}
static double tv(struct timeval t) { return t.tv_sec + t.tv_usec / 1e6; }

static const char *env(const char *name) {
    const char *v = getenv(name);
    if (!v) { fprintf(stderr, "%s is not set\n", name); exit(2); }
    return v;
}

/* RFC 3986 percent-encoding into out; returns the length. */
static size_t enc(const char *s, char *out) {
    static const char hex[] = "0123456789ABCDEF";
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-' ||
            *p == '.' || *p == '_' || *p == '~')
            out[o++] = (char)*p;
        else { out[o++] = '%'; out[o++] = hex[*p >> 4]; out[o++] = hex[*p & 15]; }
    }
    out[o] = 0;
    return o;
}

static size_t discard(char *p, size_t size, size_t n, void *u) { (void)p; (void)u; return size * n; }

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv) {
    if (argc != 3 || strcmp(argv[1], "seq")) { fprintf(stderr, "usage: %s seq N\n", argv[0]); return 2; }
    long n = atol(argv[2]);
    const char *key = env("BENCH_KEY"), *secret = env("BENCH_SECRET"), *token = env("BENCH_TOKEN"),
               *token_secret = env("BENCH_TOKEN_SECRET");
    char endpoint[512], enc_endpoint[1536], hmac_key[512], a[256], b[256];
    snprintf(endpoint, sizeof endpoint, "%s/services/rest/", env("BENCH_URL"));
    enc(endpoint, enc_endpoint);
    enc(secret, a);
    enc(token_secret, b);
    snprintf(hmac_key, sizeof hmac_key, "%s&%s", a, b);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURL *h = curl_easy_init();
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, discard);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_USERAGENT, "bench-baseline/1");

    struct rusage r0, r1;
    double t0 = now();
    getrusage(RUSAGE_SELF, &r0);
    for (long i = 0; i < n; i++) {
        unsigned char raw[16];
        char nonce[33], ts[32], params[9][512], *sorted[9], base[4096], query[4096], sig_b64[64], sig_enc[128];
        RAND_bytes(raw, sizeof raw);
        for (int j = 0; j < 16; j++) sprintf(nonce + 2 * j, "%02x", raw[j]);
        snprintf(ts, sizeof ts, "%ld", (long)time(NULL));
        const char *pairs[9][2] = {{"api_key", key}, {"method", "flickr.test.echo"}, {"oauth_consumer_key", key},
                                   {"oauth_nonce", nonce}, {"oauth_signature_method", "HMAC-SHA1"},
                                   {"oauth_timestamp", ts}, {"oauth_token", token}, {"oauth_version", "1.0"},
                                   {"test", "bench"}};
        for (int j = 0; j < 9; j++) {
            size_t o = enc(pairs[j][0], params[j]);
            params[j][o++] = '=';
            enc(pairs[j][1], params[j] + o);
            sorted[j] = params[j];
        }
        qsort(sorted, 9, sizeof *sorted, cmp);
        size_t q = 0;
        for (int j = 0; j < 9; j++) q += (size_t)sprintf(query + q, "%s%s", j ? "&" : "", sorted[j]);
        char enc_query[8192];
        enc(query, enc_query);
        int blen = snprintf(base, sizeof base, "GET&%s&%s", enc_endpoint, enc_query);
        unsigned char mac[EVP_MAX_MD_SIZE];
        unsigned int maclen = 0;
        HMAC(EVP_sha1(), hmac_key, (int)strlen(hmac_key), (unsigned char *)base, (size_t)blen, mac, &maclen);
        EVP_EncodeBlock((unsigned char *)sig_b64, mac, (int)maclen);
        enc(sig_b64, sig_enc);
        char url[8192];
        snprintf(url, sizeof url, "%s?%s&oauth_signature=%s", endpoint, query, sig_enc);
        curl_easy_setopt(h, CURLOPT_URL, url);
        CURLcode rc = curl_easy_perform(h);
        long status = 0;
        curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        if (rc != CURLE_OK || status != 200) {
            fprintf(stderr, "call %ld failed: %s, HTTP %ld\n", i, curl_easy_strerror(rc), status);
            return 1;
        }
    }
    getrusage(RUSAGE_SELF, &r1);
    double wall = now() - t0;
    printf("{\"calls\": %ld, \"wall_s\": %.6f, \"user_s\": %.6f, \"sys_s\": %.6f}\n", n, wall,
           tv(r1.ru_utime) - tv(r0.ru_utime), tv(r1.ru_stime) - tv(r0.ru_stime));
    curl_easy_cleanup(h);
    return 0;
}
