/*
 * fuzz_budget_ini.c - a budget file (reports/check.c, docs/budgets.md) judged
 * by 'preflight check' against a results.json that has every kind of metric
 * (t/fixtures/results/fail.json, copied into the harness at build time is not
 * needed: it is read from the source tree, FUZZ_TOP or the working directory)
 */
#include "fuzz.h"
#include "lib/command.h"

extern const struct pf_command cmd_check;

/* fuzz_top_file - a file of the source tree: $FUZZ_TOP/rel, else ./rel */
static const char *fuzz_top_file(const char *rel)
{
	static char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".", rel);
	return path;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char results[PATH_MAX], *budgets = (char *)fuzz_file(data, size, "budgets.ini");

	budgets = strdup(budgets);
	snprintf(results, sizeof(results), "%s", fuzz_top_file("t/fixtures/results/fail.json"));
	(void)fuzz_command(cmd_check, results, "--budgets", budgets, "-o", "/dev/null");
	free(budgets);
	return 0;
}
