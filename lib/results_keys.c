/*
 * results_keys.c - the keys of results.json as path patterns (see
 * results_keys.h). A pattern's segments are separated by dots; '*' is one
 * array element (by name, comm or cpu) or '*' itself; a pattern ending in
 * "{stats}" is a statistics object (docs/results.md: its numbers count, min,
 * mean, stddev, max, max_at, max_id, bin_width and the percentiles); one
 * ending in ".**" is a member whose content is another file's as it is (the
 * flight software's fsw.json, the loads' reports, the run's facts), whose
 * keys are that file's own.
 */
#include "results_keys.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static const char *const pf_results_keys[] = {
	"schema", "generator", "partial", "inputs.trace", "inputs.joblog", "inputs.cyclictest",
	"trace.file", "trace.file_version", "trace.clock", "trace.cpus", "trace.events",
	"trace.start_ns", "trace.end_ns", "trace.duration_ns", "trace.lost_events", "trace.lost_unknown",
	"trace.events_seen.sched_switch", "trace.events_seen.sched_waking", "trace.events_seen.sched_wakeup",
	"trace.events_seen.sched_migrate_task", "trace.events_seen.irq_handler_entry", "trace.events_seen.irq_vectors_entry",
	"trace.events_seen.softirq_entry", "trace.events_seen.hrtimer_expire_entry",
	"trace.events_seen.markers", "trace.switches_inferred",
	"threads.*.pid", "threads.*.prio", "threads.*.rtprio", "threads.*.runtime_ns",
	"threads.*.utilisation", "threads.*.utilisation_max_10ms", "threads.*.utilisation_max_1s",
	"threads.*.switches", "threads.*.preemptions", "threads.*.migrations", "threads.*.wakeups",
	"threads.*.wakeup_latency_ns{stats}", "threads.*.wakeup_latency_from_wakeup_ns{stats}",
	"threads.*.wakeup_latency_inferred_ns{stats}", "threads.*.switches_inferred",
	"threads.*.wakeups_unresolved", "threads.*.lost_events", "threads.*.inversions",
	"threads_listing.threads_seen", "threads_listing.listed", "threads_listing.omitted",
	"cpus.*.cpu", "cpus.*.elapsed_ns", "cpus.*.busy_ns", "cpus.*.utilisation", "cpus.*.idle_ns",
	"cpus.*.idle", "cpus.*.hardirq_ns", "cpus.*.hardirq", "cpus.*.softirq_ns", "cpus.*.softirq",
	"cpus.*.lost_events",
	"tasks.*.id", "tasks.*.tid", "tasks.*.period_ns", "tasks.*.deadline_ns", "tasks.*.prio",
	"tasks.*.jobs", "tasks.*.activation_latency_ns{stats}", "tasks.*.wakeup_latency_ns{stats}",
	"tasks.*.chained_jobs", "tasks.*.start_jitter_ns",
	"tasks.*.period_jitter_ns{stats}", "tasks.*.response_time_ns{stats}", "tasks.*.exec_time_ns{stats}",
	"tasks.*.cpu_time_ns{stats}", "tasks.*.preemptions", "tasks.*.migrations",
	"tasks.*.preemptions_per_job{stats}", "tasks.*.migrations_per_job{stats}", "tasks.*.overruns",
	"tasks.*.deadline_misses", "tasks.*.missed_activations",
	"tasks.*.decomposition.timer_expiry_delay_ns{stats}", "tasks.*.decomposition.release_to_wake_ns{stats}",
	"tasks.*.decomposition.wake_to_run_ns{stats}", "tasks.*.decomposition.app_delay_ns{stats}",
	"tasks.*.decomposition.wake_to_start_ns{stats}", "tasks.*.decomposition.observer_ns{stats}",
	"tasks.*.observer_jobs", "tasks.*.culprit_coverage.worst", "tasks.*.culprit_coverage.explained",
	"tasks.*.joblog.jobs", "tasks.*.joblog.activation_latency_ns{stats}",
	"tasks.*.joblog.response_time_ns{stats}", "tasks.*.joblog.cpu_time_ns{stats}",
	"tasks.*.joblog.overruns", "tasks.*.joblog.deadline_misses", "tasks.*.joblog.missed_activations",
	"tasks.*.joblog.dropped",
	"tasks.*.agreement.matched", "tasks.*.agreement.trace_only", "tasks.*.agreement.joblog_only",
	"tasks.*.agreement.activation_latency_diff_ns{stats}", "tasks.*.agreement.exec_time_diff_ns{stats}",
	"tasks.*.agreement.uncertainty.activation_latency_ns", "tasks.*.agreement.uncertainty.exec_time_ns",
	"tasks.*.lost_events_jobs", "tasks.*.hidden_releases", "tasks.*.tail.**",
	"tasks.*.inversion_count", "tasks.*.inversions.*.seq", "tasks.*.inversions.*.wake_ns",
	"tasks.*.inversions.*.waker_pid", "tasks.*.inversions.*.waker_prio", "tasks.*.inversions.*.prio",
	"tasks.*.inversions.*.blocked_ns",
	"app.no_rt", "app.utilisation", "app.utilisation_all_cpus", "app.utilisation_max_1s",
	"app.utilisation_max_slot",
	"slots.slot_ns", "slots.count", "slots.overruns", "slots.lost_events_slots",
	"lost_events.total", "lost_events.unknown", "lost_events.windows_truncated",
	"cyclictest.return_code", "cyclictest.buckets", "cyclictest.histofall",
	"cyclictest.sysinfo.**", "cyclictest.threads.*.thread", "cyclictest.threads.*.tail.**",
	"cyclictest.all.tail.**",
	"cyclictest.threads.*.overflows.estimated_min_ns", "cyclictest.threads.*.overflows.estimated_max_ns",
	"cyclictest.threads.*.overflows.cycles", "cyclictest.threads.*.overflows.cycles_not_listed",
	"cyclictest.all.overflows.estimated_min_ns", "cyclictest.all.overflows.estimated_max_ns",
	"cyclictest.all.overflows.cycles", "cyclictest.all.overflows.cycles_not_listed", "cyclictest.threads.*.cpu",
	"cyclictest.threads.*.node", "cyclictest.threads.*.latency_ns{stats}",
	"cyclictest.threads.*.overflows.count", "cyclictest.threads.*.overflows.threshold_ns",
	"cyclictest.threads.*.overflows.exact", "cyclictest.threads.*.overflows.estimated",
	"cyclictest.all.latency_ns{stats}", "cyclictest.all.overflows.count",
	"cyclictest.all.overflows.threshold_ns", "cyclictest.all.overflows.exact",
	"cyclictest.all.overflows.estimated",
	"cyclictest_wakeups.wakeups_unmeasured", "cyclictest_wakeups.wakeups_unresolved",
	"cyclictest_wakeups.process_pid", "cyclictest_wakeups.processes_seen", "cyclictest_wakeups.threads_left_out",
	"cyclictest_wakeups.threads.*.tid", "cyclictest_wakeups.threads.*.cpu", "cyclictest_wakeups.threads.*.wakeups",
	"cyclictest_wakeups.threads.*.latency_ns{stats}", "cyclictest_wakeups.threads.*.reported_max_ns",
	"cyclictest_wakeups.threads.*.reported_minus_max_ns", "cyclictest_wakeups.threads.*.rearm_latency_ns{stats}",
	"cyclictest_wakeups.threads.*.preempted_wakeups",
	"cyclictest_wakeups.worst.*.tid", "cyclictest_wakeups.worst.*.wakeup", "cyclictest_wakeups.worst.*.upper_bound", "cyclictest_wakeups.worst.*.release_ns",
	"cyclictest_wakeups.worst.*.start_ns", "cyclictest_wakeups.worst.*.cpu", "cyclictest_wakeups.worst.*.latency_ns",
	"cyclictest_wakeups.worst.*.not_woken_ns", "cyclictest_wakeups.worst.*.timer_expiry_delay_ns",
	"cyclictest_wakeups.worst.*.runnable_ns", "cyclictest_wakeups.worst.*.app_delay_ns",
	"cyclictest_wakeups.worst.*.pid", "cyclictest_wakeups.worst.*.waker_pid",
	"cyclictest_wakeups.worst.*.contributors.*.id", "cyclictest_wakeups.worst.*.contributors.*.pid",
	"cyclictest_wakeups.worst.*.contributors.*.duration_ns", "cyclictest_wakeups.worst.*.contributors.*.share",
	"cyclictest_wakeups.worst.*.explained_ns", "cyclictest_wakeups.worst.*.explained",
	"cyclictest_wakeups.worst.*.complete",
	"timerlat.thread_latency_max_ns", "timerlat.worst_cpu", "timerlat.cpus.*.cpu", "timerlat.cpus.*.tid",
	"timerlat.cpus.*.irq_latency_ns{stats}", "timerlat.cpus.*.thread_latency_ns{stats}",
	"timerlat.cpus.*.cycles_missing", "timerlat.cpus.*.thread_unpaired",
	"timerlat.cpus.*.worst.seqnum", "timerlat.cpus.*.worst.thread_latency_ns", "timerlat.cpus.*.worst.irq_latency_ns",
	"timerlat.cpus.*.worst.irq_entry_ns", "timerlat.cpus.*.worst.irq_to_thread_ns",
	"timerlat.cpus.*.worst.release_ns", "timerlat.cpus.*.worst.start_ns", "timerlat.cpus.*.worst.latency_ns",
	"timerlat.cpus.*.worst.not_woken_ns", "timerlat.cpus.*.worst.runnable_ns", "timerlat.cpus.*.worst.app_delay_ns",
	"timerlat.cpus.*.worst.contributors.*.duration_ns", "timerlat.cpus.*.worst.explained_ns",
	"timerlat.cpus.*.worst.after_irq.release_ns", "timerlat.cpus.*.worst.after_irq.start_ns",
	"timerlat.cpus.*.worst.after_irq.latency_ns", "timerlat.cpus.*.worst.after_irq.contributors.*.duration_ns",
	"timerlat.cpus.*.worst.after_irq.explained_ns",
	"timerlat.cpus.*.worst.osnoise.timer_irq_duration_ns", "timerlat.cpus.*.worst.osnoise.interrupted_pid",
	"timerlat.cpus.*.worst.osnoise.blocking_thread.duration_ns", "timerlat.cpus.*.worst.osnoise.blocking_thread.pid",
	"timerlat.cpus.*.worst.osnoise.irq_interference_ns", "timerlat.cpus.*.worst.osnoise.irq_interference_count",
	"timerlat.cpus.*.worst.osnoise.softirq_interference_ns", "timerlat.cpus.*.worst.osnoise.thread_interference_ns",
	"timerlat.cpus.*.worst.osnoise.thread_interference_count",
	"timerlat.cpus.*.worst.osnoise.thread_interference_top.pid",
	"timerlat.cpus.*.worst.osnoise.thread_interference_top.duration_ns",
	"fsw.**", "loads.**", "run.**",
};

