/*
 * malloc_count.c - an LD_PRELOAD interposer that counts the calls to malloc,
 * calloc, realloc, posix_memalign and aligned_alloc of a process and writes
 * the count at exit to the file named by $MALLOC_COUNT_OUT ("mallocs N"),
 * and the count when the process first called jansson's json_object()
 * ("before_json N"): 'preflight analyze' makes its output only after its
 * pass over the trace, so that is the count of the pass itself. Lines are
 * appended, one set per process: analyze's pass runs in a child that ends
 * with _exit (pf_isolate), so its before_json line is written when it is
 * noted, and the largest before_json of the file is the pass' (a child
 * inherits its parent's count).
 * The perf scripts run the read floor and 'preflight analyze' under it on a
 * trace and on a quarter of it, so allocations per event after warm-up are
 * (whole - quarter) / (events whole - events quarter), the library's own
 * beside the analysis'.
 *
 * usage: LD_PRELOAD=build/t/malloc_count.so MALLOC_COUNT_OUT=FILE COMMAND...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);
extern void *__libc_memalign(size_t align, size_t size);

static atomic_ulong mc_calls;	/* allocation calls so far */
static atomic_ulong mc_before_json;	/* ... when json_object() was first called, 0 before */

/* mc_note - append "WHAT N" to $MALLOC_COUNT_OUT */
static void mc_note(const char *what, unsigned long n)
{
	const char *path = getenv("MALLOC_COUNT_OUT");
	FILE *f;

	if (!path || !(f = fopen(path, "a")))
		return;
	fprintf(f, "%s %lu\n", what, n);
	fclose(f);
}

/* json_object - jansson's, noting the count at its first call */
void *json_object(void)
{
	static void *(*real)(void);
	unsigned long zero = 0, now = atomic_load(&mc_calls);

	if (atomic_compare_exchange_strong(&mc_before_json, &zero, now))
		mc_note("before_json", now);
	if (!real)
		real = (void *(*)(void))dlsym(RTLD_NEXT, "json_object");
	return real ? real() : NULL;
}

/* malloc, calloc, realloc, posix_memalign, aligned_alloc - glibc's, counted */
void *malloc(size_t size)
{
	atomic_fetch_add_explicit(&mc_calls, 1, memory_order_relaxed);
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	atomic_fetch_add_explicit(&mc_calls, 1, memory_order_relaxed);
	return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
	atomic_fetch_add_explicit(&mc_calls, 1, memory_order_relaxed);
	return __libc_realloc(p, size);
}

int posix_memalign(void **p, size_t align, size_t size)
{
	atomic_fetch_add_explicit(&mc_calls, 1, memory_order_relaxed);
	*p = __libc_memalign(align, size);
	return *p ? 0 : 12;	/* ENOMEM */
}

void *aligned_alloc(size_t align, size_t size)
{
	atomic_fetch_add_explicit(&mc_calls, 1, memory_order_relaxed);
	return __libc_memalign(align, size);
}

/* mc_report - the total at exit, and before_json when json_object() was never called */
__attribute__((destructor)) static void mc_report(void)
{
	unsigned long calls = atomic_load(&mc_calls);

	mc_note("mallocs", calls);
	if (!atomic_load(&mc_before_json))
		mc_note("before_json", calls);
}
