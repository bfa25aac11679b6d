/* SPDX-License-Identifier: MIT
 *
 * libbenchalloc.so: counts heap allocation calls (malloc, calloc, realloc,
 * posix_memalign, aligned_alloc, memalign) process-wide, for the "allocations
 * per photo" column of the parsing workload. Linked first into the C bench
 * programs, or LD_PRELOADed into Python (with PYTHONMALLOC=malloc so that
 * Python's own small objects are counted too). It forwards to glibc's
 * __libc_* entry points, so it adds no allocator of its own.
 *
 *   void bench_alloc_reset(void);                 zero the counter
 *   unsigned long long bench_alloc_count(void);   allocation calls since the reset
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_ullong counter;

void bench_alloc_reset(void) { atomic_store_explicit(&counter, 0, memory_order_relaxed); }
unsigned long long bench_alloc_count(void) { return atomic_load_explicit(&counter, memory_order_relaxed); }

#define COUNT() atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed)

void *malloc(size_t n) { COUNT(); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { COUNT(); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { COUNT(); return __libc_realloc(p, n); }
void free(void *p) { __libc_free(p); }
void *memalign(size_t al, size_t n) { COUNT(); return __libc_memalign(al, n); }
void *aligned_alloc(size_t al, size_t n) { COUNT(); return __libc_memalign(al, n); }
int posix_memalign(void **out, size_t al, size_t n) {
    COUNT();
    void *p = __libc_memalign(al, n);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}
