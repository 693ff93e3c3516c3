/*
 * task_report.c - flightapp's outputs for people and programs: the live status
 * (like cyclictest's), the final task table (like ArduPilot's task report)
 * and the statistics JSON (schema "preflight-flightapp-stats/1", documented
 * in docs/flightapp.md). Every output says when the run was --no-rt.
 */
#include "task_report.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <unistd.h>

#define US(ns) ((double)(ns) / 1e3)

/* app_sched_note - how the threads were scheduled, as every output states it */
static const char *app_sched_note(const struct app *app)
{
	return app->no_rt ? "--no-rt: SCHED_OTHER everywhere, latencies are not realtime"
			  : "SCHED_FIFO as configured";
}

/* app_elapsed_ns - from the first release to the end of the last slot run (or now) */
static int64_t app_elapsed_ns(const struct app *app)
{
	int64_t end = atomic_load((_Atomic int64_t *)&app->end_ns);

	if (!end)
		end = pf_now_ns();
	return end > app->t0_ns ? end - app->t0_ns : 0;
}

double app_utilisation_pct(const struct app *app)
{
	int64_t elapsed = app_elapsed_ns(app), cpu = 0;
	int i;

	for (i = 0; i < app->ntasks; i++)
		if (app->task[i].cfg.policy == APP_POLICY_FIFO)
			cpu += app->task[i].thread_cpu_ns;
	return elapsed > 0 ? 100.0 * (double)cpu / (double)elapsed : 0;
}

/* app_policy_label - "fifo:90" or "other" as the thread really runs */
static const char *app_policy_label(const struct app *app, const struct app_task *t, char *buf, size_t size)
{
	if (app->no_rt || t->cfg.policy == APP_POLICY_OTHER)
		snprintf(buf, size, "other");
	else
		snprintf(buf, size, "fifo:%d", t->cfg.priority);
	return buf;
}

void app_report_status(struct app *app, FILE *f, int64_t now_ns)
{
	struct app_stats_snap s;
	struct app_task *t;
	char pol[16];
	int i;

	fprintf(f, "flightapp: t=%.1f s  (%s)\n", (double)(now_ns - app->t0_ns) / 1e9, app_sched_note(app));
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (!t->ring.rec)
			continue;
		app_stats_read(&t->stats, &s);
		fprintf(f, "T:%-10s P:%-7s C:%8" PRIu64 " Min:%8.1f Act:%8.1f Avg:%8.1f Max:%9.1f RMax:%9.1f"
			" O:%" PRIu64 " M:%" PRIu64 " D:%" PRIu64 " L:%" PRIu64 " (us)\n",
			t->cfg.name, app_policy_label(app, t, pol, sizeof(pol)), s.jobs,
			s.jobs ? US(s.lat_min_ns) : 0, s.jobs ? US(s.lat_last_ns) : 0,
			s.jobs ? US(s.lat_sum_ns) / (double)s.jobs : 0, s.jobs ? US(s.lat_max_ns) : 0,
			US(s.resp_max_ns), s.overruns, s.missed, s.deadline_misses, app_task_dropped(t));
	}
	fflush(f);
}

