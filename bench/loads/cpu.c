/*
 * cpu.c - the CPU load: hackbench (rt-tests; scheduler and IPC stress,
 * restarted whenever a round ends) and stress-ng CPU workers at a set
 * percentage of each CPU. Reports the hackbench rounds and messages done and
 * stress-ng's bogo-ops and CPU usage, from their own output.
 */
#include "load.h"
#include "common.h"

#include <errno.h>
#include <math.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct cpu_load {
	uint32_t hb_groups;		/* hackbench groups, 0 = no hackbench */
	uint32_t hb_loops;		/* messages per sender per round */
	bool hb_threads;		/* hackbench with threads, not processes */
	uint32_t stress_cpus;		/* stress-ng CPU workers, 0 = none */
	uint32_t stress_load_pct;	/* load of each worker, 1..100 */
	char stress_method[32];		/* stress-ng --cpu-method */
	struct pf_proc hb, stress;
	char hb_out[300], stress_yaml[300], stress_err[300];
	uint64_t hb_rounds;		/* completed hackbench rounds */
	double hb_time_s;		/* their summed "Time:" */
	double stress_bogo_ops, stress_wall_s, stress_usage_pct;
	int64_t stress_start_ns;	/* when stress-ng started */
	/* where stress_usage_pct comes from: stress-ng's own YAML, its processes' CPU time (the YAML
	 * not written: stress-ng ended by a signal before it), or nowhere (NULL: not known) */
	const char *stress_usage_from;
};

static void cpu_defaults(struct load *l)
{
	struct cpu_load *c = l->priv;

	c->hb_groups = 2;
	c->hb_loops = 1000;
	c->stress_cpus = 2;
	c->stress_load_pct = 50;
	strcpy(c->stress_method, "matrixprod");
}

static int cpu_set(struct load *l, const char *key, const char *value)
{
	struct cpu_load *c = l->priv;

	if (!strcmp(key, "hackbench_groups"))
		return load_parse_u32(value, 0, 64, &c->hb_groups);
	if (!strcmp(key, "hackbench_loops"))
		return load_parse_u32(value, 1, 1000000, &c->hb_loops);
	if (!strcmp(key, "hackbench_mode")) {
		if (strcmp(value, "process") && strcmp(value, "thread"))
			return -EINVAL;
		c->hb_threads = !strcmp(value, "thread");
		return 0;
	}
	if (!strcmp(key, "stress_cpus"))
		return load_parse_u32(value, 0, 1024, &c->stress_cpus);
	if (!strcmp(key, "stress_load"))
		return load_parse_u32(value, 1, 100, &c->stress_load_pct);
	if (!strcmp(key, "stress_method"))
		return load_parse_str(value, c->stress_method, sizeof(c->stress_method));
	return -ENOENT;
}

/* cpu_hb_start - start one hackbench round */
static int cpu_hb_start(struct load *l)
{
	struct cpu_load *c = l->priv;
	char groups[16], loops[16];
	char *argv[] = { "hackbench", "-g", groups, "-l", loops,
			 c->hb_threads ? "--threads" : "--process", NULL };
	int ret;

	snprintf(groups, sizeof(groups), "%u", c->hb_groups);
	snprintf(loops, sizeof(loops), "%u", c->hb_loops);
	ret = load_work_begin(l);
	if (ret < 0)
		return ret;
	/* its own group: its --process workers are stopped with it, even when the runner is gone;
	 * its errors beside its "Time:" */
	ret = pf_proc_spawn(&c->hb, argv, c->hb_out, c->hb_out, PF_PROC_PGRP);
	load_work_end(l);
	if (ret < 0)
		return load_why(l, ret, "hackbench: %s", strerror(-ret));
	return 0;
}

/* cpu_hb_collect - count a finished round from its "Time: s" line */
static int cpu_hb_collect(struct load *l)
{
	struct cpu_load *c = l->priv;
	char text[4096], *t;
	int code = pf_proc_exit_code(&c->hb);

	if (code != 0)
		return load_tool_failed(l, "hackbench", &c->hb, c->hb_out);
	if (pf_read_file(c->hb_out, text, sizeof(text)) > 0 && (t = strstr(text, "Time:"))) {
		c->hb_time_s += strtod(t + 5, NULL);
		c->hb_rounds++;
	}
	return 0;
}