/* the numbers of a statistics object */
static const char *const pf_results_stats[] = {
	"count", "min", "mean", "stddev", "max", "max_at", "max_id", "bin_width",
	"p50", "p90", "p99", "p99.9", "p99.99", "p99.999",
};

/*
 * pf_results_match - how much of metric m a pattern p (both from their
 * start) matches: the length matched when all of p matched (the end of m
 * for "**"; m may end at an object on p's way), else -1; *deep is the longest part of m matched in any case
 */
static long pf_results_match(const char *p, const char *m, size_t *deep, const char *m0)
{
	size_t n;

	if ((size_t)(m - m0) > *deep)
		*deep = (size_t)(m - m0);
	if (!*p)
		return m - m0;
	if (!strcmp(p, "**"))
		return *m ? (long)strlen(m0) : -1;
	n = strcspn(p, ".");
	if (n == 1 && *p == '*') {
		size_t k = strcspn(m, ".");

		if (!k)
			return -1;
		m += k;
	} else if (!strncmp(p, m, n) && (m[n] == '.' || !m[n])) {
		m += n;
	} else {
		return -1;
	}
	p += n;
	if (*p == '.') {
		if (!*m)
			return m - m0;	/* an object on the way (a statistics object): the budget says what it is */
		if (*m != '.')
			return -1;
		p++;
		m++;
	}
	return pf_results_match(p, m, deep, m0);
}

