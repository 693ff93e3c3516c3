/*
 * rec_cut.c - reading what a cut-short trace-cmd file holds (see rec_cut.h).
 *
 * v6: the magic, "6", endianness, long size and page size, the headers
 * (formats, kallsyms, printk, command lines), the CPU count, options, then
 * "flyrecord\0" followed by one (offset, size) pair of little-endian u64 per
 * CPU, and the CPU data from the next page. libtracecmd refuses a file whose
 * pairs point past its end; a private copy says instead what is there, so
 * every whole page written is read.
 *
 * v7 (trace-cmd.dat.v7(5)): after the page size, the compression's name and
 * version and the offset of the first options section; then sections, each
 * a header (u16 id, u16 flags, u32 name, u64 size) and its body. The header
 * sections come first, then options sections chained by their last option
 * (DONE: the offset of the next), then the flyrecord section (id 3) whose CPU
 * data, one block per CPU from a page boundary, is a u32 count of chunks and
 * the chunks (u32 compressed size, u32 uncompressed size, the compressed
 * bytes). The index of that data (option BUFFER: where each CPU's block is)
 * is written last, in the final options section, so a file cut anywhere
 * before its end has none and libtracecmd cannot open it. The private copy
 * walks the blocks instead: each CPU's whole chunks before the cut (its count
 * set to them), and an options section appended with the BUFFER option they
 * make, which the last whole options section's DONE now leads to. The CPUs
 * are numbered in the order of their blocks: an empty CPU has no block
 * (trace-cmd writes none), so after one the numbers are a guess; the note
 * says so when the file shows it (fewer blocks than CPUs, all whole).
 */
#define _GNU_SOURCE
#include "rec_cut.h"
#include "rec_read.h"
#include "rec_tracecmd.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define REC_CUT_MAGIC6 "\027\010Dtracing6"
#define REC_CUT_MAGIC7 "\027\010Dtracing7"
#define REC_CUT_WHY "(cut short: power loss or a full disk); read as far as it goes"

/* a mapped .dat file */
struct rec_cut_map {
	const unsigned char *p;
	uint64_t size;			/* bytes */
};

static uint16_t rec_rd16(const struct rec_cut_map *m, uint64_t at)
{
	uint16_t v;

	memcpy(&v, m->p + at, 2);
	return le16toh(v);
}

static uint32_t rec_rd32(const struct rec_cut_map *m, uint64_t at)
{
	uint32_t v;

	memcpy(&v, m->p + at, 4);
	return le32toh(v);
}

static uint64_t rec_rd64(const struct rec_cut_map *m, uint64_t at)
{
	uint64_t v;

	memcpy(&v, m->p + at, 8);
	return le64toh(v);
}

/* rec_cut_map_open - map 'path' read-only; its fd, or -errno (-EINVAL: too short) */
static int rec_cut_map_open(const char *path, struct rec_cut_map *m)
{
	struct stat st;
	void *p;
	int fd;

	m->p = NULL;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size < 1) {
		close(fd);
		return -EINVAL;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		close(fd);
		return -EINVAL;
	}
	m->p = p;
	m->size = (uint64_t)st.st_size;
	return fd;
}

/* rec_cut_map_close - undo rec_cut_map_open */
static void rec_cut_map_close(struct rec_cut_map *m, int fd)
{
	if (m->p)
		munmap((void *)m->p, m->size);
	close(fd);
}

/*
 * rec_cut_tmpcopy - an unnamed temporary file in $TMPDIR (or /tmp) holding
 * the first 'size' bytes of fd: its fd, or -errno
 */
