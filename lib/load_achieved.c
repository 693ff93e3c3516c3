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
#include <stdio.h>
#include <string.h>

#define PF_HALF_SECOND_NS 500000000LL

/* pf_load_num - a number at a path of a report, NAN when absent or not a number */
static double pf_load_num(json_t *v, const char *path)
{
	json_t *n = pf_jpath_get(v, path);

	return json_is_number(n) ? json_number_value(n) : NAN;
}

/*
 * pf_load_report_pct - the share of its target a load's own report says it
 * achieved over its own time (pf_load_achieved_pct without the samples)
 */
static double pf_load_report_pct(const char *name, json_t *load, const char **what)
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

double pf_load_achieved_pct(const char *name, json_t *load, const char **what)
{
	double pct = pf_load_report_pct(name, load, what), mean = pf_load_num(load, "samples.mean_pct");

	/*
	 * its own report averages over the time it ran (fio's, iperf3's chunks):
	 * a load that started late or paused loaded less of the phase, which
	 * its samples over the phase show; the lesser of the two is judged
	 */
	if (*what && isfinite(mean) && !(pct <= mean)) {
		*what = "its mean share over the phase's seconds (samples)";
		return mean;
	}
	return pct;
}

int pf_load_samples_read(const char *path, int64_t from_ns, int64_t to_ns, struct pf_load_samples *s,
			 void (*each)(void *arg, int64_t t_ns, double pct), void *arg)
{
	char line[256];
	long long t;
	double ach, tgt, pct, sum = 0;
	FILE *f = fopen(path, "re");

	*s = (struct pf_load_samples){ 0, 0, NAN, NAN, "" };
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "# load=", 7) && strstr(line, " unit="))
			snprintf(s->unit, sizeof(s->unit), "%.*s", (int)strcspn(strstr(line, " unit=") + 6, "\r\n"),
				 strstr(line, " unit=") + 6);
		if (sscanf(line, "%lld,%lf,%lf", &t, &ach, &tgt) != 3 || !(tgt > 0) || !isfinite(ach))
			continue;
		pct = 100 * ach / tgt;
		s->total++;
		if (each)
			each(arg, (int64_t)t, pct);
		/* a sample is the second before t: in the window when most of it is */
		if (t - PF_HALF_SECOND_NS < from_ns || t - PF_HALF_SECOND_NS > to_ns)
			continue;
		sum += pct;
		s->worst_pct = s->seconds ? fmin(s->worst_pct, pct) : pct;
		s->seconds++;
	}
	fclose(f);
	s->mean_pct = s->seconds ? sum / s->seconds : NAN;
	return 0;
}
