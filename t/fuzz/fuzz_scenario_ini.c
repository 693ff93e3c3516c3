/* fuzz_scenario_ini.c - a scenario file of 'preflight run' (bench/scenario.c), and its total length */
#include "fuzz.h"
#include "bench/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scn scn;

	memset(&scn, 0, sizeof(scn));
	if (!scn_load(&scn, fuzz_file(data, size, "scenario.ini")))
		(void)scn_total_ns(&scn);
	return 0;
}
