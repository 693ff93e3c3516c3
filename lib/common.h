/*
 * common.h - what every preflight program shares: exit codes, one-line error
 * messages, time in nanoseconds and a few small helpers.
 *
 * Time inside preflight is int64_t nanoseconds of CLOCK_MONOTONIC unless a
 * name says otherwise. Errors are one line on stderr:
 * "preflight: <command>: <what>: <why>" (pf_err adds the prefix).
 */
#ifndef PF_COMMON_H
#define PF_COMMON_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

/* The version every program and every file it writes names (make may give it). */
#ifndef PF_VERSION
#define PF_VERSION "0.1.0"
#endif

/* Exit codes of every preflight program (docs/ARCHITECTURE.md). */
enum pf_exit {
	PF_EXIT_OK       = 0,	/* success, all requirements met */
	PF_EXIT_FAILED   = 1,	/* a requirement failed */
	PF_EXIT_USAGE    = 2,	/* usage error or bad input */
	PF_EXIT_ENV      = 3,	/* environment: privilege, tracefs, missing tool */
	PF_EXIT_INTERNAL = 4,	/* internal error */
};

#define PF_NS_PER_US  1000LL
#define PF_NS_PER_MS  1000000LL
#define PF_NS_PER_SEC 1000000000LL

#define PF_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PF_MUST_CHECK __attribute__((warn_unused_result))
#define PF_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* pf_set_prog - set the prefix of error messages, e.g. "preflight: sysinfo" */
void pf_set_prog(const char *prefix);


/* pf_err - print "<prefix>: <message>" as one line on stderr */
void pf_err(const char *fmt, ...) PF_PRINTF(1, 2);

/* pf_fail - pf_err, then return the exit code 'code' (for 'return pf_fail(...)') */
int pf_fail(int code, const char *fmt, ...) PF_PRINTF(2, 3);

/* pf_ts_to_ns - a timespec as nanoseconds */
static inline int64_t pf_ts_to_ns(const struct timespec *ts)
{
	return (int64_t)ts->tv_sec * PF_NS_PER_SEC + ts->tv_nsec;
}

/* pf_ns_to_ts - nanoseconds as a timespec */
static inline struct timespec pf_ns_to_ts(int64_t ns)
{
	struct timespec ts = { ns / PF_NS_PER_SEC, ns % PF_NS_PER_SEC };
	return ts;
}

/* pf_now_ns - CLOCK_MONOTONIC now, in nanoseconds */
static inline int64_t pf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return pf_ts_to_ns(&ts);
}

/* pf_clock_ns - any clock now, in nanoseconds */
static inline int64_t pf_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return pf_ts_to_ns(&ts);
}

/*
 * pf_parse_duration_ns - parse "10ms", "62us", "1.5s", "250ns", "3" (seconds
 * unless 'default_unit_ns' says otherwise) into nanoseconds; 0 or -EINVAL
 */
int pf_parse_duration_ns(const char *text, int64_t default_unit_ns, int64_t *out_ns) PF_MUST_CHECK;

/* what a number written with its unit is (pf_parse_quantity) */
enum pf_qty_kind { PF_QTY_PLAIN, PF_QTY_TIME, PF_QTY_PERCENT };

struct pf_qty {
	double      value;	/* as written, in 'unit' */
	enum pf_qty_kind kind;
	const char *unit;	/* "ns", "us" (also for µs), "ms", "s", "%" or "" */
	double      unit_ns;	/* PF_QTY_TIME: ns per unit */
};

/*
 * pf_parse_quantity - a number and its unit as budgets write them: "62us",
 * "62 µs", "1.5 ms", "60%", "3" (a count, or a number in a metric's own
 * unit). Decimal only (strtod's 0x10 and 1p3 are no budget's), finite; the
 * sign is the caller's to judge. 0; -EINVAL when no number leads; -ENOENT
 * for a unit that is none of ns us µs ms s % (*unit_at points to it)
 */
int pf_parse_quantity(const char *text, struct pf_qty *q, const char **unit_at) PF_MUST_CHECK;

/* pf_parse_long - parse a whole decimal number in [min, max]; 0 or -EINVAL / -ERANGE */
int pf_parse_long(const char *text, long min, long max, long *out) PF_MUST_CHECK;
/* pf_parse_ll - the same for 64 bits on every target (long is 32 bits on armhf) */
int pf_parse_ll(const char *text, long long min, long long max, long long *out) PF_MUST_CHECK;

/*
 * pf_grow - make room for element n of a growing array *arrp (any element
 * type; arrp is the address of the array pointer) whose capacity is *cap,
 * doubling from 'first'; 0 or -ENOMEM (the array is left as it was)
 */
int pf_grow(void *arrp, size_t *cap, size_t n, size_t elem_size, size_t first) PF_MUST_CHECK;

/* pf_read_file - read a whole small file into buf (NUL-terminated, trailing newline cut); bytes or -errno */
int pf_read_file(const char *path, char *buf, size_t size) PF_MUST_CHECK;

/* pf_write_file - write a string to a file (sysfs / tracefs control files); 0 or -errno */
int pf_write_file(const char *path, const char *text) PF_MUST_CHECK;

/* pf_mkdirs - mkdir -p (mode 0755); 0 or -errno */
int pf_mkdirs(const char *path) PF_MUST_CHECK;

/*
 * pf_path_join - "dir/name" into buf; 0, or -ENAMETOOLONG with buf "" when it does not fit
 * (inline: the compiler sees the bound, so the callers' own snprintf()s of the result are
 * checked against it)
 */
static inline PF_MUST_CHECK int pf_path_join(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * pf_utc - time t as UTC text in buf, returned: "2026-12-03T06:30:00Z", or with
 * compact "20261203T063000Z" (for a file name); "" when it does not fit
 */
char *pf_utc(char *buf, size_t size, time_t t, bool compact);

/*
 * pf_fmt_us - nanoseconds as microseconds with one decimal in buf, returned; NaN is a missing
 * value. Text (summary; compare's TAP13, JUnit, JSON and Markdown: plain ASCII) "123.4 us",
 * missing "-"; bare (an HTML cell whose column head names the unit) "123.4", missing "—"
 */
char *pf_fmt_us(char *buf, size_t size, double ns, bool bare);

#endif
