/* SPDX-License-Identifier: MIT
 *
 * Workload 6's large answers (bench/server.c, `method=flickr.bench.body`), also served by
 * Tests/c/test_answer_memory.c: about `target` bytes of one shape, "comment" (one comment),
 * "text" (one element's text) or "elements" (photo elements with attributes, like a search page).
 */
#ifndef FLICKR_BENCH_BIG_ANSWERS_H
#define FLICKR_BENCH_BIG_ANSWERS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t len, cap;
} big_answer;

static void big_answer_put(big_answer *a, const char *s, size_t n) {
    if (a->len + n > a->cap) {
        a->cap = (a->len + n) * 2;
        a->data = realloc(a->data, a->cap);
        if (!a->data) abort();
    }
    memcpy(a->data + a->len, s, n);
    a->len += n;
}

static void big_answer_puts(big_answer *a, const char *s) { big_answer_put(a, s, strlen(s)); }

/* Appends the answer to `a`; 0 if the shape is unknown. */
static int big_answer_make(big_answer *a, const char *shape, size_t target) {
    size_t end = a->len + target;
    int comment = !strcmp(shape, "comment");
    if (!comment && strcmp(shape, "text") && strcmp(shape, "elements")) return 0;
    big_answer_puts(a, "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<rsp stat=\"ok\">\n");
    if (comment || !strcmp(shape, "text")) {
        static const char line[] = "the quick brown fox jumps over the lazy dog 0123456789\n";
        big_answer_puts(a, comment ? "<!--" : "<text>");
        while (a->len < end) big_answer_put(a, line, sizeof line - 1);
        big_answer_puts(a, comment ? "-->\n" : "</text>\n");
    } else {
        char line[512];
        big_answer_puts(a, "<photos page=\"1\" pages=\"1\" perpage=\"500\" total=\"500\">\n");
        for (long i = 0; a->len < end; i++) {
            int n = snprintf(line, sizeof line,
                             "<photo id=\"%ld\" owner=\"12037949754@N01\" secret=\"0a1b2c3d4e\" server=\"65535\" "
                             "farm=\"66\" title=\"Photo number %ld\" ispublic=\"1\" isfriend=\"0\" isfamily=\"0\" "
                             "dateupload=\"1700000000\" tags=\"bench sample streaming\" />\n", 52000000000L + i, i);
            big_answer_put(a, line, (size_t)n);
        }
        big_answer_puts(a, "</photos>\n");
    }
    big_answer_puts(a, "</rsp>\n");
    return 1;
}

#endif
