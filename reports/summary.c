/*
 * summary.c - `preflight summary RUN_DIR [-o FILE]`: the plain-text
 * qualification summary of a run directory, for people: the machine and its
 * survey's warnings, every phase with the loads it achieved and its
 * cyclictest baseline, per task activation latency / response / overruns,
 * app utilisation, the worst culprits, the verdicts and the evidence
 * (SHA-256), ending with the result.
 *
 * It reads only files of the run directory (run.json, sysinfo.json,
 * loads.json, results.json, NN-<phase>/{fsw,sim,results}.json,
 * verdicts.json, SHA256SUMS), so it can be rebuilt from a run directory
 * alone. `preflight run` writes it as report.txt and `preflight qualify` as
 * qualification.txt, each by running this command as a child process
 * (docs/ARCHITECTURE.md: the orchestrators reach the stages only through
 * child processes and files).
 */
#include "command.h"
#include "ct_overflow.h"
#include "decision.h"
#include "outfile.h"
#include "outguard.h"
#include "common.h"
#include "jpath.h"
#include "stale.h"
#include "tail_model.h"

#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SUMMARY_RUN_SCHEMA "preflight-run/"	/* run.json's schema, any version */
#define SUMMARY_VERDICTS_SCHEMA "preflight-verdicts/1"	/* verdicts.json's (docs/verdicts.md) */

/* summary_load - a JSON file of the run directory (of its phase directory 'phase' if not NULL), or NULL */
static json_t *summary_load(const char *dir, const char *phase, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s%s%s", dir, phase ? phase : "", phase ? "/" : "", name);
	return json_load_file(path, 0, NULL);
}

/* summary_num - a number at a path, NaN-free: 'none' when missing */
static double summary_num(json_t *v, const char *path, double none)
{
	json_t *n = pf_jpath_get(v, path);

	return json_is_number(n) ? json_number_value(n) : none;
}

/* summary_str - a string at a path, or 'none' */
static const char *summary_str(json_t *v, const char *path, const char *none)
{
	const char *s = json_string_value(pf_jpath_get(v, path));

	return s ? s : none;
}

/* summary_us - a nanosecond figure at a path as "123.4 us" (or "-" when missing or negative) */
static const char *summary_us(json_t *v, const char *path, char *buf, size_t size)
{
	double ns = summary_num(v, path, -1);

	return pf_fmt_us(buf, size, ns < 0 ? NAN : ns, false);
}

/* summary_pct_as - summary_pct; in a table's column the max is said shorter: "=max n=8997" */
static const char *summary_pct_as(json_t *v, const char *path, const char *key, bool column,
				  char *buf, size_t size)
{
	json_t *stats = pf_jpath_get(v, path), *k;
	char full[256], us[32];
	size_t i;

	json_array_foreach(json_object_get(stats, "is_max"), i, k)
		if (json_is_string(k) && !strcmp(json_string_value(k), key)) {
			snprintf(buf, size, column ? "=max n=%lld" : "= max, n = %lld",
				 (long long)json_integer_value(json_object_get(stats, "count")));
			return buf;
		}
	/* a rank among samples known only by a bound (an overflowed histogram's): unknown, never "-" */
	k = json_object_get(json_object_get(stats, "bounds"), key);
	if (json_is_null(json_object_get(stats, key)) && json_is_number(json_object_get(k, ">="))) {
		snprintf(buf, size, column ? ">=%s" : "unknown (>= %s)",
			 pf_fmt_us(us, sizeof(us), json_number_value(json_object_get(k, ">=")), false));
		return buf;
	}
	snprintf(full, sizeof(full), "%s.%s", path, key);
	return summary_us(v, full, buf, size);
}

/*
 * summary_pct - percentile 'key' of the statistics object at 'path' as
 * "123.4 us", or "= max, n = 8997" when the object has too few samples for
 * it (its "is_max", docs/results.md): a tail percentile of a small sample
 */
static const char *summary_pct(json_t *v, const char *path, const char *key, char *buf, size_t size)
{
	return summary_pct_as(v, path, key, false, buf, size);
}

/* summary_count - an integer at a path as text, or 'none' */
static const char *summary_count(json_t *v, const char *path, char *buf, size_t size, const char *none)
{
	json_t *n = pf_jpath_get(v, path);

	if (!json_is_integer(n))
		return none;
	snprintf(buf, size, "%lld", (long long)json_integer_value(n));
	return buf;
}

/* summary_machine - who was measured, the survey's warnings and the run's own (run.json) */
static void summary_machine(json_t *si, json_t *run, FILE *out)
{
	json_t *w, *warnings = pf_jpath_get(si, "warnings");
	size_t i;
	char *dump;

	fprintf(out, "\nmachine\n");
	json_array_foreach(pf_jpath_get(run, "warnings"), i, w)
		fprintf(out, "  warning: %s\n", json_is_string(w) ? json_string_value(w) : "?");
	if (!si) {
		fprintf(out, "  (no sysinfo.json: 'preflight sysinfo' did not run)\n");
		return;
	}
	fprintf(out, "  host %s, kernel %s (%s), preemption %s, %d CPUs%s\n",
		summary_str(si, "hostname", "?"), summary_str(si, "kernel.release", "?"),
		summary_str(si, "kernel.arch", "?"), summary_str(si, "kernel.preempt_model", "?"),
		(int)summary_num(si, "cpus.online_count", summary_num(si, "cpus.count", 0)),
		json_is_true(pf_jpath_get(si, "virtualization.virtualized")) ? ", virtualised" : "");
	json_array_foreach(warnings, i, w) {
		if (json_is_string(w)) {
			fprintf(out, "  warning: %s\n", json_string_value(w));
		} else {
			const char *text = summary_str(w, "message", summary_str(w, "text", NULL));

			if (text) {
				fprintf(out, "  warning: %s\n", text);
			} else {
				dump = json_dumps(w, JSON_COMPACT);
				fprintf(out, "  warning: %s\n", dump ? dump : "?");
				free(dump);
			}
		}
	}
}

