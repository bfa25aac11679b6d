/* SPDX-License-Identifier: MIT */
/* A minimal test harness: each CHECK counts, failures print where and why,
 * and TEST_MAIN_END prints "N passed, N failed" and sets the exit status. */
#ifndef FLICKR_TEST_HARNESS_H
#define FLICKR_TEST_HARNESS_H

#include <stdio.h>
#include <string.h>

static int harness_passed, harness_failed;

#define CHECK(cond)                                                                  \
    do {                                                                             \
        if (cond) {                                                                  \
            harness_passed++;                                                        \
        } else {                                                                     \
            harness_failed++;                                                        \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                                  \
    do {                                                                                    \
        long long harness_a = (long long)(a), harness_b = (long long)(b);                   \
        if (harness_a == harness_b) {                                                       \
            harness_passed++;                                                               \
        } else {                                                                            \
            harness_failed++;                                                               \
            fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, \
                    #b, harness_a, harness_b);                                              \
        }                                                                                   \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                                       \
    do {                                                                                         \
        const char *harness_a = (a), *harness_b = (b);                                           \
        if (harness_a && harness_b && strcmp(harness_a, harness_b) == 0) {                       \
            harness_passed++;                                                                    \
        } else {                                                                                 \
            harness_failed++;                                                                    \
            fprintf(stderr, "%s:%d: %s == %s failed: \"%s\" != \"%s\"\n", __FILE__, __LINE__, #a, \
                    #b, harness_a ? harness_a : "(null)", harness_b ? harness_b : "(null)");     \
        }                                                                                        \
    } while (0)

#define TEST_MAIN_END()                                                 \
    do {                                                                \
        printf("%d passed, %d failed\n", harness_passed, harness_failed); \
        return harness_failed == 0 ? 0 : 1;                             \
    } while (0)

#endif