void app_report_table(struct app *app, FILE *f)
{
	int64_t elapsed = app_elapsed_ns(app);
	struct app_stats_snap s;
	struct app_task *t;
	uint64_t dropped = 0, d;
	char pol[16];
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double util;
	int i;

	fprintf(f, "flightapp: %.3f s, slot %.3f ms, %s\n", (double)elapsed / 1e9,
		(double)app->cfg.slot_ns / 1e6, app_sched_note(app));
	fprintf(f, "%-10s %-10s %-7s %9s %8s %10s %10s %10s %11s %10s %10s %7s %8s %7s %7s %7s %6s\n",
		"task", "kind", "policy", "period_ms", "jobs", "lat_min_us", "lat_avg_us", "lat_max_us",
		"resp_max_us", "cpu_avg_us", "cpu_max_us", "util_%", "overruns", "missed", "dl_miss", "dropped",
		"mk_err");
	for (i = 0; i < app->ntasks; i++) {
		t = &app->task[i];
		if (!t->ring.rec)
			continue;
		app_stats_read(&t->stats, &s);
		d = app_task_dropped(t);
		dropped += d;
		util = elapsed ? 100.0 * (double)t->thread_cpu_ns / (double)elapsed : 0;
		fprintf(f, "%-10s %-10s %-7s %9.3f %8" PRIu64 " %10.1f %10.1f %10.1f %11.1f %10.1f %10.1f %7.2f %8"
			PRIu64 " %7" PRIu64 " %7" PRIu64 " %7" PRIu64 " %6" PRIu64 "\n",
			t->cfg.name, app_kind_name(t->cfg.kind), app_policy_label(app, t, pol, sizeof(pol)),
			(double)(t->cfg.kind == APP_TASK_EVENT ? t->cfg.event_period_ns : t->cfg.period_ns) / 1e6,
			s.jobs, s.jobs ? US(s.lat_min_ns) : 0, s.jobs ? US(s.lat_sum_ns) / (double)s.jobs : 0,
			s.jobs ? US(s.lat_max_ns) : 0, US(s.resp_max_ns),
			s.jobs ? US(s.cpu_sum_ns) / (double)s.jobs : 0, US(s.cpu_max_ns), util,
			s.overruns, s.missed, s.deadline_misses, d, t->marker_errors);
	}
	util = app_utilisation_pct(app);
	fprintf(f, "app utilisation (realtime threads): %.2f %% of one CPU (%.2f %% of %ld CPUs)\n",
		util, ncpu > 0 ? util / (double)ncpu : util, ncpu);
	if (app->joblog_path[0])
		fprintf(f, "skipped slots: %" PRIu64 "; job log: %s (%" PRIu64 " rows, %" PRIu64 " dropped)\n",
			atomic_load(&app->skipped_slots), app->joblog_path, app->joblog_rows, dropped);
	else	/* the rings were drained all the same: only their losses are news */
		fprintf(f, "skipped slots: %" PRIu64 "; job log: none (no --joblog), %" PRIu64 " records dropped\n",
			atomic_load(&app->skipped_slots), dropped);
	fflush(f);
}

/* app_hist_json - the latency histogram: non-empty bins as [lower edge ns, count], outliers exact */
static json_t *app_hist_json(const struct app_stats *st)
{
	json_t *h = json_object(), *bins = json_array(), *out = json_array();
	uint32_t i;

	for (i = 0; i < st->nbins; i++)
		if (st->bins[i])
			json_array_append_new(bins, json_pack("[I,I]", (json_int_t)i * st->bin_ns, (json_int_t)st->bins[i]));
	for (i = 0; i < st->noutliers; i++)
		json_array_append_new(out, json_integer(st->outliers[i]));
	json_object_set_new(h, "bin_ns", json_integer(st->bin_ns));
	json_object_set_new(h, "nbins", json_integer(st->nbins));
	json_object_set_new(h, "bins", bins);
	json_object_set_new(h, "outliers", out);
	return h;
}

