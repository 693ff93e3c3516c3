/*
 * genruns.c - write synthetic run directories with known distributions,
 * for the tests of 'preflight baseline' and 'compare' (t/09xx): each run has
 * the files compare reads (results.json with histograms, sysinfo.json,
 * run.json with a UUID, scenario.ini), its samples drawn from a fixed-seed
 * generator, so a test knows the truth it checks the verdicts against.
 *
 *   ci_genruns DIR --runs N --seed S [--first K] [--samples N] [--scale F]
 *              [--spike-ns V] [--overruns N] [--board B] [--kernel K]
 *
 * Task "io": activation latency 15 us + a log-normal tail (median 5 us,
 * sigma 0.5) times a per-run factor (run-to-run spread of 3 %), the whole
 * sample times --scale (a +20 % shift of every percentile: --scale 1.2);
 * --spike-ns adds one sample of V ns to the first run written; response
 * time likewise around 60 us; execution time about 40 us.
 * cyclictest cpu0 likewise around 8 us. Runs are DIR/run-K, DIR/run-K+1, ...
 */
#include "common.h"
#include "hist.h"

#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static uint64_t gen_state;

/* gen_u64 - xorshift64* */
static uint64_t gen_u64(void)
{
	gen_state ^= gen_state >> 12;
	gen_state ^= gen_state << 25;
	gen_state ^= gen_state >> 27;
	return gen_state * 0x2545F4914F6CDD1DULL;
}

/* gen_unit - uniform in (0, 1) */
static double gen_unit(void)
{
	return ((gen_u64() >> 11) + 0.5) / 9007199254740992.0;
}

/* gen_normal - standard normal (Box-Muller) */
static double gen_normal(void)
{
	return sqrt(-2 * log(gen_unit())) * cos(2 * M_PI * gen_unit());
}

/* gen_dist - n samples of base + factor * lognormal(median, sigma) as a distribution object */
static json_t *gen_dist(size_t n, double base_ns, double median_ns, double sigma, double factor, double spike_ns)
{
	struct pf_hist h;
	json_t *o;

	pf_hist_init(&h);
	for (size_t i = 0; i < n; i++)
		if (pf_hist_add(&h, (int64_t)(base_ns + factor * median_ns * exp(sigma * gen_normal())), (int64_t)i,
				(int64_t)i))
			return NULL;
	if (spike_ns > 0 && pf_hist_add(&h, (int64_t)spike_ns, (int64_t)n, (int64_t)n))
		return NULL;
	o = pf_hist_json(&h, "ns");
	pf_hist_free(&h);
	return o;
}