int pf_results_key_known(const char *metric, char *why, size_t size)
{
	char pat[256];
	size_t i, k, deep = 0, len;
	const char *st;

	for (i = 0; i < sizeof(pf_results_keys) / sizeof(pf_results_keys[0]); i++) {
		snprintf(pat, sizeof(pat), "%s", pf_results_keys[i]);
		st = strstr(pat, "{stats}");
		if (!st) {
			if (pf_results_match(pat, metric, &deep, metric) == (long)strlen(metric))
				return 1;
			continue;
		}
		len = (size_t)(st - pat);
		for (k = 0; k < sizeof(pf_results_stats) / sizeof(pf_results_stats[0]); k++) {
			snprintf(pat + len, sizeof(pat) - len, ".%s", pf_results_stats[k]);
			if (pf_results_match(pat, metric, &deep, metric) == (long)strlen(metric))
				return 1;
		}
	}
	if (deep && metric[deep] == '.')
		deep++;
	snprintf(why, size, "%s'%.*s' has no '%.*s'", deep ? "" : "results.json has no '",
		 deep ? (int)deep - 1 : (int)strcspn(metric, "."), metric,
		 (int)strcspn(metric + deep, "."), metric + deep);
	if (!deep)
		snprintf(why, size, "results.json has no member '%.*s'", (int)strcspn(metric, "."), metric);
	return 0;
}

