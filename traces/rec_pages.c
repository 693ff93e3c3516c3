/*
 * rec_pages.c - a .dat file's ring-buffer pages decoded directly (see
 * rec_pages.h), the way libtracecmd 1.3 and libtraceevent's kbuffer read
 * them, so that the records are the same.
 *
 * Where the data is (trace-cmd.dat.v6(5)): the header ends with the CPU
 * count and "options  \0"; the options (u16 id, u32 size, the bytes) end
 * with id 0; then "flyrecord\0" and one (u64 offset, u64 size) pair per CPU.
 * A buffer instance is an option BUFFER (u64 offset, its name) whose offset
 * leads to its own "flyrecord\0" and pairs. libtracecmd gives where the
 * options start (tracecmd_get_options_offset) and each CPU's size, which
 * the pairs read here must match.
 *
 * A page (the kernel's header_page): a u64 time stamp, a commit word of the
 * kernel's long (4 or 8 bytes) whose low 27 bits are the bytes of events and
 * whose bits 31 and 30 say events were missed before the page and that
 * their count is stored after the events; then the events, each a u32 of
 * type_len (5 bits) and time_delta (27 bits), low bits first in a
 * little-endian file: type_len 1..28 is a data event of type_len * 4 bytes,
 * 0 one whose length (plus 4) is the next u32, 29 padding (the next u32 its
 * length), 30 a time extend (the next u32 the delta's bits from 27 up), 31
 * an absolute time stamp (the same, the top 5 bits kept from before).
 * Every delta, padding's too, adds to the running time stamp; only a page's
 * first event, when it is a data event, carries the page's missed events
 * (kbuffer_missed_events).
 *
 * rec_pages_open decodes every page once before any record is handed: a
 * page or event out of its bounds refuses the file, which libtracecmd then
 * reads (it would read such a page past its end, or stop the CPU there).
 * Pages are read (pread) a few at a time into one buffer per CPU, reused:
 * no page fault per page as with a mapping, and memory the same for any
 * length of trace.
 */
#define _GNU_SOURCE
#include "rec_pages.h"
#include "rec_tracecmd.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

/* exported by libtracecmd 1.3 but declared in its private header only */
int tracecmd_page_size(struct tracecmd_input *handle);
size_t tracecmd_get_options_offset(struct tracecmd_input *handle);
off_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

#define RP_TYPE_PADDING     29
#define RP_TYPE_TIME_EXTEND 30
#define RP_TYPE_TIME_STAMP  31
#define RP_TS_SHIFT         27
#define RP_TS_MSB           (0xf8ULL << 56)		/* what an absolute time stamp keeps */
#define RP_COMMIT_MASK      ((1u << 27) - 1)
#define RP_MISSED           (1ULL << 31)
#define RP_MISSED_STORED    (1ULL << 30)

/* options of trace-cmd.dat(5) beyond rec_tracecmd.h's (libtracecmd's enum order) */
enum {
	RP_OPTION_PROCMAPS = 10, RP_OPTION_TRACEID, RP_OPTION_TIME_SHIFT, RP_OPTION_GUEST,
	RP_OPTION_TSC2NSEC,
};

/* one CPU of one buffer: where its pages are and where the reading is */
struct rec_pages_cpu {
	uint64_t file_offset;		/* of its first page */
	uint32_t npages, page;		/* its pages; the one being read */
	uint8_t *buf;			/* pages read ahead, reused */
	uint32_t buf_first, buf_n;	/* the first of them (its index), how many */
	const uint8_t *data;		/* that page's events (after its header) */
	uint32_t size;			/* their bytes (the commit) */
	uint32_t next;			/* the next event's offset in data (kbuffer's 'next') */
	uint64_t ts;			/* the time stamp running through the page */
	long long lost;			/* the page's missed events: 0, the count, -1 unknown */
	bool live;			/* rec holds this CPU's next record */
	struct tep_record rec;		/* that record, reused */
};

