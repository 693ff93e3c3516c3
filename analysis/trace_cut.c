/*
 * trace_cut.c - reading what a cut-short trace-cmd v6 file holds (see
 * trace_cut.h). The v6 layout: the magic, "6", endianness, long size and
 * page size, the headers (formats, kallsyms, printk, command lines), the
 * CPU count, options, then "flyrecord\0" followed by one (offset, size)
 * pair of little-endian u64 per CPU, and the CPU data from the next page.
 * libtracecmd refuses a file whose pairs point past its end; the copy says
 * instead what is there, so the analysis reads every whole page written.
 */
#define _GNU_SOURCE
#include "trace_cut.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define AN_CUT_MAGIC "\027\010Dtracing6"

/* an_cut_pairs - the offset of the valid per-CPU (offset, size) pairs, or -1 */
static long long an_cut_pairs(const unsigned char *map, size_t len, int ncpus, uint32_t page)
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

#define AN_CUT_MAGIC7 "\027\010Dtracing7"

int an_trace_cut_v7(const char *path, int64_t *have, int64_t *missing)
{
	unsigned char *map = MAP_FAILED;
	uint64_t off, size, next;
	struct stat st;
	size_t at;
	int fd, ret = 0, n;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size < 64)
		goto out;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || memcmp(map, AN_CUT_MAGIC7, 11) || map[11] != '\0' || map[12] != 0)
		goto out;	/* v7, little-endian only */
	/* after the page size: the compression's name and version, then the first options section */
	for (at = 18, n = 0; n < 2 && at < (size_t)st.st_size; at++)
		n += !map[at];
	if (n < 2 || at + 8 > (size_t)st.st_size)
		goto out;
	memcpy(&off, map + at, 8);
	for (off = le64toh(off), n = 0; off && n < 1000; n++) {
		/* a section: u16 id (0: options), u16 flags, u32 name, u64 size; its last option DONE holds the next */
		if (off + 16 > (uint64_t)st.st_size)
			break;
		memcpy(&size, map + off + 8, 8);
		size = le64toh(size);
		if (size < 14 || size > (uint64_t)st.st_size || off + 16 + size > (uint64_t)st.st_size)
			break;
		memcpy(&next, map + off + 16 + size - 8, 8);
		off = le64toh(next);
	}
	if (off && n < 1000) {	/* the section at off starts past the end, or ends past it */
		*have = st.st_size;
		*missing = (int64_t)off;
		ret = 1;
	}
out:
	if (map != MAP_FAILED)
		munmap(map, (size_t)st.st_size);
	close(fd);
	return ret;
}

int an_trace_cut_copy(const char *path, int ncpus, char *copy_path, size_t size,
		      int64_t *have, int64_t *declared)
{
	unsigned char *map = MAP_FAILED, pair[16];
	uint64_t off, len, keep, end = 0;
	const char *tmpdir = getenv("TMPDIR");
	long long at;
	uint32_t page;
	struct stat st;
	int fd, out = -1, cpu, ret = -EINVAL;
	loff_t from = 0;

	if (ncpus < 1 || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return ncpus < 1 ? -EINVAL : -errno;
	if (fstat(fd, &st) < 0 || st.st_size < 64)
		goto out;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED || memcmp(map, AN_CUT_MAGIC, 11) || map[11] != '\0' || map[12] != 0)
		goto out;	/* v6, little-endian only */
	memcpy(&page, map + 14, 4);
	page = le32toh(page);
	if (page < 1024 || page > (1 << 20) || (page & (page - 1)))
		goto out;
	at = an_cut_pairs(map, (size_t)st.st_size, ncpus, page);
	if (at < 0)
		goto out;
	out = open(tmpdir && *tmpdir ? tmpdir : "/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (out < 0) {
		ret = -errno;
		goto out;
	}
	while (from < st.st_size) {
		ssize_t n = copy_file_range(fd, &from, out, NULL, (size_t)(st.st_size - from), 0);

		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			goto out;
		}
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		memcpy(&off, map + at + 16 * cpu, 8);
		memcpy(&len, map + at + 16 * cpu + 8, 8);
		off = le64toh(off);
		len = le64toh(len);
		if (off + len > end)
			end = off + len;
		keep = off >= (uint64_t)st.st_size ? 0 : (uint64_t)st.st_size - off;
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
	if (end <= (uint64_t)st.st_size)
		goto out;	/* nothing is missing: another fault, not a cut */
	*have = st.st_size;
	*declared = (int64_t)end;
	snprintf(copy_path, size, "/proc/self/fd/%d", out);
	ret = out;
	out = -1;
out:
	if (map != MAP_FAILED)
		munmap(map, (size_t)st.st_size);
	if (out >= 0)
		close(out);
	close(fd);
	return ret;
}