static int cpu_check(struct load *l)
{
	struct cpu_load *c = l->priv;

	if (c->hb_groups && pf_proc_which("hackbench"))
		return load_why(l, ENOENT, "hackbench: not found in PATH (package rt-tests)");
	if (c->stress_cpus && pf_proc_which("stress-ng"))
		return load_why(l, ENOENT, "stress-ng: not found in PATH (package stress-ng)");
	if (!c->hb_groups && !c->stress_cpus)
		return load_why(l, EINVAL, "nothing to run: hackbench_groups=0 and stress_cpus=0");
	return 0;
}

static int cpu_start(struct load *l)
{
	struct cpu_load *c = l->priv;
	char cpus[16], pct[16], timeout[32];
	char *argv[] = { "stress-ng", "--cpu", cpus, "--cpu-load", pct, "--cpu-method",
			 c->stress_method, "--metrics-brief", "--yaml", c->stress_yaml,
			 "-t", timeout, NULL };
	int ret;

	snprintf(c->hb_out, sizeof(c->hb_out), "%s/cpu-hackbench-%d.out", l->work_dir, getpid());
	snprintf(c->stress_yaml, sizeof(c->stress_yaml), "%s/cpu-stress-%d.yaml", l->work_dir, getpid());
	snprintf(c->stress_err, sizeof(c->stress_err), "%s/cpu-stress-%d.err", l->work_dir, getpid());
	ret = cpu_check(l);
	if (ret < 0)
		return ret;
	if (c->stress_cpus) {
		snprintf(cpus, sizeof(cpus), "%u", c->stress_cpus);
		snprintf(pct, sizeof(pct), "%u", c->stress_load_pct);
		snprintf(timeout, sizeof(timeout), "%llds",
			 l->duration_ns ? (long long)(l->duration_ns / PF_NS_PER_SEC + 30) : 864000LL);
		ret = load_work_begin(l);	/* the CPU load itself: every CPU it was started with */
		if (ret < 0)
			return ret;
		ret = pf_proc_spawn(&c->stress, argv, "/dev/null", c->stress_err, 0);
		c->stress_start_ns = pf_now_ns();
		load_work_end(l);
		if (ret < 0)
			return load_why(l, ret, "stress-ng: %s", strerror(-ret));
	}
	if (c->hb_groups)
		return cpu_hb_start(l);
	return 0;
}

static int cpu_poll(struct load *l)
{
	struct cpu_load *c = l->priv;
	int ret;

	if (c->stress.pid && !pf_proc_alive(&c->stress))
		return load_tool_failed(l, "stress-ng", &c->stress, c->stress_err);
	if (c->hb_groups && !pf_proc_alive(&c->hb)) {
		ret = cpu_hb_collect(l);
		if (ret < 0)
			return ret;
		return cpu_hb_start(l);
	}
	return 0;
}

/* cpu_yaml_value - the number after "key:" in stress-ng's YAML, or 0 */
static double cpu_yaml_value(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtod(p + strlen(key), NULL) : 0.0;
}

static void cpu_stop(struct load *l)
{
	struct cpu_load *c = l->priv;
	double cpu_ns, wchar, ran_s;
	char text[8192];

	pf_proc_stop(&c->hb, SIGTERM, 2 * PF_NS_PER_SEC, true);	/* an unfinished round does not count */
	if (c->stress.pid) {
		/* its workers' CPU time so far, in case stress-ng ends without its YAML */
		ran_s = (double)(pf_now_ns() - c->stress_start_ns) / PF_NS_PER_SEC;
		if (c->stress_cpus && ran_s > 0 && !load_tree_usage(c->stress.pid, &cpu_ns, &wchar)) {
			c->stress_usage_pct = 100.0 * cpu_ns / PF_NS_PER_SEC / ran_s / c->stress_cpus;
			c->stress_usage_from = "proc";
		}
		pf_proc_stop(&c->stress, SIGINT, 5 * PF_NS_PER_SEC, false);
		if (pf_read_file(c->stress_yaml, text, sizeof(text)) > 0 &&
		    cpu_yaml_value(text, "wall-clock-time:") > 0) {
			c->stress_bogo_ops = cpu_yaml_value(text, "bogo-ops:");
			c->stress_wall_s = cpu_yaml_value(text, "wall-clock-time:");
			c->stress_usage_pct = cpu_yaml_value(text, "cpu-usage-per-instance:");
			c->stress_usage_from = "stress-ng";
		}
	}
}