struct rec_pages {
	int fd;				/* the file */
	uint64_t file_size;		/* bytes */
	uint32_t buf_pages;		/* pages read ahead per CPU */
	uint32_t page_size;		/* bytes of a ring-buffer page */
	uint32_t hdr;			/* bytes of its header: 8 + the kernel's long */
	int long_size;			/* the kernel's long: the commit word's bytes */
	long long ts_offset;		/* options DATE and OFFSET, as libtracecmd adds them */
	int n;				/* CPUs of every buffer, in the merge's order */
	struct rec_pages_cpu *c;
};

/* rp_why - fill 'why' and return -EOPNOTSUPP */
static int rp_why(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

static inline uint32_t rp_rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static inline uint64_t rp_rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

/* rp_pread - n bytes of the file at 'at' into p: true when all were read */
static bool rp_pread(const struct rec_pages *pg, uint64_t at, void *p, size_t n)
{
	size_t got = 0;
	ssize_t r;

	if (at > pg->file_size || n > pg->file_size - at)
		return false;
	while (got < n) {
		r = pread(pg->fd, (char *)p + got, n - got, (off_t)(at + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

/*
 * rp_page_load - start reading page 'k' of c (read ahead with the pages
 * after it when it is not in c->buf): false when it cannot be read or
 * breaks the ring buffer's bounds
 */
static bool rp_page_load(const struct rec_pages *pg, struct rec_pages_cpu *c, uint32_t k)
{
	uint32_t room = pg->page_size - pg->hdr;
	const uint8_t *p;
	uint64_t flags;

	if (k < c->buf_first || k >= c->buf_first + c->buf_n) {
		c->buf_n = c->npages - k < pg->buf_pages ? c->npages - k : pg->buf_pages;
		c->buf_first = k;
		if (!rp_pread(pg, c->file_offset + (uint64_t)k * pg->page_size, c->buf, (size_t)c->buf_n * pg->page_size)) {
			c->buf_n = 0;
			return false;
		}
	}
	p = c->buf + (size_t)(k - c->buf_first) * pg->page_size;
	flags = pg->long_size == 8 ? rp_rd64(p + 8) : rp_rd32(p + 8);
	c->page = k;
	c->data = p + pg->hdr;
	c->ts = rp_rd64(p);
	c->size = (uint32_t)flags & RP_COMMIT_MASK;
	c->next = 0;
	c->lost = 0;
	if (c->size > room)
		return false;
	if (flags & RP_MISSED) {
		if (!(flags & RP_MISSED_STORED))
			c->lost = -1;
		else if (c->size + (uint32_t)pg->long_size > room)
			return false;
		else	/* an int, as kbuffer_missed_events returns it */
			c->lost = (int)(pg->long_size == 8 ? rp_rd64(c->data + c->size) : rp_rd32(c->data + c->size));
	}
	return true;
}

/*
 * rp_next - the next record of c into c->rec (c->live false at the end):
 * 0, or -1 when a page cannot be read or an event or page breaks its bounds
 */
static int rp_next(const struct rec_pages *pg, struct rec_pages_cpu *c)
{
	uint32_t room = pg->page_size - pg->hdr, curr, w, index, len;
	const uint8_t *e;

	for (;;) {
		curr = c->next;
		if (curr >= c->size) {
			c->live = false;
			if (c->page + 1 >= c->npages)
				return 0;
			if (!rp_page_load(pg, c, c->page + 1))
				return -1;
			continue;
		}
		if (curr + 4 > room)
			return -1;
		e = c->data + curr;
		w = rp_rd32(e);
		if ((!(w & 31) || (w & 31) >= RP_TYPE_PADDING) && curr + 8 > room)
			return -1;	/* no room for the word after the header */
		switch (w & 31) {
		case RP_TYPE_PADDING:
			len = rp_rd32(e + 4);
			if (len > room)
				return -1;
			c->ts += w >> 5;
			c->next = curr + 4 + len;
			continue;
		case RP_TYPE_TIME_EXTEND:
			c->ts += ((uint64_t)rp_rd32(e + 4) << RP_TS_SHIFT) + (w >> 5);
			c->next = curr + 8;
			continue;
		case RP_TYPE_TIME_STAMP:
			c->ts = (((uint64_t)rp_rd32(e + 4) << RP_TS_SHIFT) + (w >> 5)) | (c->ts & RP_TS_MSB);
			c->next = curr + 8;
			continue;
		case 0:
			len = rp_rd32(e + 4);
			if (len < 4 || len - 4 > room)
				return -1;
			len = (len - 4 + 3) & ~3u;
			index = curr + 8;
			break;
		default:
			len = (w & 31) * 4;
			index = curr + 4;
			break;
		}
		if (index + len > room)
			return -1;
		c->ts += w >> 5;
		c->next = index + len;
		c->rec.ts = c->ts + (unsigned long long)pg->ts_offset;
		c->rec.data = (void *)(uintptr_t)(c->data + index);
		c->rec.size = (int)len;
		c->rec.record_size = (int)(c->next - curr);
		c->rec.offset = c->file_offset + (uint64_t)c->page * pg->page_size + pg->hdr + curr;
		c->rec.missed_events = curr ? 0 : c->lost;
		c->live = true;
		return 0;
	}
}

/* rp_rewind - back to c's first record: 0, or -1 when its first page cannot be read */
static int rp_rewind(const struct rec_pages *pg, struct rec_pages_cpu *c)
{
	c->live = false;
	if (!c->npages)
		return 0;
	if (!rp_page_load(pg, c, 0))
		return -1;
	return rp_next(pg, c);
}

/* rp_check - decode every record of c once, then rewind: 0, or -1 at the first page or event it cannot read */
static int rp_check(const struct rec_pages *pg, struct rec_pages_cpu *c)
{
	if (rp_rewind(pg, c))
		return -1;
	while (c->live)
		if (rp_next(pg, c))
			return -1;
	return rp_rewind(pg, c);
}

/* rp_options - the options from 'at' (after "options  \0"): the offset after them, or 0 (why said) */
static uint64_t rp_options(struct rec_pages *pg, uint64_t at, uint64_t *bufoff, int maxbuf, int *nbuf,
			   char *why, size_t whylen)
{
	uint8_t head[6], val[64];
	uint16_t id;
	uint32_t size;

	for (;;) {
		if (!rp_pread(pg, at, head, 2))
			return rp_why(why, whylen, "its options run past its end"), 0;
		memcpy(&id, head, 2);
		if (!id)
			return at + 2;
		if (!rp_pread(pg, at, head, 6))
			return rp_why(why, whylen, "its options run past its end"), 0;
		size = rp_rd32(head + 2);
		at += 6;
		if (at > pg->file_size || size > pg->file_size - at)
			return rp_why(why, whylen, "option %u runs past its end", id), 0;
		switch (id) {
		case REC_TCMD_OPTION_CPUSTAT: case REC_TCMD_OPTION_TRACECLOCK: case REC_TCMD_OPTION_UNAME:
		case REC_TCMD_OPTION_VERSION: case REC_TCMD_OPTION_HOOK: case RP_OPTION_PROCMAPS:
		case RP_OPTION_TRACEID: case RP_OPTION_GUEST:
			break;	/* nothing of the CPU data */
		case REC_TCMD_OPTION_DATE:
		case REC_TCMD_OPTION_OFFSET:
			/* strtoll of the text, the date in microseconds: what libtracecmd adds to every time stamp */
			if (size >= sizeof(val) || !rp_pread(pg, at, val, size))
				return rp_why(why, whylen, "option %u is too long", id), 0;
			val[size] = '\0';
			pg->ts_offset += strtoll((char *)val, NULL, 0) * (id == REC_TCMD_OPTION_DATE ? 1000 : 1);
			break;
		case REC_TCMD_OPTION_BUFFER:
			if (size < 10 || size > sizeof(val) || !rp_pread(pg, at, val, size) ||
			    !memchr(val + 8, '\0', size - 8) || !val[8])
				return rp_why(why, whylen, "a BUFFER option it does not know"), 0;
			if (*nbuf >= maxbuf)
				return rp_why(why, whylen, "more than %d buffer instances", maxbuf), 0;
			bufoff[(*nbuf)++] = rp_rd64(val);
			break;
		default:	/* the time shift or TSC conversion of a guest's trace, a CPU count, unknown */
			return rp_why(why, whylen, "option %u", id), 0;
		}
		at += size;
	}
}

/* rp_flyrecord - the CPU pairs after "flyrecord\0" at 'at' into c[0..ncpus-1]: 0 or -EOPNOTSUPP */
static int rp_flyrecord(struct rec_pages *pg, uint64_t at, int ncpus, struct rec_pages_cpu *c,
			struct tracecmd_input *h, char *why, size_t whylen)
{
	uint8_t pair[16];
	uint64_t off, size;
	int cpu;

	if (!rp_pread(pg, at, pair, 10) || memcmp(pair, "flyrecord", 10))
		return rp_why(why, whylen, "no flyrecord section where its options end");
	at += 10;
	for (cpu = 0; cpu < ncpus; cpu++, at += 16) {
		if (!rp_pread(pg, at, pair, 16))
			return rp_why(why, whylen, "its CPU list runs past its end");
		off = rp_rd64(pair);
		size = rp_rd64(pair + 8);
		if ((off_t)size != tracecmd_get_cpu_file_size(h, cpu))
			return rp_why(why, whylen, "CPU %d's data is not where libtracecmd reads it", cpu);
		if (!size)
			continue;
		if (off % pg->page_size || size % pg->page_size || off > pg->file_size || size > pg->file_size - off ||
		    size / pg->page_size >= UINT32_MAX)
			return rp_why(why, whylen, "CPU %d's data is not in whole pages within the file", cpu);
		c[cpu].file_offset = off;
		c[cpu].npages = (uint32_t)(size / pg->page_size);
	}
	return 0;
}

/* rp_layout - the file's layout: page size, long, options and every CPU's pages; 0 or -EOPNOTSUPP / -ENOMEM */
static int rp_layout(struct rec_pages *pg, struct tracecmd_input **hs, const int *bufidx, int nh,
		     char *why, size_t whylen)
{
	struct tep_handle *tep = tracecmd_get_tep(hs[0]);
	uint64_t opt = tracecmd_get_options_offset(hs[0]), at, bufoff[64];
	int ncpus = tracecmd_cpus(hs[0]), nbuf = 0, k, i, ret;
	uint8_t head[18], cpus[14];

	if (!rp_pread(pg, 0, head, sizeof(head)) || memcmp(head, "\027\010Dtracing6", 12))
		return rp_why(why, whylen, "not a version 6 file");
	if (head[12] != (BYTE_ORDER == BIG_ENDIAN) || !tep ||
	    tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep))
		return rp_why(why, whylen, "its byte order is not this machine's");
	pg->page_size = (uint32_t)tracecmd_page_size(hs[0]);
	pg->long_size = tep_get_header_page_size(tep);
	pg->hdr = 8 + (uint32_t)pg->long_size;
	if (pg->page_size != rp_rd32(head + 14) || pg->page_size < 64 || pg->page_size > (1u << 27) ||
	    (pg->page_size & (pg->page_size - 1)))
		return rp_why(why, whylen, "a page size of %u bytes", pg->page_size);
	if ((pg->long_size != 4 && pg->long_size != 8) || tep_get_header_timestamp_size(tep) != 8)
		return rp_why(why, whylen, "a ring-buffer page header it does not know");
	if (opt < 14 || !rp_pread(pg, opt - 14, cpus, sizeof(cpus)) || memcmp(cpus + 4, "options  ", 10) ||
	    (int)rp_rd32(cpus) != ncpus || ncpus < 1)
		return rp_why(why, whylen, "no options section after its CPU count");
	at = rp_options(pg, opt, bufoff, (int)(sizeof(bufoff) / sizeof(bufoff[0])), &nbuf, why, whylen);
	if (!at)
		return -EOPNOTSUPP;
	/* pages read ahead: 64 KiB per CPU, less with many (2 MiB in all), never less than one page */
	pg->buf_pages = (uint32_t)((2u << 20) / ((size_t)ncpus * nh) / pg->page_size);
	if (pg->buf_pages > (64u << 10) / pg->page_size)
		pg->buf_pages = (64u << 10) / pg->page_size;
	if (!pg->buf_pages)
		pg->buf_pages = 1;
	pg->n = ncpus * nh;
	pg->c = calloc((size_t)pg->n, sizeof(*pg->c));
	if (!pg->c)
		return -ENOMEM;
	for (i = 0; i < pg->n; i++)
		if (!(pg->c[i].buf = malloc((size_t)pg->buf_pages * pg->page_size)))
			return -ENOMEM;
	for (k = 0; k < nh; k++) {
		uint8_t tag[10];

		if (tracecmd_cpus(hs[k]) != ncpus)
			return rp_why(why, whylen, "a buffer of another CPU count");
		if (k && (bufidx[k] < 0 || bufidx[k] >= nbuf))
			return rp_why(why, whylen, "a buffer instance it cannot place");
		at = k ? bufoff[bufidx[k]] : at;
		if (k && rp_pread(pg, at, tag, 10) && !memcmp(tag, "options  ", 10))
			return rp_why(why, whylen, "options of its own in buffer instance %d", bufidx[k]);
		ret = rp_flyrecord(pg, at, ncpus, pg->c + (size_t)k * ncpus, hs[k], why, whylen);
		if (ret)
			return ret;
		for (i = 0; i < ncpus; i++)
			pg->c[(size_t)k * ncpus + i].rec.cpu = i;
	}
	return 0;
}

int rec_pages_open(struct rec_pages **out, int fd, struct tracecmd_input **hs, const int *bufidx, int nh,
		   char *why, size_t whylen)
{
	struct rec_pages *pg = calloc(1, sizeof(*pg));
	struct stat st;
	int i, ret;

	*out = NULL;
	if (!pg)
		return -ENOMEM;
	pg->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (pg->fd < 0 || fstat(pg->fd, &st)) {
		ret = rp_why(why, whylen, "%s", strerror(errno));
		goto out;
	}
	pg->file_size = (uint64_t)st.st_size;
	posix_fadvise(pg->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	ret = rp_layout(pg, hs, bufidx, nh, why, whylen);
	for (i = 0; !ret && i < pg->n; i++)
		if (rp_check(pg, &pg->c[i]))
			ret = rp_why(why, whylen, "CPU %d of buffer %d: a page it cannot read, or a page or event out "
				     "of its bounds (file offset %llu)", pg->c[i].rec.cpu, i / (pg->n / nh),
				     (unsigned long long)(pg->c[i].file_offset + (uint64_t)pg->c[i].page * pg->page_size));
out:
	if (ret) {
		rec_pages_close(pg);
		return ret;
	}
	*out = pg;
	return 0;
}

int rec_pages_iterate(struct rec_pages *pg, rec_pages_fn fn, void *data)
{
	struct rec_pages_cpu *c = pg->c;
	unsigned long long ts;
	int i, best, ret;

	for (;;) {
		best = -1;
		ts = 0;
		for (i = 0; i < pg->n; i++)
			if (c[i].live && (best < 0 || c[i].rec.ts < ts)) {
				best = i;
				ts = c[i].rec.ts;
			}
		if (best < 0)
			return 0;
		ret = fn(NULL, &c[best].rec, best, data);
		if (ret < 0)
			return ret;
		if (rp_next(pg, &c[best]))
			c[best].live = false;	/* read and checked by rec_pages_open: not reached */
	}
}

void rec_pages_close(struct rec_pages *pg)
{
	int i;

	if (!pg)
		return;
	if (pg->fd >= 0)
		close(pg->fd);
	for (i = 0; pg->c && i < pg->n; i++)
		free(pg->c[i].buf);
	free(pg->c);
	free(pg);
}
