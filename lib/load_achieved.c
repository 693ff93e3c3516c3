/*
 * load_achieved.c - a load's achieved share of its target, from its report
 * (docs/loads.md): wifi the received rate against the link rate, rt-swarm its
 * jobs per second against the planned ones, cpu stress-ng's CPU use per
 * worker against its configured load, spi the transfers per second against
 * the rate, sd the bytes per second fio wrote against its rate limit. A load
 * without a target (hackbench alone, sd unlimited) has no share: NAN.
 */
#include "load_achieved.h"
#include "jpath.h"

#include <math.h>
#include <string.h>

/* pf_load_num - a number at a path of a report, NAN when absent or not a number */
static double pf_load_num(json_t *v, const char *path)
{
	json_t *n = pf_jpath_get(v, path);

	return json_is_number(n) ? json_number_value(n) : NAN;
}

double pf_load_achieved_pct(const char *name, json_t *load, const char **what)
{
	json_t *a = json_object_get(load, "achieved");
	double target;

	*what = NULL;
	if (!json_is_object(a) || !name)
		return NAN;
	if (!strcmp(name, "wifi") && !isnan(pf_load_num(a, "rate_achieved_pct"))) {
		*what = "received / configured rate";
		return pf_load_num(a, "rate_achieved_pct");
	}
	if (!strcmp(name, "rt-swarm") && (target = pf_load_num(a, "planned_jobs_per_s")) > 0 &&
	    !isnan(pf_load_num(a, "jobs_per_s"))) {
		*what = "jobs / planned jobs per s";
		return 100 * pf_load_num(a, "jobs_per_s") / target;
	}
	if (!strcmp(name, "cpu") && (target = pf_load_num(a, "stress_ng.load_pct")) > 0 &&
	    !(pf_load_num(a, "stress_ng.cpus") <= 0)) {
		/* null: neither stress-ng nor its processes said it (bench/loads/cpu.c) */
		*what = "stress-ng CPU use / configured load";
		return 100 * pf_load_num(a, "stress_ng.cpu_usage_per_instance_pct") / target;
	}
	if (!strcmp(name, "spi") && (target = pf_load_num(a, "rate_hz")) > 0 &&
	    !isnan(pf_load_num(a, "transfers_per_s"))) {
		*what = "transfers / configured transfers per s";
		return 100 * pf_load_num(a, "transfers_per_s") / target;
	}
	if (!strcmp(name, "sd") && (target = pf_load_num(a, "rate_limit_bytes_per_s")) > 0 &&
	    !isnan(pf_load_num(a, "write_mb_per_s"))) {
		*what = "bytes written per s / configured rate";
		return 100 * pf_load_num(a, "write_mb_per_s") * 1e6 / target;
	}
	return NAN;
}