/* summary_app_spi - the app's own SPI transfer times (fsw.json spi_transfer_ns), beside the exerciser's */
static void summary_app_spi(json_t *fsw, FILE *out)
{
	json_t *t = pf_jpath_get(fsw, "spi_transfer_ns");
	char b1[32], b2[32], b3[32];

	if (!json_is_object(t))
		return;
	fprintf(out, "    %-9s%d transfers of %d bytes (io task, %s), min %s, max %s, p99 %s, over 1 ms: %d\n",
		"app spi", (int)summary_num(t, "count", 0), (int)summary_num(t, "frame_bytes", 0),
		summary_str(t, "backend", "?"), summary_us(t, "min", b3, sizeof(b3)), summary_us(t, "max", b1, sizeof(b1)),
		summary_us(t, "p99", b2, sizeof(b2)), (int)summary_num(t, "over_1ms", 0));
}

/* summary_telemetry - the app's telemetry stream's delivery, as the wifi load's receiver saw it */
static void summary_telemetry(json_t *a, FILE *out)
{
	json_t *t = pf_jpath_get(a, "telemetry");
	char b1[32], b2[32], b3[32];

	if (!json_is_object(t))
		return;
	/* a phase without the app (a cyclictest baseline under load) has no stream to report */
	if (json_is_null(pf_jpath_get(t, "sent")) && summary_num(t, "received", 0) == 0 && !pf_jpath_get(t, "unavailable"))
		return;
	fprintf(out, "    %-9s", "app tlm");
	if (pf_jpath_get(t, "unavailable"))
		fprintf(out, "unavailable: %s\n", summary_str(t, "unavailable", "?"));
	else
		fprintf(out, "%s sent, %d received, %d lost, %d late (> %.0f ms), delay p99 %s max %s\n",
			summary_count(t, "sent", b3, sizeof(b3), "?"), (int)summary_num(t, "received", 0),
			(int)summary_num(t, "lost", 0), (int)summary_num(t, "late", 0),
			summary_num(t, "late_bound_ns", 0) / 1e6, summary_us(t, "delay_ns.p99", b1, sizeof(b1)),
			summary_us(t, "delay_ns.max", b2, sizeof(b2)));
}

/* summary_load_line - one load's achieved figures in one line (the app's own beside wifi and spi) */
static void summary_load_line(const char *name, json_t *rep, json_t *fsw, FILE *out)
{
	json_t *a = json_object_get(rep, "achieved");
	char b1[32], b2[32], b3[32];

	fprintf(out, "    %-9s", name);
	if (json_object_get(rep, "error"))
		fprintf(out, "FAILED: %s\n", summary_str(rep, "error", "?"));
	else if (!strcmp(name, "wifi"))
		fprintf(out, "%.2f of %.2f Mbit/s received (%.0f %%), UDP %.2f Mbit/s loss %.2f %%, TCP %.2f Mbit/s %d retransmits\n",
			summary_num(a, "received_bps", 0) / 1e6, summary_num(a, "rate_bps", 0) / 1e6,
			summary_num(a, "rate_achieved_pct", 0), summary_num(a, "udp.received_bps", 0) / 1e6,
			summary_num(a, "udp.loss_pct", 0), summary_num(a, "tcp.received_bps", 0) / 1e6,
			(int)summary_num(a, "tcp.retransmits", 0));
	else if (!strcmp(name, "sd") && pf_jpath_get(a, "logger.unavailable"))
		fprintf(out, "%.2f MB/s written, %d fsyncs p99 %s max %s; app logger: %s\n",
			summary_num(a, "write_mb_per_s", 0), (int)summary_num(a, "fsyncs", 0),
			summary_us(a, "fsync_latency_p99_ns", b1, sizeof(b1)),
			summary_us(a, "fsync_latency_max_ns", b2, sizeof(b2)),
			summary_str(a, "logger.unavailable", "?"));
	else if (!strcmp(name, "sd") && pf_jpath_get(a, "logger"))
		fprintf(out, "%.2f MB/s written, %d fsyncs p99 %s max %s; app logger: %d rows, %d dropped, ring high-water %s\n",
			summary_num(a, "write_mb_per_s", 0), (int)summary_num(a, "fsyncs", 0),
			summary_us(a, "fsync_latency_p99_ns", b1, sizeof(b1)),
			summary_us(a, "fsync_latency_max_ns", b2, sizeof(b2)),
			(int)summary_num(a, "logger.joblog_rows", 0), (int)summary_num(a, "logger.dropped", 0),
			summary_count(a, "logger.ring_high_water", b3, sizeof(b3), "not reported by the app"));
	else if (!strcmp(name, "sd"))	/* no app in the phase: its logger is no subject */
		fprintf(out, "%.2f MB/s written, %d fsyncs p99 %s max %s\n",
			summary_num(a, "write_mb_per_s", 0), (int)summary_num(a, "fsyncs", 0),
			summary_us(a, "fsync_latency_p99_ns", b1, sizeof(b1)),
			summary_us(a, "fsync_latency_max_ns", b2, sizeof(b2)));
	else if (!strcmp(name, "spi"))
		fprintf(out, "%.0f transfers/s of %d bytes, max %s, p99.99 %s, over %.0f us: %d, errors %d\n",
			summary_num(a, "transfers_per_s", 0), (int)summary_num(a, "size_bytes", 0),
			summary_us(a, "transfer_time_ns.max", b1, sizeof(b1)),
			summary_pct(a, "transfer_time_ns", "p99.99", b2, sizeof(b2)),
			summary_num(a, "limit_ns", 0) / 1000, (int)summary_num(a, "over_limit", 0),
			(int)summary_num(a, "errors", 0));
	else if (!strcmp(name, "cpu"))
		fprintf(out, "hackbench %d rounds (%.0f msg/s), stress-ng %d CPUs at %d %%: %.0f bogo-ops/s\n",
			(int)summary_num(a, "hackbench.rounds", 0), summary_num(a, "hackbench.messages_per_s", 0),
			(int)summary_num(a, "stress_ng.cpus", 0), (int)summary_num(a, "stress_ng.load_pct", 0),
			summary_num(a, "stress_ng.bogo_ops_per_s", 0));
	else if (!strcmp(name, "rt-swarm"))
		fprintf(out, "%d of %d tasks, %.0f of %.0f jobs/s, latency max %s p99 %s, %d missed\n",
			(int)summary_num(a, "started", 0), (int)summary_num(a, "tasks", 0),
			summary_num(a, "jobs_per_s", 0), summary_num(a, "planned_jobs_per_s", 0),
			summary_us(a, "activation_latency.max", b1, sizeof(b1)),
			summary_us(a, "activation_latency.p99", b2, sizeof(b2)),
			(int)summary_num(a, "missed_activations", 0));
	else
		fprintf(out, "\n");
	if (!strcmp(name, "wifi"))
		summary_telemetry(a, out);
	if (!strcmp(name, "spi"))
		summary_app_spi(fsw, out);
}

