/*
 * load_achieved_test.c - unit tests of lib/load_achieved.c: each load's
 * achieved share of its target from its report (docs/loads.md), and the
 * reports that carry no target.
 */
#include "load_achieved.h"
#include "tap.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* la_pct - the share of load 'name' whose report is the JSON text 'report', and what was compared */
static double la_pct(const char *name, const char *report, const char **what)
{
	json_t *load = json_loads(report, 0, NULL);
	double pct = pf_load_achieved_pct(name, load, what);

	json_decref(load);
	return pct;
}

/* la_count - a sample callback: counts the samples and sums their shares */
static void la_count(void *arg, int64_t t_ns, double pct)
{
	double *c = arg;

	(void)t_ns;
	c[0] += 1;
	c[1] += pct;
}

/* la_near - a and b within 1e-9 */
static int la_near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	const char *what = "";
	double pct;

	tap_plan(23);
	pct = la_pct("cpu", "{\"achieved\": {\"stress_ng\": {\"load_pct\": 50, \"cpu_usage_per_instance_pct\": 19.75}}}", &what);
	check(la_near(pct, 39.5), "load-1.1 cpu: stress-ng's CPU use against its configured load (19.75 of 50 %%: 39.5 %%)");
	check_str(what, "stress-ng CPU use / configured load", "load-1.2 ... and says what was compared");
	pct = la_pct("wifi", "{\"achieved\": {\"rate_achieved_pct\": 98.4}}", &what);
	check(la_near(pct, 98.4), "load-1.3 wifi: the received rate's share, as the load reports it");
	pct = la_pct("rt-swarm", "{\"achieved\": {\"jobs_per_s\": 500, \"planned_jobs_per_s\": 1000}}", &what);
	check(la_near(pct, 50), "load-1.4 rt-swarm: jobs per second against the planned");
	pct = la_pct("spi", "{\"achieved\": {\"transfers_per_s\": 981.8, \"rate_hz\": 1000}}", &what);
	check(la_near(pct, 98.18), "load-1.5 spi: transfers per second against the rate");
	pct = la_pct("sd", "{\"achieved\": {\"write_mb_per_s\": 2.097152, \"rate_limit_bytes_per_s\": 4194304}}", &what);
	check(la_near(pct, 50), "load-1.6 sd: bytes per second (MB = 10^6 B) against the rate limit");
	pct = la_pct("sd", "{\"achieved\": {\"write_mb_per_s\": 80, \"rate_limit_bytes_per_s\": 0}}", &what);
	check(isnan(pct) && !what, "load-2.1 sd unlimited: no target, NAN and nothing compared");
	pct = la_pct("cpu", "{\"achieved\": {\"hackbench\": {\"rounds\": 32}}}", &what);
	check(isnan(pct), "load-2.2 cpu with hackbench alone: no target");
	pct = la_pct("spi", "{\"achieved\": {\"transfers_per_s\": null, \"rate_hz\": 1000}}", &what);
	check(isnan(pct), "load-2.3 a null figure: no share");
	pct = la_pct("wifi", "{\"load\": \"wifi\"}", &what);
	check(isnan(pct), "load-2.4 a report without 'achieved'");
	pct = la_pct("gps", "{\"achieved\": {\"rate_achieved_pct\": 98.4}}", &what);
	check(isnan(pct), "load-2.5 a load this code does not know");
	check(isnan(pf_load_achieved_pct("cpu", NULL, &what)), "load-2.6 no report at all");
	/* stress-ng ended without its YAML and its processes could not be read: not known, not 0 % */
	pct = la_pct("cpu", "{\"achieved\": {\"stress_ng\": {\"cpus\": 1, \"load_pct\": 10, "
		     "\"cpu_usage_per_instance_pct\": null}}}", &what);
	check(isnan(pct) && what, "load-2.7 cpu whose stress-ng CPU use is not known: NAN with what was compared "
	      "(a gate takes it as not achieved)");
	pct = la_pct("cpu", "{\"achieved\": {\"stress_ng\": {\"cpus\": 0, \"load_pct\": 50, "
		     "\"cpu_usage_per_instance_pct\": 0}}}", &what);
	check(isnan(pct) && !what, "load-2.8 cpu with stress-ng off (cpus 0): no target, not 0 %%");
	/* the samples over a window: a second counts where most of it is inside (t - 0.5 s) */
	{
		char path[] = "/tmp/load_achieved_test.XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
		struct pf_load_samples ls;
		double c[2] = { 0, 0 };

		if (f) {
			fputs("# preflight-load-samples/1\n# load=sd unit=B/s\nt_ns,achieved,target\n"
			      "1000000000,100,100\n2000000000,0,100\n3000000000,50,100\n4000000000,100,100\n"
			      "5000000000,100,100\n5200000000,7,\n", f);
			fclose(f);
		}
		check(pf_load_samples_read(path, 1500000000, 4200000000, &ls, la_count, c) == 0 && ls.seconds == 3 &&
		      la_near(ls.mean_pct, 50) && la_near(ls.worst_pct, 0),
		      "load-3.1 samples: the seconds 2, 3, 4 s in [1.5 s, 4.2 s]: 3, mean 50 %%, worst 0 %%");
		check(c[0] == 5 && la_near(c[1], 350) && ls.total == 5,
		      "load-3.2 ... every sample with a target given to the caller and counted (5)");
		check_str(ls.unit, "B/s", "load-3.3 ... and the file's unit");
		check(pf_load_samples_read(path, 0, INT64_MAX, &ls, NULL, NULL) == 0 && ls.seconds == 5 &&
		      la_near(ls.mean_pct, 70), "load-3.4 the whole file: 5 seconds, mean 70 %%");
		unlink(path);
		check(pf_load_samples_read(path, 0, INT64_MAX, &ls, NULL, NULL) == -1 && ls.seconds == 0 &&
		      isnan(ls.mean_pct), "load-3.5 no file: -1, no second");
	}
	/* the gate's share: the lesser of the report's and the samples' over the phase */
	pct = la_pct("sd", "{\"achieved\": {\"write_mb_per_s\": 0.523092, \"rate_limit_bytes_per_s\": 524288}, "
		     "\"samples\": {\"seconds\": 19, \"mean_pct\": 7.2}}", &what);
	check(la_near(pct, 7.2), "load-3.6 sd whose fio ran 0.9 s of a 19 s phase: its samples' 7.2 %%, not fio's 99.8 %%");
	check_str(what, "its mean share over the phase's seconds (samples)", "load-3.7 ... and says so");
	pct = la_pct("wifi", "{\"achieved\": {\"rate_achieved_pct\": 61.6}, \"samples\": {\"mean_pct\": 97}}", &what);
	check(la_near(pct, 61.6) && !strcmp(what, "received / configured rate"),
	      "load-3.8 a report below its samples' mean: the report's");
	pct = la_pct("sd", "{\"achieved\": {\"write_mb_per_s\": 80, \"rate_limit_bytes_per_s\": 0}, "
		     "\"samples\": {\"mean_pct\": 5}}", &what);
	check(isnan(pct) && !what, "load-3.9 no target (sd unlimited): still none, whatever the samples say");
	return tap_done();
}
