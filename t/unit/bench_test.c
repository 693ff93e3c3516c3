/*
 * bench_test.c - unit tests of the bench's parameter parsers (bench/loads/
 * load.c) and of the scenario model (bench/scenario.c): units, limits,
 * which value wins when a scenario section and a phase both set one, stale
 * name ownership.
 */
#include "tap.h"
#include "common.h"
#include "bench/loads/load.h"
#include "bench/scenario.h"

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

/* write_scenario - a scenario text into a temporary file; its path */
static const char *write_scenario(const char *text)
{
	static char path[] = "/tmp/test-bench.XXXXXX";
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		abort();
	close(fd);
	return path;
}

int main(void)
{
	const struct scn_kv *kv[8];
	struct scn *scn = calloc(1, sizeof(*scn));
	uint64_t u = 0;
	uint32_t v = 0;
	int64_t ns = 0;
	const char *path;
	struct load l;

	tap_plan(26);

	check_int(load_parse_bytes("64k", &u), ==, 0, "bench-1.1 bytes: 64k parses");
	check_int(u, ==, 65536, "bench-1.2 bytes: k is 1024");
	check_int(load_parse_bytes("1.5M", &u) == 0 && u == 1572864, ==, 1, "bench-1.3 bytes: 1.5M");
	check_int(load_parse_bytes("12 parsecs", &u), ==, -EINVAL, "bench-1.4 bytes: unknown unit refused");
	check_int(load_parse_bps("20mbit", &u) == 0 && u == 20000000, ==, 1, "bench-1.5 bps: mbit is 10^6");
	check_int(load_parse_bps("0", &u) == 0 && u == 0, ==, 1, "bench-1.6 bps: a bare 0 is allowed");
	check_int(load_parse_bps("-5mbit", &u), ==, -EINVAL, "bench-1.7 bps: negative refused");
	check_int(load_parse_ns("10ms", &ns) == 0 && ns == 10 * PF_NS_PER_MS, ==, 1, "bench-1.8 ns: 10ms");
	check_int(load_parse_ns("3", &ns) == 0 && ns == 3 * PF_NS_PER_SEC, ==, 1, "bench-1.9 ns: default unit s");
	check_int(load_parse_u32("2001", 1, 2000, &v), ==, -EINVAL, "bench-1.10 u32: above the limit refused");

	check_int(load_dead_owner("pfw1", "pfw"), ==, 0,
		  "bench-2.1 stale names: a live owner (pid 1) is not stale");
	check_int(load_dead_owner("pfsd12", "pfw"), ==, 0, "bench-2.2 stale names: another prefix is not ours");
	check_int(load_dead_owner("pfw2147483646h", "pfw"), ==, 2147483646, "bench-2.3 stale names: a dead owner's pid");

	check_int(load_init(&l, load_find("rt-swarm"), NULL), ==, 0, "bench-3.1 rt-swarm state");
	check_int(load_set(&l, "tasks", "2000"), ==, 0, "bench-3.2 rt-swarm tasks=2000 accepted");
	check_int(load_set(&l, "period", "50us"), ==, -EINVAL, "bench-3.3 rt-swarm period below 100 us refused");
	check_int(load_set(&l, "colour", "blue"), ==, -ENOENT, "bench-3.4 unknown parameter is -ENOENT");
	load_free(&l);
	check(load_find("warp") == NULL, "bench-3.5 no such load");

	path = write_scenario("[scenario]\nname = unit\n[load wifi]\nrate = 10mbit\nchunk = 5s\n"
			      "[phase a]\nduration = 2s\nloads = wifi\n"
			      "[phase b]\nduration = 1min\nmeasure = cyclictest\nloads = wifi, spi\n"
			      "wifi.rate = 5mbit\ncyclictest.interval = 500us\n");
	check_int(scn_load(scn, path), ==, 0, "bench-4.1 scenario parses");
	check_int(scn->nphases, ==, 2, "bench-4.2 two phases");
	check_str(scn_param(scn, &scn->phases[0], "wifi", "rate", "?"), "10mbit",
		  "bench-4.3 a phase without override takes the [load] value");
	check_str(scn_param(scn, &scn->phases[1], "wifi", "rate", "?"), "5mbit",
		  "bench-4.4 the phase's override wins");
	check_int(scn_params(scn, &scn->phases[1], "wifi", kv, 8), ==, 3,
		  "bench-4.5 parameters in order: section first, then the phase");
	check_str(kv[2]->value, "5mbit", "bench-4.6 the override comes last (applied last)");
	check_int(scn->phases[1].nloads == 2 && !strcmp(scn->phases[1].loads[1], "spi"), ==, 1,
		  "bench-4.7 'wifi, spi' lists two loads");
	check_int(scn_total_ns(scn), ==, 62 * PF_NS_PER_SEC, "bench-4.8 total duration");
	unlink(path);
	free(scn);
	return tap_done();
}