void pf_results_keys_print(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(pf_results_keys) / sizeof(pf_results_keys[0]); i++)
		fprintf(out, "%s\n", pf_results_keys[i]);
}

/*
 * The two spellings of compare's run-level metrics: 'preflight compare',
 * 'baseline' and 'history' once named them subject.metric.stat
 * ("io.activation_latency.p99"); the name every command now writes is the
 * results.json path 'check' reads ("tasks.io.activation_latency_ns.p99"),
 * and every command reads both. '$' is one segment (a task, a CPU), '%' the
 * rest (a statistic such as p99.9); the first pattern that matches wins.
 */
static const struct { const char *old, *path; } pf_metric_names[] = {
	{ "$.activation_latency.%", "tasks.$.activation_latency_ns.%" },
	{ "$.response_time.%", "tasks.$.response_time_ns.%" },
	{ "$.exec_time.%", "tasks.$.exec_time_ns.%" },
	{ "$.overruns.count", "tasks.$.overruns" },
	{ "$.deadline_misses.count", "tasks.$.deadline_misses" },
	{ "$.missed_activations.count", "tasks.$.missed_activations" },
	{ "$.dropped_joblog_rows.count", "tasks.$.joblog.dropped" },
	{ "app.utilisation.run", "app.utilisation" },
	{ "app.utilisation.max_1s", "app.utilisation_max_1s" },
	{ "app.slot_overruns.count", "slots.overruns" },
	{ "run.lost_events.count", "lost_events.total" },
	{ "cpu$.cyclictest_latency.%", "cyclictest.threads.$.latency_ns.%" },
};

/*
 * pf_metric_match - does name match pattern p; the segment '$' stands for
 * and the rest '%' into seg[] / rest[] (empty when p has none)
 */
static bool pf_metric_match(const char *p, const char *name, char *seg, char *rest, size_t size)
{
	size_t n;

	*seg = *rest = '\0';
	for (; *p; p++) {
		if (*p == '$') {
			n = strcspn(name, ".");
			if (!n || n >= size)
				return false;
			memcpy(seg, name, n);
			seg[n] = '\0';
			name += n;
		} else if (*p == '%') {
			n = strlen(name);
			if (!n || n >= size)
				return false;
			memcpy(rest, name, n + 1);
			name += n;
		} else if (*p == *name) {
			name++;
		} else {
			return false;
		}
	}
	return !*name;
}

/* pf_metric_map - name through the first pattern of one column matched, into the other; false when none */
static bool pf_metric_map(const char *name, bool to_path, char *out, size_t size)
{
	char seg[128], rest[128];
	const char *p, *q;
	size_t i, len = 0;

	for (i = 0; i < sizeof(pf_metric_names) / sizeof(pf_metric_names[0]); i++) {
		p = to_path ? pf_metric_names[i].old : pf_metric_names[i].path;
		if (!pf_metric_match(p, name, seg, rest, sizeof(seg)))
			continue;
		for (q = to_path ? pf_metric_names[i].path : pf_metric_names[i].old; *q && len + 1 < size; q++)
			len += (size_t)snprintf(out + len, size - len, "%s", *q == '$' ? seg : *q == '%' ? rest :
						(char[2]){ *q, '\0' });
		return len < size;
	}
	return false;
}

bool pf_metric_path(const char *name, char *out, size_t size)
{
	if (pf_metric_map(name, true, out, size))
		return true;
	snprintf(out, size, "%s", name);
	return false;
}

bool pf_metric_old_name(const char *path, char *out, size_t size)
{
	if (pf_metric_map(path, false, out, size))
		return true;
	snprintf(out, size, "%s", path);
	return false;
}
