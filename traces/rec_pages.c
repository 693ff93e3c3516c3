/*
 * rec_pages.c - a .dat file's ring-buffer pages decoded directly (see
 * rec_pages.h), the way libtracecmd 1.3 and libtraceevent's kbuffer read
 * them, so that the records are the same.
 *
 * Where the data is in v6 (trace-cmd.dat.v6(5)): the header ends with the
 * CPU count and "options  \0"; the options (u16 id, u32 size, the bytes)
 * end with id 0; then "flyrecord\0" and one (u64 offset, u64 size) pair per
 * CPU (option CPUCOUNT: per its count). A buffer instance is an option BUFFER
 * (u64 offset, its name) whose offset leads to its own "flyrecord\0" and
 * pairs. libtracecmd gives where the options start
 * (tracecmd_get_options_offset) and each CPU's size, which the pairs read
 * here must match.
 *
 * In v7 (trace-cmd.dat.v7(5)): after the page size, the compression's name
 * and version and the first options section's offset; options sections
 * (a u16 id 0, u16 flags, u32 name, u64 size header; the body compressed as
 * one block when flags say so) chained by their DONE option (the next one's
 * offset). Every buffer, the top one too (its name ""), is a BUFFER option:
 * its flyrecord section's offset, name, clock, page size and per CPU its id
 * and where its data is. Compressed, that data is a u32 count of chunks, each
 * two u32 (compressed and uncompressed size) and the compressed bytes of
 * whole pages; libtracecmd uncompresses them (tracecmd_uncompress_chunk, the
 * library's own zstd or zlib, so nothing is linked for them here) and numbers
 * their bytes from a page: the top buffer's CPUs in turn, each from the page
 * after the one before, an instance's after the top buffer's. Record offsets
 * here are the same numbers.
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
 * That check runs on a thread per CPU of the machine (8 at most), each with
 * its own file description and decompression; the merge after it is one
 * thread, as the analysis is.
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
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

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
	RP_OPTION_TSC2NSEC, RP_OPTION_STRINGS, RP_OPTION_HEADER_INFO, RP_OPTION_FTRACE_EVENTS,
	RP_OPTION_EVENT_FORMATS, RP_OPTION_KALLSYMS, RP_OPTION_PRINTK, RP_OPTION_CMDLINES,
};
#define RP_SEC_COMPRESSED 1		/* a v7 section's flag: its body is compressed */
#define RP_MAX_BUFFERS    64
#define RP_MAX_CHUNK      (64u << 20)	/* bytes of a compressed chunk uncompressed, at most */

/* a compressed chunk of a v7 CPU's data */
struct rp_chunk {
	uint64_t zoffset;		/* its header in the file */
	uint32_t zsize, size;		/* bytes compressed, uncompressed (whole pages) */
	uint32_t page0;			/* its first page among the CPU's */
};

/* one CPU of one buffer: where its pages are and where the reading is */
struct rec_pages_cpu {
	uint64_t file_offset;		/* of its first page (v7 compressed: libtracecmd's virtual offset) */
	uint32_t npages, page;		/* its pages; the one being read */
	struct rp_chunk *chunks;	/* v7 compressed: its chunks, else NULL */
	uint32_t nchunks;
	struct tracecmd_compression *z;	/* what uncompresses them: the file's, or a checking thread's */
	uint8_t *buf;			/* pages read ahead or a chunk uncompressed, reused */
	uint32_t buf_first, buf_n;	/* the first of them (its index), how many */
	const uint8_t *data;		/* that page's events (after its header) */
	uint32_t size;			/* their bytes (the commit) */
	uint32_t next;			/* the next event's offset in data (kbuffer's 'next') */
	uint64_t ts;			/* the time stamp running through the page */
	long long lost;			/* the page's missed events: 0, the count, -1 unknown */
	bool live;			/* rec holds this CPU's next record */
	struct tep_record rec;		/* that record, reused */
};

/* a buffer as its BUFFER option (v7: and its CPUs) gives it */
struct rp_buffer {
	uint64_t offset;		/* v6: its "flyrecord\0"; v7: its flyrecord section */
	uint32_t ncpus;			/* v7: CPU entries */
	struct rp_buffer_cpu { uint32_t cpu; uint64_t offset, size; } *cpu;
};

