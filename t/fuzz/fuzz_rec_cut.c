/*
 * fuzz_rec_cut.c - traces/rec_cut.c: a trace-cmd .dat file cut short (v6 and
 * v7 compressed), read as far as it goes (docs/recorder.md "A file cut
 * short"). A real .dat is hundreds of KB of headers, so the input is not a
 * file but an edit script on one of two reference traces, read at init under
 * $FUZZ_TOP (or the working directory): traces/ref/app-text-markers.dat (v6)
 * and t/fixtures/selftest/lost.dat (v7, zstd).
 *
 * Input: [reference byte: bit 0 which one, bits 1-3 a CPU count for the v6
 * scan (0: the reference's), bit 4 open it through libtracecmd too][LE32 cut
 * length, mod the file's size + 1], then edits of [LE32 offset, mod the cut
 * length][byte to xor there].
 *
 * The edited file goes to a temporary file, which rec_cut.c reads as an
 * exact-size heap copy (fuzz_mmap). Our own scanning (rec_cut_v7,
 * rec_cut_v6: rec_cut.c is included for them) runs here, under the fuzzer's
 * coverage and sanitizers. With bit 4, rec_cut_open() on the file, with a few
 * records read through the handle it returns and the handle closed, runs in a
 * child process (pf_isolate; a fork and libtracecmd reading every event format
 * cost some 100 ms, where the scan alone takes about one), because libtracecmd itself faults on some corrupt files
 * (docs/fuzzing.md): a fault signal there is accepted; any other end of the
 * child (a sanitizer's report, a leak) is a crash of this harness.
 */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <stdlib.h>
#include <unistd.h>

/*
 * rec_cut.c maps the file; here it gets an exact-size heap copy instead, so
 * that reading past the file's end is an AddressSanitizer error (in a
 * mapping it reads the zeros of the last page)
 */
static void *fuzz_mmap(size_t len, int fd)
{
	void *p = malloc(len);

	if (p && pread(fd, p, len, 0) != (ssize_t)len) {
		free(p);
		p = NULL;
	}
	return p ? p : MAP_FAILED;
}
#define mmap(addr, len, prot, flags, fd, off) fuzz_mmap(len, fd)
#define munmap(p, len) free(p)
#include "traces/rec_cut.c"
#undef mmap
#undef munmap
#include "lib/proc.h"
#include "fuzz.h"

#include <signal.h>

#define FUZZ_NREFS    2
#define FUZZ_RECORDS  64	/* records read through a handle that opens */

static const char *const fuzz_ref_path[FUZZ_NREFS] = {
	"traces/ref/app-text-markers.dat",	/* v6 */
	"t/fixtures/selftest/lost.dat",		/* v7, zstd */
};
static uint8_t *fuzz_ref[FUZZ_NREFS];
static size_t fuzz_ref_size[FUZZ_NREFS];
static int fuzz_ref_ncpus = 1;			/* the v6 reference's CPUs */
static uint8_t *fuzz_buf;			/* the edited copy */

int LLVMFuzzerInitialize(int *argc, char ***argv);
const char *__asan_default_options(void);
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

/*
 * __asan_default_options - under AddressSanitizer (make fuzz), the options of
 * make check SANITIZE=address (docs/fuzzing.md) that the isolated child needs:
 * an absurd allocation of libtracecmd's returns NULL as glibc's malloc does,
 * and a fault stays a signal for pf_isolate. Above 1 GB is absurd here (the
 * references are under 1 MB), and below libFuzzer's own limit (-rss_limit_mb
 * of run-fuzz.sh, 2 GB), whose out-of-memory report would otherwise come from
 * the child. A report ends the child with SIGABRT, so that the parent knows
 * the step it was in (a report of libtraceevent's overreading the file's
 * strings is libtraceevent's, as its faults are). $ASAN_OPTIONS overrides
 * them.
 */
const char *__asan_default_options(void)
{
	return "allocator_may_return_null=1:max_allocation_size_mb=1024:abort_on_error=1:"
	       "handle_segv=0:handle_sigbus=0:handle_sigfpe=0";
}

/* fuzz_free - release the references at exit (the leak checker runs after) */
static void fuzz_free(void)
{
	for (int i = 0; i < FUZZ_NREFS; i++)
		free(fuzz_ref[i]);
	free(fuzz_buf);
}

