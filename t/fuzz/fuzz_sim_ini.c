/* fuzz_sim_ini.c - a simulator scenario INI of 'preflight fly' / sensorsim (bench/sim/sim_scenario.c) */
#include "fuzz.h"
#include "bench/sim/sim_scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct sim_scenario s;
	char err[512];

	sim_scenario_default(&s);
	if (sim_scenario_load(&s, fuzz_file(data, size, "sim.ini"), err, sizeof(err)) == 0)
		s.duration_s += 0;	/* loaded: nothing more to do */
	return 0;
}