struct rec_pages {
	int fd;				/* the file */
	uint64_t file_size;		/* bytes */
	int version;			/* of the file: 6 or 7 */
	struct tracecmd_compression *z;	/* v7: libtracecmd's decompression of its chunks */
	char zname[32], zversion[32];	/* its name and version */
	struct tep_handle *tep;
	uint32_t buf_pages;		/* pages read ahead per CPU (not compressed) */
	uint32_t page_size;		/* bytes of a ring-buffer page */
	uint32_t hdr;			/* bytes of its header: 8 + the kernel's long */
	int long_size;			/* the kernel's long: the commit word's bytes */
	long long ts_offset;		/* options DATE and OFFSET, as libtracecmd adds them */
	int cpucount;			/* option CPUCOUNT, 0 none */
	struct rp_buffer top;		/* v7: the top buffer's option ("" its name) */
	bool have_top;
	struct rp_buffer inst[RP_MAX_BUFFERS];	/* the instances, in the order of their options */
	int ninst;
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

/* rp_rd32 - a u32 at p (the file's byte order is ours: rp_layout) */
static inline uint32_t rp_rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* rp_rd64 - a u64 at p */
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

/* rp_fill - page k of c and those after it into c->buf (read ahead, or its chunk uncompressed): false when it cannot */
static bool rp_fill(const struct rec_pages *pg, struct rec_pages_cpu *c, uint32_t k)
{
	struct tracecmd_compress_chunk ch;
	const struct rp_chunk *z;
	uint32_t i;

	c->buf_n = 0;
	if (!c->chunks) {
		c->buf_first = k;
		c->buf_n = c->npages - k < pg->buf_pages ? c->npages - k : pg->buf_pages;
		if (!rp_pread(pg, c->file_offset + (uint64_t)k * pg->page_size, c->buf, (size_t)c->buf_n * pg->page_size))
			return (c->buf_n = 0), false;
		return true;
	}
	for (i = 0; i < c->nchunks && k >= c->chunks[i].page0 + c->chunks[i].size / pg->page_size; i++)
		;
	if (i == c->nchunks)
		return false;
	z = &c->chunks[i];
	ch = (struct tracecmd_compress_chunk){ .size = z->size, .zsize = z->zsize, .zoffset = (off_t)z->zoffset,
					       .offset = (off_t)z->page0 * pg->page_size };
	if (tracecmd_uncompress_chunk(c->z, &ch, (char *)c->buf) < 0)
		return false;
	c->buf_first = z->page0;
	c->buf_n = z->size / pg->page_size;
	return true;
}

/*
 * rp_page_load - start reading page 'k' of c: false when it cannot be read
 * or breaks the ring buffer's bounds
 */
static bool rp_page_load(const struct rec_pages *pg, struct rec_pages_cpu *c, uint32_t k)
{
	uint32_t room = pg->page_size - pg->hdr;
	const uint8_t *p;
	uint64_t flags;

	if ((k < c->buf_first || k >= c->buf_first + c->buf_n) && !rp_fill(pg, c, k))
		return false;
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

/* rp_option - one option (id, its 'size' bytes at v): 0, or -EOPNOTSUPP (why said) for one it does not know */
static int rp_option(struct rec_pages *pg, uint16_t id, const uint8_t *v, uint32_t size, char *why, size_t whylen)
{
	struct rp_buffer *b;
	const uint8_t *end = v + size, *p;
	char num[32];
	uint32_t i;

	switch (id) {
	case REC_TCMD_OPTION_CPUSTAT: case REC_TCMD_OPTION_TRACECLOCK: case REC_TCMD_OPTION_UNAME:
	case REC_TCMD_OPTION_VERSION: case REC_TCMD_OPTION_HOOK: case RP_OPTION_PROCMAPS:
	case RP_OPTION_TRACEID: case RP_OPTION_GUEST: case RP_OPTION_STRINGS: case RP_OPTION_HEADER_INFO:
	case RP_OPTION_FTRACE_EVENTS: case RP_OPTION_EVENT_FORMATS: case RP_OPTION_KALLSYMS:
	case RP_OPTION_PRINTK: case RP_OPTION_CMDLINES:
		return 0;	/* nothing of the CPU data */
	case REC_TCMD_OPTION_CPUCOUNT:	/* v6: the CPUs of the flyrecord sections; v7: each BUFFER option's */
		if (size < 4)
			return rp_why(why, whylen, "option %u it does not know", id);
		pg->cpucount = (int)rp_rd32(v);
		return 0;
	case REC_TCMD_OPTION_DATE:
	case REC_TCMD_OPTION_OFFSET:
		/* strtoll of the text, the date in microseconds: what libtracecmd adds to every time stamp */
		if (size >= sizeof(num))
			return rp_why(why, whylen, "option %u is too long", id);
		memcpy(num, v, size);
		num[size] = '\0';
		pg->ts_offset += strtoll(num, NULL, 0) * (id == REC_TCMD_OPTION_DATE ? 1000 : 1);
		return 0;
	case REC_TCMD_OPTION_BUFFER:
		if (size < 9 || !(p = memchr(v + 8, '\0', size - 8)))
			return rp_why(why, whylen, "a BUFFER option it does not know");
		if (!v[8] && pg->version == 6)
			return rp_why(why, whylen, "a BUFFER option without a name");
		if (!v[8])
			b = &pg->top, pg->have_top = true;
		else if (pg->ninst < RP_MAX_BUFFERS)
			b = &pg->inst[pg->ninst++];
		else
			return rp_why(why, whylen, "more than %d buffer instances", RP_MAX_BUFFERS);
		b->offset = rp_rd64(v);
		if (pg->version == 6)
			return 0;
		/* v7: its clock, page size, CPUs and each CPU's (id, offset, size) */
		if (!(p = memchr(p + 1, '\0', (size_t)(end - p - 1))) || end - p - 1 < 8)
			return rp_why(why, whylen, "a BUFFER option it does not know");
		if (rp_rd32(p + 1) != pg->page_size)
			return rp_why(why, whylen, "a buffer of another page size");
		b->ncpus = rp_rd32(p + 5);
		p += 9;
		if (b->ncpus > (uint32_t)(end - p) / 20)
			return rp_why(why, whylen, "a BUFFER option it does not know");
		free(b->cpu);
		if (b->ncpus && !(b->cpu = calloc(b->ncpus, sizeof(*b->cpu))))
			return -ENOMEM;
		for (i = 0; i < b->ncpus; i++, p += 20) {
			b->cpu[i].cpu = rp_rd32(p);
			b->cpu[i].offset = rp_rd64(p + 4);
			b->cpu[i].size = rp_rd64(p + 12);
		}
		return 0;
	default:	/* the time shift or TSC conversion of a guest's trace, a CPU count, latency text, unknown */
		return rp_why(why, whylen, "option %u", id);
	}
}

/* rp_options_v6 - the options from 'at' (after "options  \0"): the offset after them, or 0 (why said) */
static uint64_t rp_options_v6(struct rec_pages *pg, uint64_t at, char *why, size_t whylen)
{
	uint8_t head[6], *v;
	uint16_t id;
	uint32_t size;
	int ret;

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
		if (!(v = malloc(size ? size : 1)))
			return rp_why(why, whylen, "out of memory"), 0;
		ret = rp_pread(pg, at, v, size) ? rp_option(pg, id, v, size, why, whylen) :
		      rp_why(why, whylen, "option %u runs past its end", id);
		free(v);
		if (ret)
			return 0;
		at += size;
	}
}

/* rp_options_v7 - every options section from the one at 'at', chained by their DONE options: 0 or < 0 (why said) */
static int rp_options_v7(struct rec_pages *pg, uint64_t at, char *why, size_t whylen)
{
	uint8_t sec[16], *v = NULL, *o;
	uint32_t size, osize;
	uint16_t id, flags, oid;
	int n, ret = 0;

	for (n = 0; at && !ret; n++) {
		if (n > 64 || !rp_pread(pg, at, sec, sizeof(sec)))
			return rp_why(why, whylen, "its options sections cannot be read");
		memcpy(&id, sec, 2);
		memcpy(&flags, sec + 2, 2);
		if (id)
			return rp_why(why, whylen, "no options section where one should be");
		if (flags & RP_SEC_COMPRESSED) {
			uint8_t zh[8];

			if (!pg->z || !rp_pread(pg, at + 16, zh, 8) || lseek(pg->fd, (off_t)(at + 16), SEEK_SET) < 0 ||
			    tracecmd_uncompress_block(pg->z))
				return rp_why(why, whylen, "a compressed options section it cannot read");
			size = rp_rd32(zh + 4);
			if (size > RP_MAX_CHUNK || !(v = malloc(size ? size : 1)))
				return rp_why(why, whylen, "an options section too large");
			if (tracecmd_compress_buffer_read(pg->z, (char *)v, (int)size) != (int)size) {
				free(v);
				return rp_why(why, whylen, "a compressed options section it cannot read");
			}
		} else {
			uint64_t s = rp_rd64(sec + 8);

			size = (uint32_t)s;
			if (s > RP_MAX_CHUNK || !(v = malloc(size ? size : 1)) || !rp_pread(pg, at + 16, v, size)) {
				free(v);
				return rp_why(why, whylen, "an options section it cannot read");
			}
		}
		for (o = v, at = 0; !ret; o += 6 + osize) {
			if ((size_t)(o - v) + 6 > size) {
				ret = rp_why(why, whylen, "an options section without its end");
				break;
			}
			memcpy(&oid, o, 2);
			osize = rp_rd32(o + 2);
			if (osize > size - (size_t)(o - v) - 6) {
				ret = rp_why(why, whylen, "option %u runs past its section", oid);
				break;
			}
			if (!oid) {	/* DONE: the next section's offset, 0 none */
				at = osize >= 8 ? rp_rd64(o + 6) : 0;
				break;
			}
			ret = rp_option(pg, oid, o + 6, osize, why, whylen);
		}
		free(v);
		v = NULL;
	}
	return ret;
}

/* rp_flyrecord_v6 - the CPU pairs after "flyrecord\0" at 'at' into c[0..ncpus-1]: 0 or -EOPNOTSUPP */
static int rp_flyrecord_v6(struct rec_pages *pg, uint64_t at, int ncpus, struct rec_pages_cpu *c,
			   struct tracecmd_input *h, char *why, size_t whylen)
{
	uint8_t pair[16];
	int cpu;