/* gen_write - one string to a file */
static int gen_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f)) {
		fprintf(stderr, "ci_genruns: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long runs = 10, first = 1, samples = 5000, overruns = 0;
	double scale = 1, spike = 0;
	const char *dir, *board = "synthetic-board", *kernel = "6.1.0-test";
	uint64_t seed = 1;

	if (argc < 2 || argv[1][0] == '-' || argc % 2) {
		fprintf(stderr, "usage: ci_genruns DIR --runs N --seed S [--first K] [--samples N] [--scale F] "
			"[--spike-ns V] [--overruns N] [--board B] [--kernel K]\n");
		return 2;
	}
	dir = argv[1];
	for (int i = 2; i + 1 < argc; i += 2) {
		const char *o = argv[i], *v = argv[i + 1];

		if (!strcmp(o, "--runs")) runs = atol(v);
		else if (!strcmp(o, "--seed")) seed = strtoull(v, NULL, 0);
		else if (!strcmp(o, "--first")) first = atol(v);
		else if (!strcmp(o, "--samples")) samples = atol(v);
		else if (!strcmp(o, "--scale")) scale = atof(v);
		else if (!strcmp(o, "--spike-ns")) spike = atof(v);
		else if (!strcmp(o, "--overruns")) overruns = atol(v);
		else if (!strcmp(o, "--board")) board = v;
		else if (!strcmp(o, "--kernel")) kernel = v;
		else {
			fprintf(stderr, "ci_genruns: unknown option %s\n", o);
			return 2;
		}
	}
	gen_state = seed * 0x9E3779B97F4A7C15ULL + 1;
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ci_genruns: %s: %s\n", dir, strerror(errno));
		return 2;
	}
	for (long r = first; r < first + runs; r++) {
		char rdir[1024], path[1100], uuid[64], started[64];
		double factor = scale * exp(0.03 * gen_normal());
		json_t *act = gen_dist((size_t)samples, 15000 * scale, 5000, 0.5, factor, r == first ? spike : 0);
		json_t *resp = gen_dist((size_t)samples, 55000 * scale, 5000, 0.5, factor, 0);
		json_t *exec = gen_dist((size_t)samples, 38000, 2000, 0.3, 1, 0);
		json_t *ct = gen_dist((size_t)samples, 6000, 2000, 0.6, exp(0.03 * gen_normal()), 0);
		json_t *res, *sys, *run;
		char *text;

		if (!act || !resp || !exec || !ct)
			return 4;
		snprintf(rdir, sizeof(rdir), "%s/run-%02ld", dir, r);
		mkdir(rdir, 0755);
		res = json_pack("{s:s, s:s, s:[{s:s, s:o, s:o, s:o, s:I, s:i, s:i, s:{s:i}}], s:{s:f, s:f}, "
				"s:{s:i}, s:{s:i}, s:{s:[{s:i, s:o}]}}",
				"schema", "preflight-results/1", "generator", "preflight analyze 0.1.0",
				"tasks", "name", "io", "activation_latency_ns", act, "response_time_ns", resp,
				"exec_time_ns", exec, "overruns", (json_int_t)(r == first ? overruns : 0),
				"deadline_misses", 0, "missed_activations", 0, "joblog", "dropped", 0,
				"app", "utilisation", 0.30 * factor, "utilisation_max_1s", 0.33 * factor,
				"slots", "overruns", 0, "lost_events", "total", 0,
				"cyclictest", "threads", "cpu", 0, "latency_ns", ct);
		/* one run an hour from the first: time order is run order */
		snprintf(started, sizeof(started), "2026-01-%02ldT%02ld:00:00Z", 1 + r / 24, r % 24);
		snprintf(uuid, sizeof(uuid), "%08llx-%04llx-4%03llx-8%03llx-%012llx",
			 (unsigned long long)(gen_u64() >> 32), (unsigned long long)(gen_u64() >> 48),
			 (unsigned long long)(gen_u64() >> 52), (unsigned long long)(gen_u64() >> 52),
			 (unsigned long long)(gen_u64() >> 16));
		sys = json_pack("{s:s, s:s, s:{s:s, s:{s:s}, s:{s:s, s:n}}, s:{s:n}}",
				"schema", "preflight-sysinfo/1", "hostname", board,
				"kernel", "release", kernel, "config", "CONFIG_HZ", "250",
				"cmdline_flags", "isolcpus", "1", "nohz_full", "cpus", "board");
		run = json_pack("{s:s, s:s, s:{s:s, s:s}, s:s, s:b}", "schema", "preflight-run/1", "uuid", uuid,
				"scenario", "name", "synthetic", "file", "scenario.ini",
				"started_utc", started, "partial", 0);
		if (!res || !sys || !run)
			return 4;
		snprintf(path, sizeof(path), "%s/results.json", rdir);
		if (json_dump_file(res, path, JSON_INDENT(1)))
			return 4;
		snprintf(path, sizeof(path), "%s/sysinfo.json", rdir);
		if (json_dump_file(sys, path, JSON_INDENT(1)))
			return 4;
		snprintf(path, sizeof(path), "%s/run.json", rdir);
		if (json_dump_file(run, path, JSON_INDENT(1)))
			return 4;
		snprintf(path, sizeof(path), "%s/scenario.ini", rdir);
		text = "[scenario]\nname = synthetic\n\n[phase.app]\nmeasure = flightapp\nduration = 10s\n";
		if (gen_write(path, text))
			return 4;
		json_decref(res);
		json_decref(sys);
		json_decref(run);
	}
	return 0;
}
