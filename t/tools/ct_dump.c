/*
 * ct_dump.c - test helper: prints the object cyclictest_load() makes of a
 * cyclictest --json or histogram file, and exits with its status, so the
 * shell tests (t/0580-*.t) can check the import without 'preflight analyze'.
 *
 * usage: ct_dump FILE[:us|:ns]
 */
#include "analysis/cyclictest.h"
#include "common.h"

#include <stdio.h>

int main(int argc, char **argv)
{
	json_t *o;
	int ret;

	pf_set_prog("ct_dump");
	if (argc != 2) {
		fprintf(stderr, "usage: ct_dump FILE[:us|:ns]\n");
		return PF_EXIT_USAGE;
	}
	ret = cyclictest_load(argv[1], &o);
	if (ret)
		return ret;
	ret = json_dumpf(o, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17)) ? PF_EXIT_INTERNAL : 0;
	putchar('\n');
	json_decref(o);
	return ret;
}