	if (!rp_pread(pg, at, pair, 10) || memcmp(pair, "flyrecord", 10))
		return rp_why(why, whylen, "no flyrecord section where its options end");
	at += 10;
	for (cpu = 0; cpu < ncpus; cpu++, at += 16) {
		if (!rp_pread(pg, at, pair, 16))
			return rp_why(why, whylen, "its CPU list runs past its end");
		c[cpu].file_offset = rp_rd64(pair);
		if (rp_rd64(pair + 8) != (uint64_t)tracecmd_get_cpu_file_size(h, cpu))
			return rp_why(why, whylen, "CPU %d's data is not where libtracecmd reads it", cpu);
		if (rp_rd64(pair + 8) % pg->page_size || rp_rd64(pair + 8) / pg->page_size >= UINT32_MAX)
			return rp_why(why, whylen, "CPU %d's data is not in whole pages", cpu);
		c[cpu].npages = (uint32_t)(rp_rd64(pair + 8) / pg->page_size);
	}
	return 0;
}

/* rp_chunks - the chunks of a compressed CPU at 'at' into c (its pages counted): 0 or -EOPNOTSUPP / -ENOMEM */
static int rp_chunks(struct rec_pages *pg, uint64_t at, struct rec_pages_cpu *c, char *why, size_t whylen)
{
	uint8_t h[8];
	uint32_t i, n, pages = 0;

	if (!rp_pread(pg, at, h, 4) || (n = rp_rd32(h)) > (pg->file_size - at) / 8)
		return rp_why(why, whylen, "a CPU's chunks cannot be read");
	if (n && !(c->chunks = calloc(n, sizeof(*c->chunks))))
		return -ENOMEM;
	c->nchunks = n;
	for (i = 0, at += 4; i < n; i++) {
		if (!rp_pread(pg, at, h, 8))
			return rp_why(why, whylen, "a CPU's chunks run past the file's end");
		c->chunks[i] = (struct rp_chunk){ .zoffset = at, .zsize = rp_rd32(h), .size = rp_rd32(h + 4), .page0 = pages };
		if (!c->chunks[i].size || c->chunks[i].size % pg->page_size || c->chunks[i].size > RP_MAX_CHUNK ||
		    c->chunks[i].zsize > pg->file_size - at - 8)
			return rp_why(why, whylen, "a chunk of %u bytes, not whole pages within the file", c->chunks[i].size);
		pages += c->chunks[i].size / pg->page_size;
		at += 8 + c->chunks[i].zsize;
	}
	c->npages = pages;
	return 0;
}

/*
 * rp_buffer_v7 - the CPUs of buffer b into c[0..ncpus-1] as libtracecmd
 * numbers them (by their ids) and, compressed, gives them offsets: each
 * CPU's uncompressed data from *next, the next one's from the page after
 * it. 0 or -EOPNOTSUPP / -ENOMEM
 */
static int rp_buffer_v7(struct rec_pages *pg, const struct rp_buffer *b, int ncpus, struct rec_pages_cpu *c,
			struct tracecmd_input *h, uint64_t *next, char *why, size_t whylen)
{
	const struct rp_buffer_cpu *e;
	uint8_t sec[16];
	uint16_t flags;
	uint64_t size;
	uint32_t i;
	int cpu, ret;