static int rec_cut_tmpcopy(int fd, uint64_t size)
{
	const char *tmpdir = getenv("TMPDIR");
	loff_t from = 0;
	ssize_t n;
	int out;

	out = open(tmpdir && *tmpdir ? tmpdir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (out < 0)
		return -errno;
	while ((uint64_t)from < size) {
		n = copy_file_range(fd, &from, out, NULL, (size_t)(size - (uint64_t)from), 0);
		if (n <= 0) {
			n = n < 0 ? -errno : -EIO;
			close(out);
			return (int)n;
		}
	}
	return out;
}

/* rec_cut_pairs - the offset of a v6 file's valid per-CPU (offset, size) pairs, or -1 */
static long long rec_cut_pairs(const unsigned char *map, size_t len, int ncpus, uint32_t page)
{
	const unsigned char *p = map;
	uint64_t off, prev, first;
	size_t at;
	int cpu;

	while ((p = memmem(p, len - (size_t)(p - map), "flyrecord", 10))) {
		at = (size_t)(p - map) + 10;
		p++;
		if (at + 16 * (size_t)ncpus > len)
			continue;
		memcpy(&first, map + at, 8);
		first = le64toh(first);
		if (first != ((at + 16 * (uint64_t)ncpus + page - 1) / page) * page)
			continue;	/* the data starts on the page after the pairs */
		for (cpu = 0, prev = 0; cpu < ncpus; cpu++) {
			memcpy(&off, map + at + 16 * (size_t)cpu, 8);
			off = le64toh(off);
			if (off % page || off < prev)
				break;
			prev = off;
		}
		if (cpu == ncpus)
			return (long long)at;
	}
	return -1;
}

/*
 * rec_cut_v6 - for a v6 file whose per-CPU data runs past its end: a private
 * copy in which each CPU's data is what the file holds, in whole pages; its
 * fd, with the file's size and the size its headers declare in cut, or
 * -errno (-EINVAL: not such a file)
 */
static int rec_cut_v6(const char *path, int ncpus, struct rec_cut *cut)
{
	struct rec_cut_map m;
	unsigned char pair[16];
	uint64_t off, len, keep, end = 0;
	long long at;
	uint32_t page;
	int fd, out = -1, cpu, ret = -EINVAL;

	if (ncpus < 1)
		return -EINVAL;
	if ((fd = rec_cut_map_open(path, &m)) < 0)
		return fd;
	if (m.size < 64 || memcmp(m.p, REC_CUT_MAGIC6, 11) || m.p[11] != '\0' || m.p[12] != 0)
		goto out;	/* v6, little-endian only */
	page = rec_rd32(&m, 14);
	if (page < 1024 || page > (1 << 20) || (page & (page - 1)))
		goto out;
	at = rec_cut_pairs(m.p, m.size, ncpus, page);
	if (at < 0)
		goto out;
	if ((out = rec_cut_tmpcopy(fd, m.size)) < 0) {
		ret = out;
		goto out;
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		off = rec_rd64(&m, (uint64_t)at + 16 * cpu);
		len = rec_rd64(&m, (uint64_t)at + 16 * cpu + 8);
		if (off + len > end)
			end = off + len;
		keep = off >= m.size ? 0 : m.size - off;
		keep = (keep < len ? keep : len) / page * page;	/* whole pages only */
		off = htole64(off);
		keep = htole64(keep);
		memcpy(pair, &off, 8);
		memcpy(pair + 8, &keep, 8);
		if (pwrite(out, pair, 16, at + 16 * cpu) != 16) {
			ret = -EIO;
			goto out;
		}
	}
	if (end <= m.size)
		goto out;	/* nothing is missing: another fault, not a cut */
	cut->have = (int64_t)m.size;
	cut->declared = (int64_t)end;
	snprintf(cut->note, sizeof(cut->note), "truncated: the file ends at byte %lld of the %lld its "
		 "headers declare " REC_CUT_WHY, (long long)cut->have, (long long)cut->declared);
	ret = out;
	out = -1;
out:
	if (out >= 0)
		close(out);
	rec_cut_map_close(&m, fd);
	return ret;
}

/* one CPU's block of compressed chunks in a v7 file */
struct rec_v7_block {
	uint64_t off;			/* its u32 count of chunks */
	uint64_t len;			/* the whole chunks' bytes after the count */
	uint32_t whole;			/* how many whole chunks */
	uint32_t count;			/* how many the file says */
};

/* what rec_v7_scan finds in a v7 file */
struct rec_v7 {
	uint32_t page;			/* bytes */
	uint64_t patch;			/* the DONE offset that leads past the end, 0: none */
	uint32_t opt_name;		/* the string id naming the options sections */
	bool chain_cut;			/* the options chain leads past the end */
	uint64_t fly;			/* the flyrecord section's header, 0: none */
	bool fly_z;			/* its CPU data is compressed */
	int ncpus;			/* option CPUCOUNT, 0: none */
	char clock[32];			/* the clock in effect (option TRACECLOCK), or "" */
	int nblocks;
	bool data_whole;		/* every block in the file is whole */
	uint64_t chunks;		/* whole chunks in all blocks */
	uint64_t declared;		/* the furthest byte a header declares */
	struct rec_v7_block blk[REC_MAX_CPUS];
};

/* rec_v7_at_least - the headers declare bytes up to at+len (len: as read, any value) */
static void rec_v7_at_least(struct rec_v7 *v, uint64_t at, uint64_t len)
{
	uint64_t end = at > UINT64_MAX / 2 || len > UINT64_MAX / 2 - at ? UINT64_MAX / 2 : at + len;

	if (end > v->declared)
		v->declared = end;
}

/*
 * rec_v7_options - one options section at 'off', whole in the file: its
 * CPUCOUNT, TRACECLOCK and the DONE offset (*done_at: where it is); 0 or
 * -EINVAL (not an options section trace-cmd writes)
 */
static int rec_v7_options(const struct rec_cut_map *m, uint64_t off, struct rec_v7 *v,
			  uint64_t *done_at)
{
	uint64_t p = off + 16, end = off + 16 + rec_rd64(m, off + 8);
	const char *s, *b, *e;
	uint32_t osz;
	uint16_t oid;

	if (rec_rd16(m, off) != 0 || (rec_rd16(m, off + 2) & 1))
		return -EINVAL;	/* not options, or compressed (trace-cmd writes neither) */
	v->opt_name = rec_rd32(m, off + 4);
	for (; p + 6 <= end; p += 6 + osz) {
		oid = rec_rd16(m, p);
		osz = rec_rd32(m, p + 2);
		if (osz > end - p - 6)
			return -EINVAL;
		if (oid == 0 && osz == 8) {
			*done_at = p + 6;
			return 0;
		}
		if (oid == 8 && osz >= 4)	/* CPUCOUNT */
			v->ncpus = (int)rec_rd32(m, p + 6);
		s = (const char *)m->p + p + 6;
		if (oid == 4 && (b = memchr(s, '[', osz)) &&	/* TRACECLOCK: "... [mono] ..." */
		    (e = memchr(b, ']', osz - (size_t)(b - s))) && e - b - 1 < (long)sizeof(v->clock))
			snprintf(v->clock, sizeof(v->clock), "%.*s", (int)(e - b - 1), b + 1);
	}
	return -EINVAL;
}

/* rec_v7_chunk_ok - a chunk header trace-cmd could have written */
static bool rec_v7_chunk_ok(uint32_t zsize, uint32_t size, uint32_t page)
{
	return zsize && size && size % page == 0 && size <= (1u << 28) &&
	       zsize <= size + size / 2 + 4096;
}

/* rec_v7_blocks - the CPU blocks of the flyrecord section, up to the cut */
static void rec_v7_blocks(const struct rec_cut_map *m, struct rec_v7 *v)
{
	uint64_t size = rec_rd64(m, v->fly + 8), limit = m->size, pos, p = 0, page = v->page;
	int max = v->ncpus > 0 && v->ncpus < REC_MAX_CPUS ? v->ncpus : REC_MAX_CPUS;
	struct rec_v7_block *b;
	uint32_t zsize, usize;

	if (size && v->fly + 16 + size < limit)
		limit = v->fly + 16 + size;
	v->data_whole = true;
	pos = (v->fly + 16 + page - 1) / page * page;
	for (; v->nblocks < max && pos + 4 <= limit; pos = (p + page - 1) / page * page) {
		b = &v->blk[v->nblocks++];
		b->off = pos;
		b->count = rec_rd32(m, pos);
		for (p = pos + 4; (!b->count || b->whole < b->count) && p + 8 <= limit; p += 8 + zsize) {
			zsize = rec_rd32(m, p);
			usize = rec_rd32(m, p + 4);
			if (!rec_v7_chunk_ok(zsize, usize, v->page))
				break;
			if (p + 8 + zsize > limit) {
				if (limit == m->size)	/* else the section is whole: no cut here */
					rec_v7_at_least(v, p + 8, zsize);
				break;
			}
			b->whole++;
		}
		b->len = b->whole ? p - pos - 4 : 0;
		v->chunks += b->whole;
		if (!b->count || b->whole < b->count) {	/* cut inside it (or never counted) */
			if (limit == m->size)
				rec_v7_at_least(v, p, 8);
			v->data_whole = false;
			return;
		}
	}
	if (v->nblocks < max && v->ncpus && size && pos + 4 > limit && limit < v->fly + 16 + size) {
		rec_v7_at_least(v, pos, 4);	/* the next CPU's block is not there */
		v->data_whole = false;
	}
}

/*
 * rec_v7_scan - what a v7 file holds (see the top of this file): 0, or
 * -EINVAL when it is no little-endian v7 file trace-cmd wrote
 */
static int rec_v7_scan(const struct rec_cut_map *m, struct rec_v7 *v)
{
	uint64_t at, off, first, done_at = 0, prev_done = 0, ssize;
	int n;

	memset(v, 0, sizeof(*v));
	/* the magic, "7", little-endian (as far as the file goes) */
	if (memcmp(m->p, REC_CUT_MAGIC7 "\0", m->size < 13 ? m->size : 13))
		return -EINVAL;
	v->chain_cut = true;	/* until the first options section is found whole */
	if (m->size < 18) {
		rec_v7_at_least(v, 18, 0);
		return 0;
	}
	v->page = rec_rd32(m, 14);
	if (v->page < 1024 || v->page > (1 << 20) || (v->page & (v->page - 1)))
		return -EINVAL;
	for (at = 18, n = 0; n < 2 && at < m->size && at < 4096; at++)	/* compression name, version */
		n += !m->p[at];
	if (n < 2 || at + 8 > m->size) {
		if (at < 4096)
			rec_v7_at_least(v, n < 2 ? at + 1 : at, 8);
		return at < 4096 ? 0 : -EINVAL;
	}
	v->chain_cut = false;
	first = rec_rd64(m, at);
	/* the options chain from the first section */
	for (off = first, n = 0; off && n < 1000; n++) {
		if (off > m->size || off + 16 > m->size || rec_rd64(m, off + 8) > m->size - off - 16) {
			rec_v7_at_least(v, off, 16 + (off + 16 > m->size ? 0 : rec_rd64(m, off + 8)));
			v->chain_cut = true;
			v->patch = prev_done;
			break;
		}
		if (rec_v7_options(m, off, v, &done_at) < 0)
			return -EINVAL;
		prev_done = done_at;
		off = rec_rd64(m, done_at);
	}
	if (n == 1000)
		return -EINVAL;
	/* every section in order from the first, as libtracecmd looks for its strings */
	for (off = at + 8, n = 0; off + 16 <= m->size && n < 100000; n++, off += 16 + ssize) {
		ssize = rec_rd64(m, off + 8);
		if (rec_rd16(m, off) == 3 && !v->fly) {
			v->fly = off;
			v->fly_z = rec_rd16(m, off + 2) & 1;
		}
		if (ssize > m->size - off - 16) {
			rec_v7_at_least(v, off + 16, ssize);
			break;
		}
		if (!ssize && off == v->fly)
			break;	/* its size is written once its data is all there */
	}
	if (off < m->size && off + 16 > m->size)
		rec_v7_at_least(v, off, 16);
	if (v->fly && v->fly_z && v->page)
		rec_v7_blocks(m, v);
	return 0;
}

/* rec_v7_put - append n bytes at *at of buf (of size 'size'); false when they do not fit */
static bool rec_v7_put(unsigned char *buf, size_t size, size_t *at, const void *p, size_t n)
{
	if (*at + n > size)
		return false;
	memcpy(buf + *at, p, n);
	*at += n;
	return true;
}

/*
 * rec_v7_index - the options section appended to the copy at 'end': option
 * BUFFER (the top buffer's whole chunks per CPU) and DONE; its size, or 0
 */
static size_t rec_v7_index(const struct rec_v7 *v, unsigned char *buf, size_t size)
{
	int ncpus = v->ncpus > v->nblocks ? v->ncpus : v->nblocks, cpu;
	uint64_t fly = htole64(v->fly), off, len, zero = 0, ssize;
	uint32_t osz = 8 + 1 + (uint32_t)strlen(v->clock) + 1 + 4 + 4 + 20 * (uint32_t)ncpus;
	uint32_t u32, name = htole32(v->opt_name);
	uint16_t id = htole16(3), done = 0, flags = 0;
	size_t at = 16;
	bool ok;

	u32 = htole32(osz);
	ok = rec_v7_put(buf, size, &at, &id, 2) && rec_v7_put(buf, size, &at, &u32, 4) &&
	     rec_v7_put(buf, size, &at, &fly, 8) && rec_v7_put(buf, size, &at, "", 1) &&
	     rec_v7_put(buf, size, &at, v->clock, strlen(v->clock) + 1);
	u32 = htole32(v->page);
	ok = ok && rec_v7_put(buf, size, &at, &u32, 4);
	u32 = htole32((uint32_t)ncpus);
	ok = ok && rec_v7_put(buf, size, &at, &u32, 4);
	for (cpu = 0; ok && cpu < ncpus; cpu++) {
		u32 = htole32((uint32_t)cpu);
		off = htole64(cpu < v->nblocks ? v->blk[cpu].off : 0);
		len = htole64(cpu < v->nblocks ? v->blk[cpu].len : 0);
		ok = rec_v7_put(buf, size, &at, &u32, 4) && rec_v7_put(buf, size, &at, &off, 8) &&
		     rec_v7_put(buf, size, &at, &len, 8);
	}
	u32 = htole32(8);
	ok = ok && rec_v7_put(buf, size, &at, &done, 2) && rec_v7_put(buf, size, &at, &u32, 4) &&
	     rec_v7_put(buf, size, &at, &zero, 8);
	if (!ok)
		return 0;
	ssize = htole64(at - 16);
	memcpy(buf, &done, 2);		/* section id 0: options */
	memcpy(buf + 2, &flags, 2);
	memcpy(buf + 4, &name, 4);
	memcpy(buf + 8, &ssize, 8);
	return at;
}

/* rec_v7_note - cut->note for a v7 file cut short */
static void rec_v7_note(const struct rec_v7 *v, struct rec_cut *cut)
{
	int n = snprintf(cut->note, sizeof(cut->note), "truncated: the file ends at byte %lld of at "
			 "least %lld its headers declare " REC_CUT_WHY " (%llu whole compressed chunks "
			 "of CPU data)", (long long)cut->have, (long long)cut->declared,
			 (unsigned long long)v->chunks);

	if (v->data_whole && v->ncpus > v->nblocks && n > 0 && (size_t)n < sizeof(cut->note))
		snprintf(cut->note + n, sizeof(cut->note) - (size_t)n, "; %d of its %d CPUs have data, "
			 "numbered in file order", v->nblocks, v->ncpus);
}

/*
 * rec_cut_v7 - for a v7 file cut short: cut->have, declared and note, and
 * when its options chain leads past the end a private copy that reads as far
 * as it goes (see the top of this file). The copy's fd; -ENOENT when nothing
 * is cut and nothing needs a copy; -ENODATA when it is cut inside its headers
 * (cut->note says why); -EINVAL: not such a file; or -errno
 */
static int rec_cut_v7(const char *path, struct rec_cut *cut)
{
	unsigned char idx[64 + 20 * REC_MAX_CPUS + 64];
	struct rec_cut_map m;
	struct rec_v7 *v;
	uint64_t end;
	uint32_t count;
	size_t len;
	int fd, out = -1, ret, i;

	if (!(v = malloc(sizeof(*v))))
		return -ENOMEM;
	if ((fd = rec_cut_map_open(path, &m)) < 0) {
		free(v);
		return fd;
	}
	if ((ret = rec_v7_scan(&m, v)) < 0)
		goto out;
	ret = -ENOENT;
	if (!v->chain_cut && v->declared <= m.size)
		goto out;	/* nothing is missing */
	cut->have = (int64_t)m.size;
	cut->declared = (int64_t)(v->declared > m.size ? v->declared : m.size + 1);
	if (!v->chain_cut) {
		rec_v7_note(v, cut);	/* cut after its last options section: all is there */
		goto out;
	}
	ret = -ENODATA;
	if (!v->patch || !v->fly) {
		snprintf(cut->note, sizeof(cut->note), "a trace-cmd v7 file cut short inside its headers "
			 "(they declare at least %lld bytes): no CPU data to read", (long long)cut->declared);
		goto out;
	}
	if (!v->fly_z) {
		snprintf(cut->note, sizeof(cut->note), "a trace-cmd v7 file cut short before the index "
			 "of its CPU data, which is not compressed: without the index its CPUs cannot be "
			 "told apart (at least %lld bytes declared)", (long long)cut->declared);
		goto out;
	}
	if ((out = rec_cut_tmpcopy(fd, m.size)) < 0) {
		ret = out;
		goto out;
	}
	ret = -EIO;
	for (i = 0; i < v->nblocks; i++) {
		count = htole32(v->blk[i].whole);
		if (v->blk[i].whole != v->blk[i].count && pwrite(out, &count, 4, (off_t)v->blk[i].off) != 4)
			goto out;
	}
	len = rec_v7_index(v, idx, sizeof(idx));
	end = htole64(m.size);
	if (!len || pwrite(out, idx, len, (off_t)m.size) != (ssize_t)len ||
	    pwrite(out, &end, 8, (off_t)v->patch) != 8)
		goto out;
	rec_v7_note(v, cut);
	ret = out;
	out = -1;
out:
	if (out >= 0)
		close(out);
	rec_cut_map_close(&m, fd);
	free(v);
	return ret;
}

/*
 * rec_init_data_quiet - tracecmd_init_data, whose size check prints to stdout
 * (not through its log level): errors here are ours, one line on stderr
 */
static int rec_init_data_quiet(struct tracecmd_input *h)
{
	int saved, devnull, ret;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved >= 0 && devnull >= 0)
		dup2(devnull, STDOUT_FILENO);
	ret = tracecmd_init_data(h);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	if (devnull >= 0)
		close(devnull);
	return ret;
}