/*
 * summary_sim - the simulator's and the flight software's figures of a
 * flightapp phase, if it ran (the app's SPI times here when no spi load
 * printed them beside its own)
 */
static void summary_sim(const char *dir, const char *phase, json_t *fsw, bool spi_load, FILE *out)
{
	json_t *sim = summary_load(dir, phase, "sim.json");
	char b1[32];

	if (sim)
		fprintf(out, "    %-9s%d IMU frames, %d GPS fixes, %d SPI transfers (slave service max %.1f us), "
			"%d late ticks, track error rms %.1f m\n", "sim",
			(int)summary_num(sim, "imu_frames", 0), (int)summary_num(sim, "gps_fixes", 0),
			(int)summary_num(sim, "spi_transfers", 0), summary_num(sim, "spi_service_max_us", 0),
			(int)summary_num(sim, "late_ticks", 0), summary_num(sim, "track_err_rms_m", 0));
	/* what the simulator counted while the app flew, apart from before and after it (issue 32.15) */
	if (sim && json_is_number(pf_jpath_get(sim, "app_start_s"))) {
		fprintf(out, "    %-9sthe app flew from %.3f s to %.3f s of simulated time: GPS fixes %d before it, %d while it "
			"flew (the app decoded %s), %d after; time in failsafe %.3f s (its frames)\n", "",
			summary_num(sim, "app_start_s", 0), summary_num(sim, "app_end_s", 0),
			(int)summary_num(sim, "gps_fixes_before_app", 0), (int)summary_num(sim, "gps_fixes_app", 0),
			summary_count(fsw, "gps_fixes", b1, sizeof(b1), "?"), (int)summary_num(sim, "gps_fixes_after_app", 0),
			summary_num(sim, "failsafe_s", 0));
		fprintf(out, "    %-9strack error max %.1f m at t = %.3f s, while the app flew (truth errors counted from %.0f s)", "",
			summary_num(sim, "track_err_max_m", 0), summary_num(sim, "track_err_max_t_s", 0),
			summary_num(sim, "metrics_start_s", 0));
		if (json_is_number(pf_jpath_get(sim, "track_err_after_app_max_m")))
			fprintf(out, "; after it stopped, the aircraft drifting: max %.1f m",
				summary_num(sim, "track_err_after_app_max_m", 0));
		fputc('\n', out);
	}
	if (fsw && pf_jpath_get(fsw, "imu_frames"))
		fprintf(out, "    %-9s%d IMU frames, %d SPI frames, %d frame errors, %d stale SPI, "
			"%d failsafe events, mode %s\n", "fsw",
			(int)summary_num(fsw, "imu_frames", 0), (int)summary_num(fsw, "spi_frames", 0),
			(int)summary_num(fsw, "frame_errors", 0), (int)summary_num(fsw, "spi_stale", 0),
			(int)summary_num(fsw, "failsafe_events", 0), summary_str(fsw, "final_mode", "?"));
	if (json_is_object(pf_jpath_get(fsw, "failsafe_time")))
		fprintf(out, "    %-9stime in failsafe %.3f s: %.3f s at start-up (before mission1's first decision), "
			"%.3f s with the IMU stale (ctl100's reflex: stale events, no failsafe event), %.3f s in "
			"mission failsafe (%d failsafe events)\n", "",
			summary_num(fsw, "failsafe_time.total_s", 0), summary_num(fsw, "failsafe_time.startup_s", 0),
			summary_num(fsw, "failsafe_time.imu_stale_s", 0), summary_num(fsw, "failsafe_time.mission_s", 0),
			(int)summary_num(fsw, "failsafe_events", 0));
	if (!spi_load)
		summary_app_spi(fsw, out);
	json_decref(sim);
}

/*
 * summary_cyclictest_worst - a traced baseline phase (cyclictest.trace):
 * its worst wakeups with their culprits, as analyze wrote them (docs/results.md,
 * cyclictest_wakeups)
 */
static void summary_cyclictest_worst(json_t *res, FILE *out)
{
	json_t *worst = pf_jpath_get(res, "cyclictest_wakeups.worst"), *w;
	size_t i;

	if (!json_array_size(worst))
		return;
	fprintf(out, "    cyclictest's worst wakeups explained (from its %s):\n",
		!strcmp(summary_str(res, "cyclictest_wakeups.source", ""), "snapshots") ? "flight-recorder snapshots" :
		"trace");
	json_array_foreach(worst, i, w)
		if (i < 3)
			fprintf(out, "      %s\n", summary_str(w, "summary", "?"));
}

/* summary_ct_overflow - a cyclictest histogram that overflowed, said in words (issue 32.15) */
static void summary_ct_overflow(json_t *res, const char *indent, FILE *out)
{
	char text[512];

	if (ct_overflow_text(res, text, sizeof(text)))
		fprintf(out, "%s%s\n", indent, text);
}

