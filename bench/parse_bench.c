/* SPDX-License-Identifier: MIT
 *
 * Workload 1 (C side): parses one buffer repeatedly and prints one JSON line.
 *
 *   parse_bench MODE FILE SECONDS PHOTOS
 *
 * MODE: expat     expat alone, empty start/end/character handlers (the floor for a streaming expat parser)
 *       libflickr flickr_response_parse() into the value tree, then flickr_response_free()
 *       libxml2   xmlReadMemory() DOM, then xmlFreeDoc() (what flickcurl does with each answer)
 * Runs at least 5 iterations and at least SECONDS, reports the median iteration,
 * and counts allocation calls of one more iteration (libbenchalloc).
 */
#define _GNU_SOURCE
#include <expat.h>
#include <flickr.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bench_alloc_reset(void);
unsigned long long bench_alloc_count(void);

static char *data;
static size_t size;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void XMLCALL on_start(void *u, const XML_Char *n, const XML_Char **a) { (void)u; (void)n; (void)a; }
static void XMLCALL on_end(void *u, const XML_Char *n) { (void)u; (void)n; }
static void XMLCALL on_text(void *u, const XML_Char *s, int len) { (void)u; (void)s; (void)len; }

static int run_expat(void) {
    XML_Parser p = XML_ParserCreate(NULL);
    XML_SetElementHandler(p, on_start, on_end);
    XML_SetCharacterDataHandler(p, on_text);
    int ok = XML_Parse(p, data, (int)size, 1) == XML_STATUS_OK;
    XML_ParserFree(p);
    return ok;
}

static int run_libflickr(void) {
    flickr_response *r = NULL;
    if (flickr_response_parse(&r, data, size) != FLICKR_OK) return 0;
    flickr_response_free(r);
    return 1;
}

static int run_libxml2(void) {
    xmlDocPtr doc = xmlReadMemory(data, (int)size, "photos.xml", NULL, XML_PARSE_NONET);
    if (!doc) return 0;
    xmlFreeDoc(doc);
    return 1;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: %s expat|libflickr|libxml2 FILE SECONDS PHOTOS\n", argv[0]); return 2; }
    int (*fn)(void) = !strcmp(argv[1], "expat") ? run_expat
                      : !strcmp(argv[1], "libflickr") ? run_libflickr
                      : !strcmp(argv[1], "libxml2") ? run_libxml2 : NULL;
    if (!fn) return 2;
    FILE *f = fopen(argv[2], "rb");
    if (!f) { perror(argv[2]); return 1; }
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    data = malloc(size);
    if (fread(data, 1, size, f) != size) return 1;
    fclose(f);
    double seconds = atof(argv[3]);
    int photos = atoi(argv[4]);
    if (strcmp(argv[1], "libxml2") == 0) xmlInitParser();

    for (int i = 0; i < 3; i++) if (!fn()) { fprintf(stderr, "%s: parse failed\n", argv[1]); return 1; }
    size_t cap = 1 << 16, n = 0;
    double *times = malloc(cap * sizeof *times);
    double start = now();
    while (n < 5 || (now() - start < seconds && n < cap)) {
        double t0 = now();
        fn();
        times[n++] = now() - t0;
    }
    qsort(times, n, sizeof *times, cmp);
    double median = times[n / 2];
    bench_alloc_reset();
    fn();
    unsigned long long allocs = bench_alloc_count();
    printf("{\"mode\": \"%s\", \"bytes\": %zu, \"iterations\": %zu, \"median_s\": %.9f, \"min_s\": %.9f, "
           "\"mb_per_s\": %.3f, \"allocs\": %llu, \"allocs_per_photo\": %.3f}\n",
           argv[1], size, n, median, times[0], size / median / 1e6, allocs, (double)allocs / photos);
    return 0;
}
