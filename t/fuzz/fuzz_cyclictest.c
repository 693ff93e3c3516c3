/*
 * fuzz_cyclictest.c - a cyclictest --json file or -h/-H histogram text as
 * 'preflight analyze --cyclictest' imports it (analysis/cyclictest.c) into
 * results.json; built as two harnesses, cyclictest_json and cyclictest_hist,
 * which differ only in their seed corpus
 */
#include "fuzz.h"
#include "lib/command.h"

extern const struct pf_command cmd_analyze;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = strdup(fuzz_file(data, size, "cyclictest.out"));
	char *out = strdup(fuzz_path("results.json"));

	(void)fuzz_command(cmd_analyze, "-q", "--cyclictest", in, "-o", out);
	free(in);
	free(out);
	return 0;
}
