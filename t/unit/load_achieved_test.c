/*
 * load_achieved_test.c - unit tests of lib/load_achieved.c: each load's
 * achieved share of its target from its report (docs/loads.md), and the
 * reports that carry no target.
 */
#include "load_achieved.h"
#include "tap.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

/* la_pct - the share of load 'name' whose report is the JSON text 'report', and what was compared */
static double la_pct(const char *name, const char *report, const char **what)
{
	json_t *load = json_loads(report, 0, NULL);
	double pct = pf_load_achieved_pct(name, load, what);

	json_decref(load);
	return pct;
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

	tap_plan(14);
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
	return tap_done();
}