/* fuzz_load - read one reference trace whole, or exit */
static void fuzz_load(int i)
{
	char path[PATH_MAX];
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".", fuzz_ref_path[i]);
	f = fopen(path, "re");
	if (!f || fstat(fileno(f), &st) || st.st_size < 64 || !(fuzz_ref[i] = malloc((size_t)st.st_size)) ||
	    fread(fuzz_ref[i], 1, (size_t)st.st_size, f) != (size_t)st.st_size) {
		fprintf(stderr, "fuzz_rec_cut: %s: cannot read it (set FUZZ_TOP)\n", path);
		exit(1);
	}
	fclose(f);
	fuzz_ref_size[i] = (size_t)st.st_size;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX];
	struct tracecmd_input *h;
	size_t max = 0;

	for (int i = 0; i < FUZZ_NREFS; i++) {
		fuzz_load(i);
		max = fuzz_ref_size[i] > max ? fuzz_ref_size[i] : max;
	}
	if (!(fuzz_buf = malloc(max)))
		abort();
	atexit(fuzz_free);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	snprintf(path, sizeof(path), "%s/%s", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".", fuzz_ref_path[0]);
	h = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (h) {
		fuzz_ref_ncpus = tracecmd_cpus(h);
		tracecmd_close(h);
	}
	return 0;
}

/* fuzz_record - one record read through the handle: stop after FUZZ_RECORDS */
static int fuzz_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *arg)
{
	int *n = arg;

	if (!rec || cpu < 0 || rec->size < 0)
		abort();
	return ++*n >= FUZZ_RECORDS;
}

/* fuzz_open_child - in the isolated child: rec_cut_open, a few records, the handle closed; 0 */
static int fuzz_open_child(void *arg)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct tracecmd_input *h;
	struct rec_cut cut;
	int n = 0;

	/* a fault is the parent's to judge, not the fuzzer's crash handler's */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &dfl, NULL);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(NULL);	/* libFuzzer's: it writes a crash input */
	if (__sanitizer_set_report_fd)	/* not the file ".PID" in the working directory */
		__sanitizer_set_report_fd((void *)(uintptr_t)STDERR_FILENO);
	pf_isolate_step("libtracecmd (rec_cut_open)", 0, 0);
	if (rec_cut_open(arg, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS, &h, &cut) ==
	    REC_OPEN_OK) {
		pf_isolate_step("libtracecmd (tracecmd_iterate_events)", 0, 0);
		if (tracecmd_iterate_events(h, NULL, 0, fuzz_record, &n) < 0)
			n = -1;
		pf_isolate_step("libtracecmd (tracecmd_close)", 0, 0);
		tracecmd_close(h);
	}
	pf_isolate_step(NULL, 0, 0);
	if (cut.fd >= 0 && fcntl(cut.fd, F_GETFD) < 0)
		abort();	/* the copy's descriptor must still be ours to close */
	rec_cut_close(&cut);
	if (cut.fd != -1)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pf_isolated fault;
	struct rec_cut cut;
	const char *path;
	size_t ref, len, at;
	uint32_t u32;
	int ncpus, fd, code;

	if (size < 5)
		return 0;
	ref = data[0] & 1;
	ncpus = (data[0] >> 1) & 7 ? (data[0] >> 1) & 7 : fuzz_ref_ncpus;
	memcpy(&u32, data + 1, 4);
	len = le32toh(u32) % (fuzz_ref_size[ref] + 1);
	memcpy(fuzz_buf, fuzz_ref[ref], len);
	for (at = 5; len && at + 5 <= size; at += 5) {
		memcpy(&u32, data + at, 4);
		fuzz_buf[le32toh(u32) % len] ^= data[at + 4];
	}
	path = fuzz_file(fuzz_buf, len, "cut.dat");

	/* our own scanning, in this process */
	memset(&cut, 0, sizeof(cut));
	fd = rec_cut_v7(path, &cut);
	if (fd >= 0)
		close(fd);
	if (cut.note[sizeof(cut.note) - 1] != '\0')
		abort();
	memset(&cut, 0, sizeof(cut));
	fd = rec_cut_v6(path, ncpus, &cut);
	if (fd >= 0) {
		if (cut.declared <= cut.have)
			abort();	/* a copy is made for a cut file only */
		close(fd);
	}

	/* the whole open through libtracecmd, isolated */
	if (!(data[0] & 0x10)) {
		unlink(path);
		return 0;
	}
	code = pf_isolate("fuzz rec_cut_open", fuzz_open_child, (void *)path, &fault);
	if (code == -1 && !fault.step)
		abort();	/* a fault in our own code */
	if (code > 0)
		abort();	/* the child's sanitizer report, or its leak check */
	unlink(path);
	return 0;
}
