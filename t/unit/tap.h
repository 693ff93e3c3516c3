/*
 * tap.h - the assertion layer of preflight's C unit tests: prints TAP for
 * prove, and on failure both sides of the comparison as '# ' diagnostics.
 *
 *   tap_plan(3);
 *   check_int(h.count, ==, 5, "hist-1.1 count");
 *   check_dbl(mean, 2.5, 1e-9, "hist-1.2 mean");
 *   check_str(name, "io", "config-2.1 task name");
 *   return tap_done();
 *
 * Every description starts with a test id ('hist-1.1') so a failure names
 * its case. Header-only: each unit test is one program.
 */
#ifndef TAP_H
#define TAP_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed, tap_planned;

static inline void tap_plan(int n)
{
	tap_planned = n;
	printf("1..%d\n", n);
}

static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline int tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		tap_failed++;
		printf("#   failed at %s:%d\n", file, line);
	}
	fflush(stdout);
	return pass;
}

static inline void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* tap_done - exit status for main: non-zero when a check failed or the plan was not met */
static inline int tap_done(void)
{
	if (tap_planned && tap_count != tap_planned)
		tap_diag("planned %d tests but ran %d", tap_planned, tap_count);
	return tap_failed || (tap_planned && tap_count != tap_planned);
}

#define check(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

#define check_int(a, op, b, ...) do {						\
	long long tap_a_ = (long long)(a), tap_b_ = (long long)(b);		\
	if (!tap_ok(tap_a_ op tap_b_, __FILE__, __LINE__, __VA_ARGS__))	\
		tap_diag("  %s = %lld, %s = %lld, expected %s %s %s",		\
			 #a, tap_a_, #b, tap_b_, #a, #op, #b);			\
} while (0)

#define check_dbl(a, b, tol, ...) do {						\
	double tap_a_ = (a), tap_b_ = (b);					\
	if (!tap_ok(fabs(tap_a_ - tap_b_) <= (tol), __FILE__, __LINE__, __VA_ARGS__)) \
		tap_diag("  %s = %.9g, %s = %.9g, tolerance %g",		\
			 #a, tap_a_, #b, tap_b_, (double)(tol));		\
} while (0)

#define check_str(a, b, ...) do {						\
	const char *tap_a_ = (a), *tap_b_ = (b);				\
	int tap_p_ = tap_a_ && tap_b_ && !strcmp(tap_a_, tap_b_);		\
	if (!tap_ok(tap_p_, __FILE__, __LINE__, __VA_ARGS__))			\
		tap_diag("  %s = \"%s\", %s = \"%s\"", #a,			\
			 tap_a_ ? tap_a_ : "(null)", #b, tap_b_ ? tap_b_ : "(null)"); \
} while (0)

#endif