/* summary_phases - every phase with its loads' achieved figures, and its cyclictest baseline */
static void summary_phases(const char *dir, json_t *run, json_t *loads, FILE *out)
{
	json_t *p, *lp, *rep, *res, *fsw;
	const char *load;
	char b1[32], b2[32];
	size_t i;

	fprintf(out, "\nphases (planned / ran)\n");
	json_array_foreach(pf_jpath_get(run, "phases"), i, p) {
		fprintf(out, "  %-18s %-10s %5.0f s / %5.0f s%s\n", summary_str(p, "dir", "?"),
			summary_str(p, "measure", "?"), summary_num(p, "planned_s", 0), summary_num(p, "elapsed_s", 0),
			json_is_true(pf_jpath_get(p, "partial")) ? "  PARTIAL" : "");
		lp = json_array_get(pf_jpath_get(loads, "phases"), i);
		fsw = summary_load(dir, summary_str(p, "dir", "?"), "fsw.json");
		json_object_foreach(pf_jpath_get(lp, "loads"), load, rep)
			summary_load_line(load, rep, fsw, out);
		summary_sim(dir, summary_str(p, "dir", "?"), fsw, pf_jpath_get(lp, "loads.spi") != NULL, out);
		if (json_is_array(pf_jpath_get(p, "steal_ms"))) {	/* what the hypervisor ran instead (issue 32.6) */
			json_t *v;
			size_t k;

			fprintf(out, "    %-9s", "steal");
			json_array_foreach(pf_jpath_get(p, "steal_ms"), k, v)
				fprintf(out, "%scpu%zu %lld ms", k ? ", " : "", k, (long long)json_integer_value(v));
			fprintf(out, " (/proc/stat: the hypervisor running something else)\n");
		}
		if (json_is_string(pf_jpath_get(p, "recorder_cpus")))
			fprintf(out, "    %-9son CPUs %s (housekeeping: %s)\n", "recorder",
				summary_str(p, "recorder_cpus", "?"), summary_str(p, "housekeeping_cpus", "none"));
		json_decref(fsw);
		if (!strcmp(summary_str(p, "measure", ""), "cyclictest")) {
			res = summary_load(dir, summary_str(p, "dir", "?"), "results.json");
			fprintf(out, "    %-9scyclictest max %s, p99.99 %s, %.0f samples\n", "baseline",
				summary_us(res, "cyclictest.all.latency_ns.max", b1, sizeof(b1)),
				summary_pct(res, "cyclictest.all.latency_ns", "p99.99", b2, sizeof(b2)),
				summary_num(res, "cyclictest.all.latency_ns.count", 0));
			summary_ct_overflow(res, "             ", out);
			summary_cyclictest_worst(res, out);
			json_decref(res);
		}
	}
}

/*
 * summary_coverage - a flight-recorder run: how many of each task's worst
 * activations its snapshots explain, and for the others the first reason and
 * the setting that would capture them (never a silent culprits section)
 */
static void summary_coverage(json_t *res, FILE *out)
{
	json_t *t, *u;
	size_t i;

	if (!json_is_array(pf_jpath_get(res, "trace.snapshots")))
		return;
	fprintf(out, "  %d flight-recorder snapshots\n", (int)json_array_size(pf_jpath_get(res, "trace.snapshots")));
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t) {
		int worst = (int)summary_num(t, "culprit_coverage.worst", 0);
		int expl = (int)summary_num(t, "culprit_coverage.explained", 0);

		if (!worst || worst == expl)
			continue;
		u = json_array_get(pf_jpath_get(t, "unexplained"), 0);
		fprintf(out, "  %s: %d of its %d worst activations explained; e.g. job %d: %s; capture with %s\n",
			summary_str(t, "name", "?"), expl, worst, (int)summary_num(u, "seq", 0),
			summary_str(u, "why", "?"), summary_str(t, "culprit_coverage.capture_with", "?"));
	}
}

/*
 * summary_baseline_phase - which phase the top-level results.json's cyclictest is of (the last
 * loaded cyclictest phase, docs/scenarios.md): "phase 02-loaded, before the app" by the folder of
 * its file, "beside the app" only when that is the app phase's (its trace's or job log's folder)
 */
static void summary_baseline_phase(json_t *res, char *buf, size_t size)
{
	const char *ct = summary_str(res, "cyclictest.file", NULL);
	const char *app = summary_str(res, "inputs.joblog", summary_str(res, "inputs.trace", NULL));
	const char *ct_end = ct ? strrchr(ct, '/') : NULL, *app_end = app ? strrchr(app, '/') : NULL, *d;
	size_t n;

	if (!ct_end || ct_end == ct) {
		snprintf(buf, size, "its phase not known");
		return;
	}
	for (d = ct_end - 1; d > ct && *d != '/'; d--)
		;
	d += *d == '/';
	n = (size_t)(ct_end - d);
	if (app_end && (size_t)(app_end - app) == (size_t)(ct_end - ct) && !strncmp(app, ct, n + (size_t)(d - ct)))
		snprintf(buf, size, "phase %.*s, beside the app", (int)n, d);
	else
		snprintf(buf, size, "phase %.*s, without the app (not beside it)", (int)n, d);
}

/*
 * summary_tasks - per task of the app: activation latency, wakeup latency
 * (what REQ-LAT-001 judges), response, overruns, and how far the job log's
 * clock strays from the trace's; app utilisation
 */