/* app_task_json - one task's final statistics */
static json_t *app_task_json(struct app *app, struct app_task *t, int64_t elapsed)
{
	struct app_stats_snap s;
	struct pf_stats lat;
	struct pf_hist h;
	json_t *o = json_object(), *latj = json_null();

	json_object_set_new(o, "name", json_string(t->cfg.name));
	json_object_set_new(o, "id", json_integer(t->id));
	json_object_set_new(o, "kind", json_string(app_kind_name(t->cfg.kind)));
	json_object_set_new(o, "policy", json_string(app->no_rt ? "other" : app_policy_name(t->cfg.policy)));
	json_object_set_new(o, "priority", json_integer(app->no_rt ? 0 : t->cfg.priority));
	json_object_set_new(o, "configured_policy", json_string(app_policy_name(t->cfg.policy)));
	json_object_set_new(o, "configured_priority", json_integer(t->cfg.priority));
	json_object_set_new(o, "tid", json_integer(atomic_load(&t->tid)));
	json_object_set_new(o, "nice", json_integer(t->nice));
	json_object_set_new(o, "period_ns", json_integer(t->cfg.period_ns));
	json_object_set_new(o, "phase_ns", json_integer(t->cfg.phase_ns));
	json_object_set_new(o, "deadline_ns", json_integer(t->deadline_ns));
	json_object_set_new(o, "event_period_ns", json_integer(t->cfg.event_period_ns));
	json_object_set_new(o, "work_ns", json_integer(t->cfg.work_ns));
	json_object_set_new(o, "thread_cpu_ns", json_integer(t->thread_cpu_ns));
	json_object_set_new(o, "utilisation_pct",
			    json_real(elapsed ? 100.0 * (double)t->thread_cpu_ns / (double)elapsed : 0));
	if (!t->ring.rec)
		return o;
	app_stats_read(&t->stats, &s);
	json_object_set_new(o, "jobs", json_integer((json_int_t)s.jobs));
	json_object_set_new(o, "overruns", json_integer((json_int_t)s.overruns));
	json_object_set_new(o, "missed", json_integer((json_int_t)s.missed));
	json_object_set_new(o, "deadline_misses", json_integer((json_int_t)s.deadline_misses));
	json_object_set_new(o, "dropped", json_integer((json_int_t)app_task_dropped(t)));
	json_object_set_new(o, "ring_entries", json_integer((json_int_t)t->ring.mask + 1));
	json_object_set_new(o, "ring_high_water", json_integer((json_int_t)app_ring_high_water(&t->ring)));
	json_object_set_new(o, "missed_after_last", json_integer((json_int_t)app_missed_after_last(t)));
	json_object_set_new(o, "marker_errors", json_integer((json_int_t)t->marker_errors));
	json_object_set_new(o, "response_max_ns", json_integer(s.resp_max_ns));
	json_object_set_new(o, "response_mean_ns", s.jobs ? json_real((double)s.resp_sum_ns / (double)s.jobs) : json_null());
	json_object_set_new(o, "cpu_mean_ns", s.jobs ? json_real((double)s.cpu_sum_ns / (double)s.jobs) : json_null());
	json_object_set_new(o, "cpu_max_ns", json_integer(s.cpu_max_ns));
	json_object_set_new(o, "latency_outliers_lost", json_integer((json_int_t)s.outliers_lost));
	if (!app_stats_hist(&t->stats, &h, &lat)) {
		json_decref(latj);
		latj = pf_stats_json(&lat, "ns");
		pf_hist_free(&h);
	}
	json_object_set_new(o, "latency", latj);
	json_object_set_new(o, "latency_hist", app_hist_json(&t->stats));
	return o;
}

int app_report_json(struct app *app, FILE *f)
{
	int64_t elapsed = app_elapsed_ns(app);
	json_t *root = json_object(), *tasks = json_array();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double util = app_utilisation_pct(app);
	int i, ret = 0;

	json_object_set_new(root, "schema", json_string("preflight-flightapp-stats/1"));
	json_object_set_new(root, "no_rt", json_boolean(app->no_rt));
	json_object_set_new(root, "sched", json_string(app_sched_note(app)));
	json_object_set_new(root, "config", json_string(app->cfg.source));
	json_object_set_new(root, "profile", json_string(app->cfg.profile));
	json_object_set_new(root, "slot_ns", json_integer(app->cfg.slot_ns));
	json_object_set_new(root, "start_mono_ns", json_integer(app->t0_ns));
	json_object_set_new(root, "elapsed_ns", json_integer(elapsed));
	json_object_set_new(root, "skipped_slots", json_integer((json_int_t)atomic_load(&app->skipped_slots)));
	json_object_set_new(root, "dma_latency", json_string(app->dma_state));
	json_object_set_new(root, "memory_locked", json_boolean(app->memory_locked));
	json_object_set_new(root, "trace_instance", json_string(app->trace_instance));
	json_object_set_new(root, "markers", json_string(!app->trace_instance[0] ? "off" : app->marker.text ? "text" : "raw"));
	json_object_set_new(root, "ncpus", json_integer(ncpu));
	json_object_set_new(root, "app_utilisation_pct", json_real(util));
	json_object_set_new(root, "app_utilisation_per_cpu_pct", json_real(ncpu > 0 ? util / (double)ncpu : util));
	json_object_set_new(root, "joblog", json_string(app->joblog_path));
	json_object_set_new(root, "joblog_rows", json_integer((json_int_t)app->joblog_rows));
	for (i = 0; i < app->ntasks; i++)
		json_array_append_new(tasks, app_task_json(app, &app->task[i], elapsed));
	json_object_set_new(root, "tasks", tasks);
	errno = 0;
	if (json_dumpf(root, f, JSON_INDENT(2) | JSON_ENSURE_ASCII) || fflush(f) || ferror(f))
		ret = errno ? -errno : -EIO;
	json_decref(root);
	return ret;
}