/* rec_cut_open_copy - open the private copy cut->fd instead of the file; the handle or NULL */
static struct tracecmd_input *rec_cut_open_copy(struct rec_cut *cut, int flags)
{
	char copy[64];
	struct tracecmd_input *h;

	snprintf(copy, sizeof(copy), "/proc/self/fd/%d", cut->fd);
	h = tracecmd_open_head(copy, flags);
	if (!h || rec_init_data_quiet(h) < 0)
		return NULL;	/* a failed handle stays open (rec_cut.h) */
	return h;
}

enum rec_open_result rec_cut_open(const char *path, int flags, struct tracecmd_input **h,
				  struct rec_cut *cut)
{
	int fd;

	memset(cut, 0, sizeof(*cut));
	cut->fd = -1;
	*h = NULL;
	/* a v7 file cut short first: libtracecmd 3.1 frees twice on some cuts of its headers */
	fd = rec_cut_v7(path, cut);
	if (fd == -ENODATA)
		return REC_OPEN_CUT_HEADERS;
	if (fd >= 0) {
		cut->fd = fd;
		if (!(*h = rec_cut_open_copy(cut, flags))) {
			rec_cut_close(cut);
			snprintf(cut->note, sizeof(cut->note), "a trace-cmd v7 file cut short (at least %lld "
				 "bytes declared): what it holds cannot be read", (long long)cut->declared);
			return REC_OPEN_CUT_HEADERS;
		}
		return REC_OPEN_OK;
	}
	if (fd != -ENOENT)	/* not a v7 file cut after its last options section */
		memset(cut->note, 0, sizeof(cut->note));
	*h = tracecmd_open_head(path, flags);
	if (!*h) {
		cut->note[0] = '\0';
		return REC_OPEN_BAD_HEADERS;
	}
	if (rec_init_data_quiet(*h) < 0) {
		fd = rec_cut_v6(path, tracecmd_cpus(*h), cut);
		*h = NULL;	/* the failed handle stays open (rec_cut.h) */
		if (fd < 0)
			return REC_OPEN_BAD_DATA;
		cut->fd = fd;
		if ((*h = rec_cut_open_copy(cut, flags)))
			return REC_OPEN_OK;
		rec_cut_close(cut);
		return REC_OPEN_BAD_DATA;
	}
	return REC_OPEN_OK;
}

void rec_cut_close(struct rec_cut *cut)
{
	if (cut->fd >= 0)
		close(cut->fd);
	cut->fd = -1;
}