static void summary_tasks(json_t *res, FILE *out)
{
	char b1[32], b2[32], b3[32], b4[32], b5[32], phase[300];
	json_t *t, *c;
	size_t i, j;

	fprintf(out, "\napp tasks        act.lat max   p99.99      wake max      response max  overruns  misses  jobs  "
		"clock diff\n");
	if (!json_array_size(pf_jpath_get(res, "tasks")))
		fprintf(out, "  (no app tasks in results.json: no flightapp phase ran or it recorded nothing)\n");
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t)
		fprintf(out, "  %-14s %-13s %-11s %-13s %-13s %-9d %-7d %-5d %s\n", summary_str(t, "name", "?"),
			summary_us(t, "activation_latency_ns.max", b1, sizeof(b1)),
			summary_pct_as(t, "activation_latency_ns", "p99.99", true, b2, sizeof(b2)),
			summary_us(t, "wakeup_latency_ns.max", b4, sizeof(b4)),
			summary_us(t, "response_time_ns.max", b3, sizeof(b3)),
			(int)summary_num(t, "overruns", 0), (int)summary_num(t, "deadline_misses", 0),
			(int)summary_num(t, "jobs", 0),
			summary_us(t, "agreement.uncertainty.activation_latency_ns", b5, sizeof(b5)));
	if (json_array_size(pf_jpath_get(res, "tasks")))
		fprintf(out, "  (wake: from the releasing task's waking for a chained job, else from the release - "
			"REQ-LAT-001's; clock diff: the job log's activation latency's largest difference from the "
			"trace's, which is authoritative)\n");
	if (pf_jpath_get(res, "app"))
		fprintf(out, "  app utilisation %.1f %% of one CPU (worst 1 s %.1f %%), slot overruns %d of %d\n",
			100 * summary_num(res, "app.utilisation", 0), 100 * summary_num(res, "app.utilisation_max_1s", 0),
			(int)summary_num(res, "slots.overruns", 0), (int)summary_num(res, "slots.count", 0));
	summary_baseline_phase(res, phase, sizeof(phase));
	fprintf(out, "  cyclictest baseline under the loads, %s: max %s, p99.99 %s\n", phase,
		summary_us(res, "cyclictest.all.latency_ns.max", b1, sizeof(b1)),
		summary_pct(res, "cyclictest.all.latency_ns", "p99.99", b2, sizeof(b2)));
	summary_ct_overflow(res, "    ", out);
	fprintf(out, "\nworst culprits\n");
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t)
		json_array_foreach(pf_jpath_get(t, "culprits"), j, c)
			if (j < 2)
				fprintf(out, "  %s\n", summary_str(c, "summary", "?"));
	json_array_foreach(pf_jpath_get(res, "root_events"), i, c)
		if (json_array_size(pf_jpath_get(c, "tasks")) > 1)
			fprintf(out, "  %s\n", summary_str(c, "summary", "?"));
	summary_coverage(res, out);
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t)
		if (summary_num(t, "observer_jobs", 0) > 0)
			fprintf(out, "  observer: %s delayed by preflight's own threads (recorder, runner) in %d of %d "
				"jobs, max %s\n", summary_str(t, "name", "?"), (int)summary_num(t, "observer_jobs", 0),
				(int)summary_num(t, "decomposition.observer_ns.count", 0),
				summary_us(t, "decomposition.observer_ns.max", b1, sizeof(b1)));
	/* PREEMPT_RT: a realtime task woken by a lower-priority thread (docs/results.md, inversions) */
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t)
		if (summary_num(t, "inversion_count", 0) > 0)
			fprintf(out, "  priority inversion: %s woken by a lower-priority thread %d times, first by %s "
				"(pid %d, kernel prio %d > %d)\n", summary_str(t, "name", "?"),
				(int)summary_num(t, "inversion_count", 0), summary_str(t, "inversions.0.waker_comm", "?"),
				(int)summary_num(t, "inversions.0.waker_pid", 0), (int)summary_num(t, "inversions.0.waker_prio", 0),
				(int)summary_num(t, "inversions.0.prio", 0));
}

/* summary_file - copy a text file of the run directory, indented; the lines copied, -1 when unreadable */
static int summary_file(const char *dir, const char *name, FILE *out)
{
	char path[PATH_MAX], line[1024];
	int n = 0;
	FILE *f;

	if (pf_path_join(path, sizeof(path), dir, name))
		return -1;
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		fprintf(out, "  %s", line);
		n++;
	}
	fclose(f);
	return n;
}

/*
 * summary_tail - under a latency requirement's verdict, one line of the
 * task's tail (the one pf_tail_of_verdict reads it with, docs/statistics.md):
 * pf_tail_text at the requirement's bound. Nothing for a results.json
 * without tails.
 */
static void summary_tail(json_t *res, json_t *r, FILE *out)
{
	const char *metric = summary_str(r, "metric", ""), *unit = summary_str(r, "unit", ""), *name, *what = "";
	double bound = summary_num(r, "bound", NAN), x_ns = decision_bound_ns(r);
	char task[64], text[1024], b[64];
	json_t *t, *tail = NULL;
	size_t i, len;

	if (strncmp(metric, "tasks.", 6) || !strstr(metric, "latency"))
		return;
	len = strcspn(metric + 6, ".");
	if (!isfinite(x_ns) || len >= sizeof(task))
		return;
	snprintf(task, sizeof(task), "%.*s", (int)len, metric + 6);
	json_array_foreach(pf_jpath_get(res, "tasks"), i, t)
		if ((name = json_string_value(json_object_get(t, "name"))) && !strcmp(name, task))
			tail = pf_tail_of_verdict(t, metric, &what);
	if (!tail)
		return;
	snprintf(b, sizeof(b), "%g %s", bound, unit);
	fprintf(out, "               tail (%s): %s\n", what + strlen("the "), pf_tail_text(tail, x_ns, b, text, sizeof(text)));
}

/*
 * summary_verdicts - the verdicts of verdicts.json (docs/verdicts.md), one
 * line each: verdict, requirement and element, the value against the bound
 * with n, then a failure's worst case or why it was not measured or is not
 * valid
 */
