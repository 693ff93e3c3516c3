/*
 * fuzz_dat_records.c - the .dat path through our own code: trace records
 * as analysis/trace.c receives them from libtracecmd (an_record: event ids,
 * fields read at the offsets of the file's formats, markers) and everything
 * after it (sched.c, tasks.c, results.c). The formats are those of a
 * reference trace (traces/ref/app-alone.dat, under $FUZZ_TOP or the working
 * directory); libtracecmd's own parsing of a file is isolated in a child
 * process instead (t/0522-analyze-trace-faults.t). trace.c is included for
 * its static functions.
 *
 * Input: records of [cpu byte][ts step, LE16 ns * 64][missed byte][size byte]
 * [size bytes of record data], each record's data an exact-size heap copy.
 */
#include "analysis/trace.c"
#include "analysis/results.h"
#include "analysis/state.h"
#include "fuzz.h"

#define FUZZ_NCPUS 4

static struct tracecmd_input *fuzz_in;
static struct an_reader fuzz_rd;

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* fuzz_close - release the formats' handle at exit (the leak checker runs after) */
static void fuzz_close(void)
{
	free(fuzz_rd.kind);
	tracecmd_close(fuzz_in);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/traces/ref/app-alone.dat", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".");
	an_quiet_libs();
	fuzz_in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!fuzz_in) {
		fprintf(stderr, "fuzz_dat_records: %s: cannot read its formats (set FUZZ_TOP)\n", path);
		exit(1);
	}
	fuzz_rd.tep = tracecmd_get_tep(fuzz_in);
	fuzz_rd.path = "fuzz.dat";
	if (!fuzz_rd.tep || an_reader_setup(&fuzz_rd))
		exit(1);
	atexit(fuzz_close);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct an_run run = { 0 }, *r = &run;
	struct tep_record rec;
	int64_t ts = 1000000000;
	size_t off = 0;
	json_t *res;

	r->opt.top = 5;
	r->opt.slot_ns = 10 * PF_NS_PER_MS;
	r->opt.tick_ns = AN_TICK_NS;
	r->opt.quiet = true;
	r->last_overrun_slot = -1;
	if (an_sched_init(r, FUZZ_NCPUS))
		return 0;
	fuzz_rd.r = r;
	fuzz_rd.err = 0;
	fuzz_rd.cpu_last_ns = calloc(FUZZ_NCPUS, sizeof(*fuzz_rd.cpu_last_ns));
	if (!fuzz_rd.cpu_last_ns)
		abort();
	while (off + 5 <= size) {
		size_t len = data[off + 4];

		if (len > size - off - 5)
			len = size - off - 5;
		memset(&rec, 0, sizeof(rec));
		rec.cpu = data[off] % (FUZZ_NCPUS + 1);	/* one past the CPUs: a record to refuse */
		ts += (int64_t)(data[off + 1] | data[off + 2] << 8) * 64;
		rec.ts = (unsigned long long)ts;
		rec.missed_events = data[off + 3] == 0xff ? -1 : data[off + 3] > 0xf0 ? data[off + 3] - 0xf0 : 0;
		rec.size = (int)len;
		rec.offset = off;
		rec.data = malloc(len ? len : 1);
		if (!rec.data)
			abort();
		memcpy(rec.data, data + off + 5, len);
		off += 5 + len;
		if (an_record(NULL, &rec, rec.cpu, &fuzz_rd) < 0) {
			free(rec.data);
			break;
		}
		free(rec.data);
	}
	if (!fuzz_rd.err) {
		an_sched_finish(r);
		an_tasks_finish(r);
		res = an_results_json(r);
		json_decref(res);
	}
	free(fuzz_rd.cpu_last_ns);
	fuzz_rd.cpu_last_ns = NULL;
	an_run_free(r);
	return 0;
}
