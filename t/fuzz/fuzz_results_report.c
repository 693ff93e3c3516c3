/*
 * fuzz_results_report.c - results.json as 'preflight report' reads and shows
 * it (reports/report.c, reports/report_plots.c): the run directory loaded and
 * every section written. The report's files are included here for their
 * static functions; gnuplot is never started (its spawn fails as if it were
 * not installed), so each figure takes the "could not be drawn" path after
 * its script was written from the input.
 */
#define pf_proc_spawn fuzz_no_spawn
#include "reports/report.c"
#include "reports/report_plots.c"
#undef pf_proc_spawn
#include "fuzz.h"

#include <sys/stat.h>

/* fuzz_no_spawn - pf_proc_spawn for the report's children: none is started */
int fuzz_no_spawn(struct pf_proc *p, char *const argv[], const char *out_path, const char *err_path, int flags)
{
	memset(p, 0, sizeof(*p));
	return -ENOENT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rpt r = { 0 };
	char dir[PATH_MAX], html[PATH_MAX + 16];

	snprintf(dir, sizeof(dir), "%s", fuzz_path("run"));
	mkdir(dir, 0777);
	fuzz_file(data, size, "run/results.json");
	snprintf(html, sizeof(html), "%s/report.html", dir);
	r.dir = dir;
	snprintf(r.tmpdir, sizeof(r.tmpdir), "%s", fuzz_path("plots"));
	mkdir(r.tmpdir, 0777);
	if (!rpt_load(&r))
		(void)rpt_write(&r, html);
	rpt_free(&r);
	return 0;
}