	if (!rp_pread(pg, b->offset, sec, sizeof(sec)))
		return rp_why(why, whylen, "a buffer's flyrecord section cannot be read");
	memcpy(&flags, sec + 2, 2);
	if ((flags & RP_SEC_COMPRESSED) && !pg->z)
		return rp_why(why, whylen, "compressed CPU data without a compression");
	for (i = 0; i < b->ncpus; i++)
		if (b->cpu[i].cpu >= (uint32_t)ncpus || c[b->cpu[i].cpu].file_offset)
			return rp_why(why, whylen, "a buffer's CPU %u it cannot place", b->cpu[i].cpu);
		else
			c[b->cpu[i].cpu].file_offset = UINT64_MAX;	/* taken */
	for (cpu = 0; cpu < ncpus; cpu++) {
		for (i = 0, e = NULL; i < b->ncpus && !e; i++)
			if (b->cpu[i].cpu == (uint32_t)cpu)
				e = &b->cpu[i];
		c[cpu].file_offset = 0;
		if (!e || !e->size) {
			if (tracecmd_get_cpu_file_size(h, cpu) > 0)
				return rp_why(why, whylen, "CPU %d's data is not where libtracecmd reads it", cpu);
			continue;
		}
		if (flags & RP_SEC_COMPRESSED) {
			if ((ret = rp_chunks(pg, e->offset, &c[cpu], why, whylen)))
				return ret;
			size = (uint64_t)c[cpu].npages * pg->page_size;
			c[cpu].file_offset = *next;
			*next = (*next + size + pg->page_size - 1) & ~((uint64_t)pg->page_size - 1);
		} else {
			size = e->size;
			if (e->offset % pg->page_size || size % pg->page_size || e->offset > pg->file_size ||
			    size > pg->file_size - e->offset || size / pg->page_size >= UINT32_MAX)
				return rp_why(why, whylen, "CPU %d's data is not in whole pages within the file", cpu);
			c[cpu].file_offset = e->offset;
			c[cpu].npages = (uint32_t)(size / pg->page_size);
		}
		if ((off_t)size != tracecmd_get_cpu_file_size(h, cpu))
			return rp_why(why, whylen, "CPU %d's data is not where libtracecmd reads it", cpu);
	}
	return 0;
}

/* rp_layout - the file's layout: page size, long, options and every CPU's pages; 0 or -EOPNOTSUPP / -ENOMEM */
static int rp_layout(struct rec_pages *pg, struct tracecmd_input **hs, const int *bufidx, int nh,
		     char *why, size_t whylen)
{
	struct tep_handle *tep = tracecmd_get_tep(hs[0]);
	uint64_t at, next, top_next = 0;
	int k, i, ncpus, ret, pairs = 0;
	uint8_t head[18 + 80];
	struct rec_pages_cpu *c;

	if (!rp_pread(pg, 0, head, 18) || memcmp(head, "\027\010Dtracing", 10) || head[11] ||
	    (head[10] != '6' && head[10] != '7'))
		return rp_why(why, whylen, "not a version 6 or 7 file");
	pg->version = head[10] - '0';
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
	if (pg->version == 6) {
		uint8_t cpus[14];
		uint64_t opt = tracecmd_get_options_offset(hs[0]);

		if (opt < 14 || !rp_pread(pg, opt - 14, cpus, sizeof(cpus)) || memcmp(cpus + 4, "options  ", 10))
			return rp_why(why, whylen, "no options section after its CPU count");
		if (!(at = rp_options_v6(pg, opt, why, whylen)))
			return -EOPNOTSUPP;
		/* the CPUs of each flyrecord section: the header's, or option CPUCOUNT's; libtracecmd's the larger */
		pairs = pg->cpucount ? pg->cpucount : (int)rp_rd32(cpus);
		if (pairs < 1 || tracecmd_cpus(hs[0]) != (pairs > (int)rp_rd32(cpus) ? pairs : (int)rp_rd32(cpus)))
			return rp_why(why, whylen, "a CPU count it does not know");
		pg->top.offset = at;
	} else {
		/* the compression's name and version, then the first options section's offset */
		const char *name = (const char *)head + 18, *ver;
		size_t len = rp_pread(pg, 18, head + 18, sizeof(head) - 18) ? sizeof(head) - 18 : 0;

		if (!memchr(name, '\0', len) || !(ver = name + strlen(name) + 1, memchr(ver, '\0', len - (size_t)(ver - name))) ||
		    (size_t)(ver - name) + strlen(ver) + 1 + 8 > len)
			return rp_why(why, whylen, "a v7 header it does not know");
		at = rp_rd64((const uint8_t *)ver + strlen(ver) + 1);
		if (strcmp(name, "none") && *name && !(pg->z = tracecmd_compress_alloc(name, ver, pg->fd, tep, NULL)))
			return rp_why(why, whylen, "a compression it does not know (%s %s)", name, ver);
		snprintf(pg->zname, sizeof(pg->zname), "%s", name);
		snprintf(pg->zversion, sizeof(pg->zversion), "%s", ver);
		pg->tep = tep;
		if ((ret = rp_options_v7(pg, at, why, whylen)))
			return ret;
		if (!pg->have_top)
			return rp_why(why, whylen, "no BUFFER option of its top buffer");
	}
	for (k = 0, pg->n = 0; k < nh; k++)
		pg->n += tracecmd_cpus(hs[k]) > 0 ? tracecmd_cpus(hs[k]) : 0;
	if (!pg->n || !(pg->c = calloc((size_t)pg->n, sizeof(*pg->c))))
		return pg->n ? -ENOMEM : rp_why(why, whylen, "no CPUs");
	/* pages read ahead uncompressed: 64 KiB per CPU, less with many (2 MiB in all), at least one page */
	pg->buf_pages = (uint32_t)((2u << 20) / (size_t)pg->n / pg->page_size);
	if (pg->buf_pages > (64u << 10) / pg->page_size)
		pg->buf_pages = (64u << 10) / pg->page_size;
	if (!pg->buf_pages)
		pg->buf_pages = 1;
	for (k = 0, c = pg->c; k < nh; c += ncpus, k++) {
		const struct rp_buffer *b = k ? &pg->inst[bufidx[k]] : &pg->top;

		ncpus = tracecmd_cpus(hs[k]);
		if (k && (bufidx[k] < 0 || bufidx[k] >= pg->ninst))
			return rp_why(why, whylen, "a buffer instance it cannot place");
		if (pg->version == 6) {
			uint8_t tag[10];

			if (k && rp_pread(pg, b->offset, tag, 10) && !memcmp(tag, "options  ", 10))
				return rp_why(why, whylen, "options of its own in buffer instance %d", bufidx[k]);
			if (ncpus != tracecmd_cpus(hs[0]))
				return rp_why(why, whylen, "a buffer of another CPU count");
			ret = rp_flyrecord_v6(pg, b->offset, pairs, c, hs[k], why, whylen);
		} else {
			/* libtracecmd's offsets of uncompressed data: the top's from a page, an instance's after the top's */
			next = k ? top_next : pg->page_size;
			ret = rp_buffer_v7(pg, b, ncpus, c, hs[k], &next, why, whylen);
			if (!k)
				top_next = next;
		}
		if (ret)
			return ret;
		for (i = 0; i < ncpus; i++) {
			size_t bytes = c[i].chunks ? 0 : (size_t)pg->buf_pages * pg->page_size;

			for (uint32_t j = 0; j < c[i].nchunks; j++)
				bytes = c[i].chunks[j].size > bytes ? c[i].chunks[j].size : bytes;
			c[i].rec.cpu = i;
			c[i].z = pg->z;
			if (c[i].npages && !(c[i].buf = malloc(bytes)))
				return -ENOMEM;
		}
	}
	return 0;
}

/* the check of every CPU's pages by a few threads (rp_check_all) */
struct rp_checking {
	struct rec_pages *pg;
	int next;			/* the next CPU to check (atomic) */
	int *bad;			/* by CPU: its check failed */
};

/*
 * rp_checker - a thread checking CPUs until none is left: its own file
 * description and decompression (libtracecmd's reads a chunk at the file
 * offset it seeks to)
 */
static void *rp_checker(void *arg)
{
	struct rp_checking *ck = arg;
	struct rec_pages *pg = ck->pg;
	struct tracecmd_compression *z = NULL;
	char path[64];
	int i, fd = -1;

	if (pg->z) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", pg->fd);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		z = fd < 0 ? NULL : tracecmd_compress_alloc(pg->zname, pg->zversion, fd, pg->tep, NULL);
	}
	while ((i = __atomic_fetch_add(&ck->next, 1, __ATOMIC_RELAXED)) < pg->n) {
		pg->c[i].z = z;
		ck->bad[i] = (pg->c[i].chunks && !z) || rp_check(pg, &pg->c[i]);
		pg->c[i].z = pg->z;
	}
	if (z)
		tracecmd_compress_destroy(z);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* rp_check_all - check every CPU's pages, on as many threads as there are CPUs (8 at most): the first bad CPU, or -1 */
static int rp_check_all(struct rec_pages *pg)
{
	struct rp_checking ck = { .pg = pg };
	pthread_t th[8];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int i, nth = online < 1 ? 1 : online > 8 ? 8 : (int)online, started = 0;

	if (nth > pg->n)
		nth = pg->n;
	if (!(ck.bad = calloc((size_t)pg->n, sizeof(*ck.bad))))
		return 0;
	for (i = 1; i < nth; i++)
		if (!pthread_create(&th[started], NULL, rp_checker, &ck))
			started++;
	rp_checker(&ck);
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < pg->n && !ck.bad[i]; i++)
		;
	free(ck.bad);
	return i < pg->n ? i : -1;
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
	if (!ret && (i = rp_check_all(pg)) >= 0)
		ret = rp_why(why, whylen, "CPU %d (merged %d): a page it cannot read, or a page or event out "
			     "of its bounds (offset %llu)", pg->c[i].rec.cpu, i,
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
			return -EIO;	/* checked by rec_pages_open: the file changed since */
	}
}

void rec_pages_close(struct rec_pages *pg)
{
	int i;

	if (!pg)
		return;
	if (pg->z)
		tracecmd_compress_destroy(pg->z);
	if (pg->fd >= 0)
		close(pg->fd);
	for (i = 0; pg->c && i < pg->n; i++) {
		free(pg->c[i].buf);
		free(pg->c[i].chunks);
	}
	free(pg->top.cpu);
	for (i = 0; i < pg->ninst; i++)
		free(pg->inst[i].cpu);
	free(pg->c);
	free(pg);
}
