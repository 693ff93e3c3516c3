/*
 * common.c - error messages, number and duration parsing, small file helpers
 * shared by every preflight program. See common.h.
 */
#include "common.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *pf_prefix = "preflight";

void pf_set_prog(const char *prefix)
{
	pf_prefix = prefix;
}

/* pf_verr - print one error line with the program prefix (room for a path of PATH_MAX and why) */
static void pf_verr(const char *fmt, va_list ap)
{
	char line[PATH_MAX + 1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	fprintf(stderr, "%s: %s\n", pf_prefix, line);
}

void pf_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pf_verr(fmt, ap);
	va_end(ap);
}

int pf_fail(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pf_verr(fmt, ap);
	va_end(ap);
	return code;
}

int pf_parse_ll(const char *text, long long min, long long max, long long *out)
{
	char *end;
	long long v;

	if (!text || !*text)
		return -EINVAL;
	errno = 0;
	v = strtoll(text, &end, 10);
	if (*end != '\0' || end == text)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int pf_parse_long(const char *text, long min, long max, long *out)
{
	long long v;
	int ret = pf_parse_ll(text, min, max, &v);

	if (!ret)
		*out = (long)v;
	return ret;
}

int pf_parse_duration_ns(const char *text, int64_t default_unit_ns, int64_t *out_ns)
{
	static const struct { const char *suffix; int64_t ns; } units[] = {
		{ "ns", 1 }, { "us", PF_NS_PER_US }, { "ms", PF_NS_PER_MS },
		{ "s", PF_NS_PER_SEC }, { "min", 60 * PF_NS_PER_SEC },
		{ "h", 3600 * PF_NS_PER_SEC },
	};
	char *end;
	double v;
	int64_t unit = default_unit_ns;
	size_t i;

	if (!text || !*text || isspace((unsigned char)*text))
		return -EINVAL;
	errno = 0;
	v = strtod(text, &end);
	if (end == text || errno == ERANGE || !isfinite(v) || v < 0)
		return -EINVAL;
	if (*end) {
		for (i = 0; i < PF_ARRAY_SIZE(units); i++)
			if (!strcmp(end, units[i].suffix))
				break;
		if (i == PF_ARRAY_SIZE(units))
			return -EINVAL;
		unit = units[i].ns;
	}
	if (v * (double)unit > 9.2e18)
		return -ERANGE;
	*out_ns = (int64_t)llround(v * (double)unit);
	return 0;
}

int pf_parse_quantity(const char *text, struct pf_qty *q, const char **unit_at)
{
	static const struct { const char *name, *unit; double ns; } units[] = {
		{ "ns", "ns", 1 }, { "us", "us", 1e3 }, { "\xc2\xb5s", "us", 1e3 }, { "ms", "ms", 1e6 },
		{ "s", "s", 1e9 },
	};
	const char *s = text;
	char *end;
	size_t i;

	errno = 0;
	q->value = strtod(s, &end);
	if (end == s || errno || !isfinite(q->value) || !(isdigit((unsigned char)*s) || *s == '-' || *s == '.') ||
	    memchr(s, 'x', (size_t)(end - s)) || memchr(s, 'X', (size_t)(end - s)))
		return -EINVAL;
	s = end;
	while (isspace((unsigned char)*s))
		s++;
	*unit_at = s;
	q->kind = PF_QTY_PLAIN;
	q->unit = "";
	q->unit_ns = 1;
	if (!*s)
		return 0;
	if (!strcmp(s, "%")) {
		q->kind = PF_QTY_PERCENT;
		q->unit = "%";
		return 0;
	}
	for (i = 0; i < PF_ARRAY_SIZE(units); i++)
		if (!strcmp(s, units[i].name)) {
			q->kind = PF_QTY_TIME;
			q->unit = units[i].unit;
			q->unit_ns = units[i].ns;
			return 0;
		}
	return -ENOENT;
}

int pf_grow(void *arrp, size_t *cap, size_t n, size_t elem_size, size_t first)
{
	size_t want;
	void *arr;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : first;
	if (want <= n)
		want = n + 1;
	/* the array pointer is copied, not type-punned: any element type is fine */
	memcpy(&arr, arrp, sizeof(arr));
	arr = realloc(arr, want * elem_size);
	if (!arr)
		return -ENOMEM;
	memcpy(arrp, &arr, sizeof(arr));
	*cap = want;
	return 0;
}

int pf_read_file(const char *path, char *buf, size_t size)
{
	ssize_t n;
	size_t len = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			goto out;
		}
		if (n == 0)
			break;
		len += n;
	}
	while (len && buf[len - 1] == '\n')
		len--;
	buf[len] = '\0';
	ret = (int)len;
out:
	close(fd);
	return ret;
}

int pf_write_file(const char *path, const char *text)
{
	size_t len = strlen(text);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

int pf_mkdirs(const char *path)
{
	char buf[PATH_MAX], *p;

	if (snprintf(buf, sizeof(buf), "%s", path) >= (int)sizeof(buf))
		return -ENAMETOOLONG;
	for (p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

char *pf_fmt_us(char *buf, size_t size, double ns, bool bare)
{
	if (isnan(ns))
		snprintf(buf, size, "%s", bare ? "—" : "-");
	else
		snprintf(buf, size, bare ? "%.1f" : "%.1f us", ns / 1e3);
	return buf;
}

char *pf_utc(char *buf, size_t size, time_t t, bool compact)
{
	struct tm tm;

	if (!size)
		return buf;
	if (!gmtime_r(&t, &tm) || !strftime(buf, size, compact ? "%Y%m%dT%H%M%SZ" : "%Y-%m-%dT%H:%M:%SZ", &tm))
		buf[0] = '\0';
	return buf;
}