static json_t *cpu_report(struct load *l)
{
	struct cpu_load *c = l->priv;
	double msgs = (double)c->hb_rounds * c->hb_groups * 20 * 20 * c->hb_loops;

	return json_pack("{s:{s:i, s:i, s:s, s:I, s:f, s:f}, s:{s:i, s:i, s:s, s:f, s:f, s:f, s:o, s:o}}",
			 "hackbench",
			 "groups", (int)c->hb_groups, "loops", (int)c->hb_loops,
			 "mode", c->hb_threads ? "thread" : "process",
			 "rounds", (json_int_t)c->hb_rounds, "busy_s", c->hb_time_s,
			 "messages_per_s", c->hb_time_s > 0 ? msgs / c->hb_time_s : 0.0,
			 "stress_ng",
			 "cpus", (int)c->stress_cpus, "load_pct", (int)c->stress_load_pct,
			 "method", c->stress_method, "bogo_ops", c->stress_bogo_ops,
			 "bogo_ops_per_s", c->stress_wall_s > 0 ? c->stress_bogo_ops / c->stress_wall_s : 0.0,
			 "wall_s", c->stress_wall_s,
			 /* not known (null) when neither stress-ng nor its processes said it: never 0 */
			 "cpu_usage_per_instance_pct", c->stress_usage_from ? json_real(c->stress_usage_pct) : json_null(),
			 "cpu_usage_from", c->stress_usage_from ? json_string(c->stress_usage_from) : json_null());
}

static void cpu_cleanup(struct load *l)
{
	struct cpu_load *c = l->priv;

	pf_proc_stop(&c->hb, SIGTERM, 2 * PF_NS_PER_SEC, true);
	pf_proc_stop(&c->stress, SIGTERM, 2 * PF_NS_PER_SEC, false);
	if (c->hb_out[0]) {
		unlink(c->hb_out);
		unlink(c->stress_yaml);
		unlink(c->stress_err);
	}
}

/* cpu_sample - the stress-ng workers' CPU use (% of one CPU each, in seconds) against stress_load */
static int cpu_sample(struct load *l, double *count, double *target_per_s)
{
	struct cpu_load *c = l->priv;
	double cpu_ns, wchar;

	if (!c->stress_cpus || !c->stress.pid || load_tree_usage(c->stress.pid, &cpu_ns, &wchar))
		return -ENODATA;
	*count = 100.0 * cpu_ns / PF_NS_PER_SEC / c->stress_cpus;
	*target_per_s = c->stress_load_pct;
	return 0;
}

const struct load_ops load_cpu = {
	.name = "cpu",
	.summary = "hackbench (rt-tests) rounds and stress-ng CPU workers",
	.params_help =
	"  hackbench_groups=N   hackbench groups of 20 senders / 20 receivers, 0 = off (2)\n"
	"  hackbench_loops=N    messages per sender per round (1000)\n"
	"  hackbench_mode=M     process | thread (process)\n"
	"  stress_cpus=N        stress-ng CPU workers, 0 = off (2)\n"
	"  stress_load=PCT      load of each worker, 1-100 (50)\n"
	"  stress_method=NAME   stress-ng --cpu-method (matrixprod)\n",
	.priv_size = sizeof(struct cpu_load),
	.defaults = cpu_defaults,
	.set = cpu_set,
	.check = cpu_check,
	.start = cpu_start,
	.poll = cpu_poll,
	.stop = cpu_stop,
	.sample = cpu_sample,
	.sample_unit = "%",
	.report = cpu_report,
	.cleanup = cpu_cleanup,
};