static void summary_verdicts(json_t *v, json_t *res, FILE *out)
{
	static const struct { const char *key, *shown; } names[] = {
		{ "pass", "PASS" }, { "fail", "FAIL" }, { "not_measured", "NOT MEASURED" }, { "not_valid", "NOT VALID" },
	};
	json_t *r;
	size_t i, k;

	fprintf(out, "  %d passed, %d failed, %d not measured, %d not valid: result %s\n",
		(int)summary_num(v, "counts.pass", 0), (int)summary_num(v, "counts.fail", 0),
		(int)summary_num(v, "counts.not_measured", 0), (int)summary_num(v, "counts.not_valid", 0),
		summary_str(v, "result", "?"));
	json_array_foreach(pf_jpath_get(v, "verdicts"), i, r) {
		const char *verdict = summary_str(r, "verdict", "?"), *shown = verdict;

		for (k = 0; k < PF_ARRAY_SIZE(names); k++)
			if (!strcmp(verdict, names[k].key))
				shown = names[k].shown;
		fprintf(out, "  %-12s %s %s", shown, summary_str(r, "id", "?"), summary_str(r, "label", "?"));
		if (json_is_string(pf_jpath_get(r, "text")))
			fprintf(out, ": %s", summary_str(r, "text", ""));
		if (json_is_integer(pf_jpath_get(r, "n")))
			fprintf(out, ", n = %d", (int)summary_num(r, "n", 0));
		fputc('\n', out);
		if (json_is_string(pf_jpath_get(r, "reason")))
			fprintf(out, "               %s: %s\n", !strcmp(verdict, "not_valid") ? "not valid" : "why",
				summary_str(r, "reason", ""));
		if (json_is_string(pf_jpath_get(r, "worst_case")))
			fprintf(out, "               worst case: %s\n", summary_str(r, "worst_case", ""));
		summary_tail(res, r, out);
	}
}

/* summary_compared - what the report compares the run with (run.json compared_with: run's --previous, --baseline, --history) */
static void summary_compared(json_t *run, FILE *out)
{
	const char *what[][3] = {
		{ "previous", "previous run ", " (report V1)" }, { "baseline", "baseline ", " (report V1)" },
		{ "history", "the scenario's runs up to this one in history ", " (report V2)" },
	};
	int n = 0;

	/* the report's V2 takes those started at or before this run: without its start, the latest, any date */
	if (!summary_str(run, "started_utc", NULL))
		what[2][1] = "the scenario's latest runs in history ";

	for (size_t i = 0; i < PF_ARRAY_SIZE(what); i++) {
		char path[64];

		snprintf(path, sizeof(path), "compared_with.%s", what[i][0]);
		if (!json_is_string(pf_jpath_get(run, path)))
			continue;
		fputs(n++ ? "; " : "compared with: ", out);
		fprintf(out, "%s%s%s", what[i][1], summary_str(run, path, "?"), what[i][2]);
	}
	if (n)
		fputs("\n", out);
}

/* summary_emulated - the first lines' EMULATED: the interfaces this machine stood in for (verdicts.json) */
static void summary_emulated(json_t *v, FILE *out)
{
	json_t *e;
	size_t i;

	json_array_foreach(pf_jpath_get(v, "emulated"), i, e)
		fprintf(out, "%s%s (%s, %d verdicts)", i ? "; " : "EMULATED: ", summary_str(e, "interface", "?"),
			summary_str(e, "how", "?"), (int)summary_num(e, "verdicts", 0));
	if (json_array_size(pf_jpath_get(v, "emulated")))
		fputc('\n', out);
	json_array_foreach(pf_jpath_get(v, "load_gate.loads"), i, e)
		if (json_is_false(pf_jpath_get(e, "ok")))
			fprintf(out, "WARNING: the %s load achieved %.1f %% of its target (%s), below the %.0f %% its "
				"verdicts need: their passes are not valid\n", summary_str(e, "load", "?"),
				summary_num(e, "achieved_pct", 0), summary_str(e, "compared", "?"), summary_num(e, "min_pct", 0));
}

/* summary_report_line - the reviewer report's path, when preflight report wrote it */
static void summary_report_line(const char *dir, FILE *out)
{
	char html[PATH_MAX], pdf[PATH_MAX];

	snprintf(html, sizeof(html), "%s/report.html", dir);
	snprintf(pdf, sizeof(pdf), "%s/report.pdf", dir);
	if (!access(html, R_OK))
		fprintf(out, "\nreport: %s%s\n", html, access(pdf, R_OK) ? "" : " (and report.pdf)");
}

/* summary_signed_us - a signed nanosecond figure at a path as "-12.3 us" (or "-" when missing) */
static const char *summary_signed_us(json_t *v, const char *path, char *buf, size_t size)
{
	json_t *n = pf_jpath_get(v, path);

	return pf_fmt_us(buf, size, json_is_number(n) ? json_number_value(n) : NAN, false);
}

/*
 * summary_log_run - what run.log says of a run that never wrote run.json (a
 * runner killed before it did): the first line "preflight run NAME (PATH)
 * into DIR, pid N"; a run.json-like object marked incomplete, or NULL
 */
static json_t *summary_log_run(const char *dir)
{
	char path[PATH_MAX], line[PATH_MAX * 2 + 64], name[128];
	int pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.log", dir);
	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (!fgets(line, sizeof(line), f) || !strstr(line, "] preflight run ") ||
	    sscanf(strstr(line, "] preflight run ") + 16, "%127s", name) != 1) {
		fclose(f);
		return NULL;
	}
	fclose(f);
	if (strstr(line, ", pid "))
		pid = atoi(strstr(line, ", pid ") + 6);
	return json_pack("{s:s, s:{s:s}, s:b, s:b, s:i}", "schema", SUMMARY_RUN_SCHEMA "1",
			 "scenario", "name", name, "partial", 1, "complete", 0, "runner_pid", pid);
}

/* summary_utc - a file's modification time as UTC ISO 8601, or "?" */
static const char *summary_utc(const char *dir, const char *name, char *buf, size_t size)
{
	char path[PATH_MAX];
	struct stat st;

	if (pf_path_join(path, sizeof(path), dir, name) || stat(path, &st) || !*pf_utc(buf, size, st.st_mtime, false))
		snprintf(buf, size, "?");
	return buf;
}

