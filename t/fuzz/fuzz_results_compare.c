/* fuzz_results_compare.c - results.json of a run directory as 'preflight compare' / 'baseline' read it (ci/runs.c) */
#include "fuzz.h"
#include "ci/runs.h"

#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ci_run run;
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", fuzz_path("run"));
	mkdir(dir, 0777);
	fuzz_file(data, size, "run/results.json");
	memset(&run, 0, sizeof(run));
	if (!ci_run_load(dir, &run)) {
		(void)ci_run_find(&run, "tasks.ctl100.response_ns.max");
		ci_run_free(&run);
	}
	return 0;
}
