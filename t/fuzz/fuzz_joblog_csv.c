/*
 * fuzz_joblog_csv.c - the app's job log (docs/joblog.md) as 'preflight
 * analyze --joblog' reads it alone: the reader (lib/joblog_read.c), the
 * per-task statistics (analysis/tasks.c) and results.json
 */
#include "fuzz.h"
#include "lib/command.h"

extern const struct pf_command cmd_analyze;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *csv = strdup(fuzz_file(data, size, "jobs.csv"));
	char *out = strdup(fuzz_path("results.json"));

	(void)fuzz_command(cmd_analyze, "-q", "--joblog", csv, "-o", out);
	free(csv);
	free(out);
	return 0;
}
