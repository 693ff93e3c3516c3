/*
 * fuzz_dat_pages.c - traces/rec_pages.c, the direct page decoder of
 * 'preflight analyze', against libtracecmd: a reference trace whose CPU data
 * the input edits is read by both, and when the direct decoder takes the file
 * (it checks every page first, and refuses what it does not know) the two
 * must hand the same records in the same order - time stamp, CPU, merged CPU
 * index, size, file offset, missed events and the bytes - or the harness
 * aborts. The reference is traces/ref/app-text-markers.dat (v6, under
 * $FUZZ_TOP or the working directory); the edits touch its CPU data only, so
 * libtracecmd's parsing of its headers (which faults on some corrupt ones,
 * fuzz_rec_cut.c) stays untouched.
 *
 * Input: edits of [LE32 offset, mod the CPU data's bytes][byte to xor there].
 */
#define _GNU_SOURCE
#include "traces/rec_cut.h"
#include "traces/rec_pages.h"
#include "fuzz.h"

#include <endian.h>
#include <sys/stat.h>

#define FUZZ_REF "traces/ref/app-text-markers.dat"

static uint8_t *fuzz_ref, *fuzz_buf;
static size_t fuzz_size, fuzz_data;		/* the file's bytes, where its CPU data starts */

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* fuzz_free - release the reference at exit (the leak checker runs after) */
static void fuzz_free(void)
{
	free(fuzz_ref);
	free(fuzz_buf);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX];
	const uint8_t *fly;
	struct stat st;
	uint64_t off;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".", FUZZ_REF);
	f = fopen(path, "re");
	if (!f || fstat(fileno(f), &st) || st.st_size < 64 || !(fuzz_ref = malloc((size_t)st.st_size)) ||
	    !(fuzz_buf = malloc((size_t)st.st_size)) ||
	    fread(fuzz_ref, 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "fuzz_dat_pages: %s: cannot read it (set FUZZ_TOP)\n", path);
		exit(1);
	}
	fclose(f);
	fuzz_size = (size_t)st.st_size;
	fly = memmem(fuzz_ref, fuzz_size, "flyrecord", 10);	/* the first CPU's (offset, size) after it */
	if (!fly || (size_t)(fly - fuzz_ref) + 18 > fuzz_size)
		exit(1);
	memcpy(&off, fly + 10, 8);
	fuzz_data = (size_t)le64toh(off);
	if (fuzz_data >= fuzz_size)
		exit(1);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	atexit(fuzz_free);
	return 0;
}

/* what a reader handed: a hash of every record's fields and bytes, and their count */
struct fuzz_sum {
	uint64_t hash;
	long n;
};

/* fuzz_mix - FNV-1a of n bytes into *h */
static void fuzz_mix(uint64_t *h, const void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*h = (*h ^ ((const uint8_t *)p)[i]) * 0x100000001b3ULL;
}

/* fuzz_record - one record into the sum (either reader's callback) */
static int fuzz_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
	struct fuzz_sum *s = arg;
	long long missed = rec->missed_events;

	(void)h;
	if (rec->size < 0)
		abort();
	fuzz_mix(&s->hash, &rec->ts, sizeof(rec->ts));
	fuzz_mix(&s->hash, &rec->cpu, sizeof(rec->cpu));
	fuzz_mix(&s->hash, &cpu, sizeof(cpu));
	fuzz_mix(&s->hash, &rec->size, sizeof(rec->size));
	fuzz_mix(&s->hash, &rec->offset, sizeof(rec->offset));
	fuzz_mix(&s->hash, &missed, sizeof(missed));
	fuzz_mix(&s->hash, rec->data, (size_t)rec->size);
	s->n++;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracecmd_input *hs[9];
	struct fuzz_sum direct = { 0xcbf29ce484222325ULL, 0 }, lib = direct;
	struct rec_pages *pg;
	struct rec_cut cut;
	char why[256];
	int bufidx[9] = { 0 }, nh = 1, fd, i;
	const char *path;
	uint32_t u32;

	memcpy(fuzz_buf, fuzz_ref, fuzz_size);
	for (size_t at = 0; at + 5 <= size; at += 5) {
		memcpy(&u32, data + at, 4);
		fuzz_buf[fuzz_data + le32toh(u32) % (fuzz_size - fuzz_data)] ^= data[at + 4];
	}
	path = fuzz_path("t.dat");
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, fuzz_buf, fuzz_size) != (ssize_t)fuzz_size || close(fd))
		abort();
	if (rec_cut_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS, &hs[0], &cut) !=
	    REC_OPEN_OK)
		return 0;
	for (i = 0; i < tracecmd_buffer_instances(hs[0]) && nh < 9; i++)
		if ((hs[nh] = tracecmd_buffer_instance_handle(hs[0], i)))
			bufidx[nh++] = i;
	fd = cut.fd >= 0 ? cut.fd : open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !rec_pages_open(&pg, fd, hs, bufidx, nh, why, sizeof(why))) {
		rec_pages_iterate(pg, fuzz_record, &direct);
		rec_pages_close(pg);
		tracecmd_iterate_events_multi(hs, nh, fuzz_record, &lib);
		if (direct.n != lib.n || direct.hash != lib.hash) {
			fprintf(stderr, "fuzz_dat_pages: the decoders differ: direct %ld records (%016llx), libtracecmd "
				"%ld (%016llx)\n", direct.n, (unsigned long long)direct.hash, lib.n,
				(unsigned long long)lib.hash);
			abort();
		}
	}
	if (fd >= 0 && fd != cut.fd)
		close(fd);
	for (i = nh - 1; i >= 0; i--)
		tracecmd_close(hs[i]);
	rec_cut_close(&cut);
	return 0;
}
