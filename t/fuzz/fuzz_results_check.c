/*
 * fuzz_results_check.c - results.json as 'preflight check' reads it, judged
 * against the seed budgets: the TAP, and the same verdicts as verdicts.json
 * (with the loads' gate and the emulated interfaces they read)
 */
#include "fuzz.h"
#include "lib/command.h"

extern const struct pf_command cmd_check;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char budgets[PATH_MAX], *results = strdup(fuzz_file(data, size, "results.json"));
	char *json = strdup(fuzz_path("verdicts.json"));

	snprintf(budgets, sizeof(budgets), "%s/budgets/seed.ini", getenv("FUZZ_TOP") ? getenv("FUZZ_TOP") : ".");
	(void)fuzz_command(cmd_check, results, "--budgets", budgets, "-o", "/dev/null");
	(void)fuzz_command(cmd_check, results, "--budgets", budgets, "-o", "/dev/null", "--strict", "--json", json);
	free(json);
	free(results);
	return 0;
}
