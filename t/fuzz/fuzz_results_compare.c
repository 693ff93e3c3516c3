/*
 * fuzz_results_compare.c - results.json of a run directory as 'preflight compare' / 'baseline' read it
 * (ci/runs.c), and the same bytes given to 'compare --baseline' (ci/compare.c: a results.json is
 * not a baseline, and the error names its schema)
 */
#include "fuzz.h"
#include "ci/compare.h"
#include "ci/runs.h"

#include <jansson.h>

#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ci_run run;
	json_t *bl = NULL;
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", fuzz_path("run"));
	mkdir(dir, 0777);
	fuzz_file(data, size, "run/results.json");
	memset(&run, 0, sizeof(run));
	if (!ci_run_load(dir, &run)) {
		(void)ci_run_find(&run, "tasks.ctl100.response_ns.max");
		ci_run_free(&run);
	}
	if (!ci_baseline_load(fuzz_path("run/results.json"), &bl))
		json_decref(bl);
	return 0;
}