/*
 * summary_selftest - the "measurement validity" section: the table of the
 * selftest qualify ran first (selftest/selftest.json, docs/selftest.md)
 */
static void summary_selftest(json_t *st, FILE *out)
{
	char b[3][32];
	json_t *c;
	size_t i;

	fprintf(out, "\nmeasurement validity (preflight selftest --quick: injected delays against the analysis; "
		"selftest/selftest.json)\n");
	fprintf(out, "  %-3s %-8s %5s %5s %11s %11s %11s  %s\n", "#", "case", "inj", "valid", "err p50",
		"err p99", "err max", "verdict");
	json_array_foreach(pf_jpath_get(st, "cases"), i, c) {
		bool ns = !strcmp(summary_str(c, "error.unit", ""), "ns");

		fprintf(out, "  %-3d %-8s %5d %5d %11s %11s %11s  %s\n", (int)summary_num(c, "case", 0),
			summary_str(c, "name", "?"), (int)summary_num(c, "injections", 0), (int)summary_num(c, "valid", 0),
			ns ? summary_signed_us(c, "error.p50", b[0], sizeof(b[0])) : "counts",
			ns ? summary_signed_us(c, "error.p99", b[1], sizeof(b[1])) : "",
			ns ? summary_signed_us(c, "error.max", b[2], sizeof(b[2])) : "",
			json_is_true(pf_jpath_get(c, "pass")) ? "pass" : "FAIL");
	}
}

/*
 * summary_interrupted - the lines of a run that did not finish (run.json
 * "complete": false, or none at all): whose runner, whether it still runs,
 * and where what it recorded is
 */
static void summary_interrupted(const char *dir, json_t *run, FILE *out)
{
	int pid = (int)summary_num(run, "runner_pid", 0);
	bool alive = pid > 0 && pf_stale_owner_alive(pid);
	json_t *ph = pf_jpath_get(run, "running_phase");
	char last[32];

	fprintf(out, "run directory %s, started %s, did not end (last written %s)\n", dir,
		summary_str(run, "started_utc", "?"), summary_utc(dir, "run.log", last, sizeof(last)));
	if (ph)
		fprintf(out, "phase under way when it ended: %s (%s, %.0f s planned)\n",
			summary_str(ph, "dir", "?"), summary_str(ph, "measure", "?"),
			summary_num(ph, "planned_s", 0));
	if (alive)
		fprintf(out, "RUNNING: the runner (pid %d) is still at work; this summary is of what "
			"it has done so far\n", pid);
	else
		fprintf(out, "INTERRUPTED: the run did not finish: its runner%s%.0d was killed before "
			"its analysis; what its phases recorded is in their directories ('preflight "
			"analyze %s' analyses them)\n", pid ? " pid " : "", pid, dir);
}

/* summary_write - the plain-text qualification summary of run directory dir */
/* summary_decision - what page 1 decides (reports/decision.c), the summary's head */
static void summary_decision(const char *dir, json_t *v, json_t *st, json_t *si, json_t *run, json_t *res, FILE *out)
{
	struct decision d;
	int i;

	decision_read(dir, v, st, si, run, res, true, &d);
	fprintf(out, "\ndecision\n");
	for (i = 0; i < DECISION_N; i++)
		fprintf(out, "  %-12s %s: %s\n", d.line[i].name, d.line[i].state, d.line[i].text);
}

static void summary_write(const char *dir, FILE *out)
{
	json_t *si = summary_load(dir, NULL, "sysinfo.json"), *run = summary_load(dir, NULL, "run.json");
	json_t *loads = summary_load(dir, NULL, "loads.json"), *res = summary_load(dir, NULL, "results.json");
	json_t *st = summary_load(dir, "selftest", "selftest.json"), *v = summary_load(dir, NULL, "verdicts.json");
	int code = (int)summary_num(run, "exit_code", -1);
	bool partial = json_is_true(pf_jpath_get(run, "partial"));
	const char *verdict;
	bool interrupted;

	if (!run && (run = summary_log_run(dir)))
		partial = true;
	interrupted = json_is_false(pf_jpath_get(run, "complete"));
	if (strcmp(summary_str(v, "schema", ""), SUMMARY_VERDICTS_SCHEMA)) {
		json_decref(v);
		v = NULL;	/* not verdicts.json: said in its section */
	}
	verdict = code == 0 && !strcmp(summary_str(v, "result", ""), "incomplete") ?
		  "INCOMPLETE: every measured requirement met, some not measured" :
		  code == 0 ? "PASS: every requirement met" :
		  code == 1 && !strcmp(summary_str(v, "result", ""), "not_valid") ?
		  "NOT VALID: no requirement failed, but a load did not load" :
		  code == 1 && !strcmp(summary_str(v, "result", ""), "no_verdict") ? "NO VERDICT: nothing was measured" :
		  code == 1 ? "FAIL: requirements not met" :
		  interrupted ? "NOT QUALIFIED: the run was interrupted before it finished" :
		  "NOT QUALIFIED: the run could not be completed";
	fprintf(out, "preflight qualification: scenario '%s'%s\n", summary_str(run, "scenario.name", "?"),
		interrupted ? " (PARTIAL: INTERRUPTED, the run did not finish)" :
		partial ? " (PARTIAL: interrupted or a phase ended early)" : "");
	if (interrupted)
		summary_interrupted(dir, run, out);
	else
		fprintf(out, "run directory %s, %s .. %s\n", dir, summary_str(run, "started_utc", "?"),
			summary_str(run, "ended_utc", "?"));
	if (json_is_string(pf_jpath_get(run, "failure")))
		fprintf(out, "why: %s\n", summary_str(run, "failure", "?"));
	summary_compared(run, out);
	summary_emulated(v, out);
	if (st && !json_is_true(pf_jpath_get(st, "pass")))
		fprintf(out, "WARNING: the selftest failed on this machine: the verdicts below rest on measurements "
			"it could not validate (measurement validity)\n");
	if (json_is_true(pf_jpath_get(si, "virtualization.emulated")))
		fprintf(out, "WARNING: the CPU is emulated (%s): every timing below is functional evidence only, "
			"not evidence of the board's latency\n", summary_str(si, "virtualization.emulation_evidence", "?"));
	summary_decision(dir, v, st, si, run, res, out);
	if (st)
		summary_selftest(st, out);
	summary_machine(si, run, out);
	summary_phases(dir, run, loads, out);
	if (res)
		summary_tasks(res, out);
	else
		fprintf(out, "\nresults: no results.json (analysis did not run)\n");
	fprintf(out, "\nverdicts (%s; verdicts.json)\n", pf_jpath_get(run, "budgets") ? "budgets.ini" : "no budgets");
	if (v)
		summary_verdicts(v, res, out);
	else
		fprintf(out, "  (no verdicts.json)\n");
	fprintf(out, "\nevidence (SHA-256)\n");
	if (summary_file(dir, "SHA256SUMS", out) < 0)
		fprintf(out, "  (no SHA256SUMS)\n");
	summary_report_line(dir, out);
	fprintf(out, "\nresult: %s", verdict);
	if (code == 1 && v)
		fprintf(out, " (%d failed, %d not valid)", (int)summary_num(v, "counts.fail", 0),
			(int)summary_num(v, "counts.not_valid", 0));
	if (code == 1 && si && json_array_size(pf_jpath_get(si, "warnings")))
		fprintf(out, "; the machine warnings above and the culprits explain why");
	fprintf(out, "\n");
	json_decref(si);
	json_decref(run);
	json_decref(loads);
	json_decref(res);
	json_decref(st);
	json_decref(v);
}

static int summary_run(int argc, char **argv);

const struct pf_command cmd_summary = {
	.name = "summary",
	.summary = "print the plain-text qualification summary of a run directory",
	.usage =
	"usage: preflight summary RUN_DIR [-o FILE]\n"
	"\n"
	"Prints the qualification summary of a run directory of 'preflight run' or\n"
	"'preflight qualify': machine and warnings, phases with the loads they\n"
	"achieved, per task activation latency / response / overruns, app\n"
	"utilisation, cyclictest baseline, worst culprits, verdicts (verdicts.json), evidence\n"
	"(SHA-256) and the result. It reads only the files of RUN_DIR; a file that is\n"
	"missing is said so in its section. The runs write it as report.txt and\n"
	"qualification.txt.\n"
	"\n"
	"options:\n"
	"  -o, --output FILE   write the summary to FILE (default: stdout)\n"
	"  -h, --help          this text\n"
	"\n"
	"exit: 0 summary written, 2 bad usage, RUN_DIR is not a run directory (no\n"
	"      readable run.json), FILE cannot be opened or is a file the summary reads or\n"
	"      a run's SHA256SUMS lists (never written over), 3 write error\n",
	.run = summary_run,
};

/* summary_check_dir - 0 when dir is a run directory (a run.json of preflight-run); else why, exit 2 */
static int summary_check_dir(const char *dir)
{
	json_error_t jerr;
	const char *schema;
	char path[PATH_MAX];
	struct stat st;
	json_t *run;

	if (stat(dir, &st))
		return pf_fail(PF_EXIT_USAGE, "'%s': no such run directory: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pf_fail(PF_EXIT_USAGE, "'%s': not a run directory (not a directory)", dir);
	if (pf_path_join(path, sizeof(path), dir, "run.json"))
		return pf_fail(PF_EXIT_USAGE, "'%s': %s", dir, strerror(ENAMETOOLONG));
	run = json_load_file(path, 0, &jerr);
	if (!run && access(path, F_OK) && (run = summary_log_run(dir))) {
		json_decref(run);	/* a runner killed before it wrote run.json */
		return 0;
	}
	if (!run)
		return pf_fail(PF_EXIT_USAGE, "'%s': not a run directory: run.json: %s", dir,
			       access(path, F_OK) ? "missing" : jerr.text);
	schema = json_string_value(json_object_get(run, "schema"));
	if (!schema || strncmp(schema, SUMMARY_RUN_SCHEMA, strlen(SUMMARY_RUN_SCHEMA))) {
		json_decref(run);
		return pf_fail(PF_EXIT_USAGE, "'%s': not a run directory: run.json is not a "
			       "'%s1' manifest", dir, SUMMARY_RUN_SCHEMA);
	}
	json_decref(run);
	return 0;
}

/* summary_guard - the summary may be written to output: none of the run's files it reads, no evidence */
static int summary_guard(const char *dir, const char *output)
{
	static const char *const names[] = { "run.json", "sysinfo.json", "loads.json", "results.json",
					     "verdicts.json", "SHA256SUMS" };
	char in[PF_ARRAY_SIZE(names)][PATH_MAX];
	const char *inp[PF_ARRAY_SIZE(names)];
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(names); i++) {
		if (pf_path_join(in[i], sizeof(in[i]), dir, names[i]))
			return pf_fail(PF_EXIT_USAGE, "'%s': %s", dir, strerror(ENAMETOOLONG));
		inp[i] = in[i];
	}
	return pf_out_guard(output, inp, PF_ARRAY_SIZE(inp));
}

static int summary_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "help",   no_argument,       NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *output = NULL;
	FILE *out = stdout;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'h': pf_print_usage(&cmd_summary); return PF_EXIT_OK;
		default: return pf_option_error(&cmd_summary, argv, "o:h");
		}
	}
	if (optind != argc - 1)
		return pf_usage_error(&cmd_summary, optind == argc ? "which run directory?" :
				      "one run directory only");
	ret = summary_check_dir(argv[optind]);
	if (ret)
		return ret;
	ret = summary_guard(argv[optind], output);
	if (ret)
		return ret;
	if (output && (ret = pf_outfile_open(output, &out)))
		return ret;
	summary_write(argv[optind], out);
	return output ? pf_outfile_commit(out) : PF_EXIT_OK;	/* stdout is checked at exit */
}
