/*
 * rec_dat.c - turning a session's raw per-CPU page files into a trace-cmd
 * .dat file (version 6, or 7 with --compress) with libtracecmd's output API, the same calls
 * trace-cmd record makes.
 *
 * libtracecmd copies the header page, event formats, printk formats and
 * command lines from a "tracing directory". The recorder gives it a private
 * one in its tmpdir: 'events' links to the instance's events (so only the
 * formats of this kernel and instance are stored, and only those of the
 * recorded events), 'printk_formats' to the top level, 'saved_cmdlines' is
 * the recorder's own pid -> comm table and 'kallsyms' is /proc/kallsyms or
 * empty. Options stored: TRACECLOCK (the clock in effect), UNAME, VERSION
 * and one CPUSTAT per CPU (the kernel's per_cpu/cpuN/stats, as trace-cmd
 * stores them), preceded by a "Buffer:" line naming the instance and mode
 * and an "Observer pids:" line listing the recorder's thread ids (and those
 * of --observer), which analysis counts as the observer.
 * The file is written as FILE.tmp and renamed, so FILE is never half-made.
 */
#define _GNU_SOURCE
#include "rec.h"
#include "rec_tracecmd.h"
#include "common.h"
#include "outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/utsname.h>
#include <unistd.h>


/* rec_shadow_dir - build the private tracing directory libtracecmd reads from */
static int rec_shadow_dir(struct rec_session *s, char *dir, size_t size)
{
	char src[PATH_MAX], dst[PATH_MAX + 32];
	FILE *f;
	int ret;

	snprintf(dir, size, "%s/tracing", s->tmpdir);
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	snprintf(dst, sizeof(dst), "%s/events", dir);
	rec_events_dir(s, src, sizeof(src) - 8);
	strcat(src, "/events");
	unlink(dst);
	if (symlink(src, dst) < 0)
		return -errno;
	snprintf(dst, sizeof(dst), "%s/printk_formats", dir);
	snprintf(src, sizeof(src), "%s/printk_formats", s->tracing_dir);
	unlink(dst);
	if (symlink(src, dst) < 0)
		return -errno;
	snprintf(dst, sizeof(dst), "%s/saved_cmdlines", dir);
	if ((ret = rec_comm_write(&s->comms, dst)) < 0)
		return ret;
	snprintf(dst, sizeof(dst), "%s/kallsyms", dir);
	unlink(dst);
	if (s->opts->kallsyms && !s->no_kallsyms)
		return symlink("/proc/kallsyms", dst) < 0 ? -errno : 0;
	f = fopen(dst, "we");
	if (!f)
		return -errno;
	fclose(f);
	return 0;
}

/*
 * rec_buffer_line - the CPUSTAT header (malloc'd, or NULL): instance and mode
 * (rec_parse_cpustats reads the mode), the wakeup and switch filters, why the file is
 * incomplete if it is (rec_parse_cpustats reads both), and the observer's
 * thread ids (rec_parse_observers reads them)
 */
static char *rec_buffer_line(struct rec_session *s)
{
	char *obs = rec_observer_line(s), *text;

	if (!obs || asprintf(&text, "\nBuffer: %s (preflight record, %s%s%s%s%s)\n%s\n", s->name,
			     s->opts->flight ? "flight-recorder window" : "streaming",
			     s->opts->rt_wakeups ? ", " REC_RT_WAKEUPS_TEXT : "",
			     s->opts->rt_switches ? ", " REC_RT_SWITCHES_TEXT : "",
			     s->incomplete[0] ? "; " REC_INCOMPLETE_TAG : "", s->incomplete, obs) < 0)
		text = NULL;
	free(obs);
	return text;
}

/* rec_cpu_stat_text - "CPU: N\n" + the kernel's stats of that CPU (malloc'd), or NULL */
static char *rec_cpu_stat_text(struct rec_session *s, int cpu)
{
	char *text;

	if (!s->stats || !s->stats[cpu] ||
	    asprintf(&text, "CPU: %d\n%s\n", cpu, s->stats[cpu]) < 0)
		return NULL;
	return text;
}

/* rec_add_options - clock, uname, version and the per-CPU statistics */
static void rec_add_options(struct rec_session *s, struct tracecmd_output *out)
{
	char buf[512], *text;
	struct utsname u;
	int cpu;

	tracecmd_add_option(out, REC_TCMD_OPTION_TRACECLOCK, strlen(s->clock_line) + 1,
			    s->clock_line);
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.machine);
		tracecmd_add_option(out, REC_TCMD_OPTION_UNAME, strlen(buf) + 1, buf);
	}
	snprintf(buf, sizeof(buf), "preflight-record " PF_VERSION);
	tracecmd_add_option(out, REC_TCMD_OPTION_VERSION, strlen(buf) + 1, buf);
	if (!s->stats && !s->incomplete[0])
		return;
	for (cpu = 0; s->cpus && cpu < s->ncpus; cpu++)
		if (s->cpus[cpu].tid && rec_observer_add(s, s->cpus[cpu].tid) < 0)
			break;
	text = rec_buffer_line(s);
	if (text)
		tracecmd_add_option(out, REC_TCMD_OPTION_CPUSTAT, strlen(text) + 1, text);
	free(text);
	if (!s->stats)
		return;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		text = rec_cpu_stat_text(s, cpu);
		if (text)
			tracecmd_add_option(out, REC_TCMD_OPTION_CPUSTAT, strlen(text) + 1, text);
		free(text);
	}
}

/* rec_event_globs - link 'items' into the "system/event" list of what was enabled */
static struct tracecmd_event_list *rec_event_globs(struct rec_session *s,
						   struct tracecmd_event_list *items,
						   char (*globs)[128])
{
	struct tracecmd_event_list *list = NULL;
	int i;

	for (i = 0; i < s->events.n; i++) {
		const struct rec_event *e = &s->events.ev[i];

		if (!e->system[0])
			continue;	/* optional event missing from this kernel */
		snprintf(globs[i], sizeof(globs[i]), "%s/%s", e->system,
			 e->event[0] ? e->event : "*");
		items[i].glob = globs[i];
		items[i].next = list;
		list = &items[i];
	}
	return list;
}

/* rec_disk_full - the filesystem holding 'path' has no room left (less than 64 KiB) */
static bool rec_disk_full(const char *path)
{
	struct statvfs st;

	return !statvfs(path, &st) && (uint64_t)st.f_bavail * st.f_frsize < 64 * 1024;
}

/* rec_dat_write - write the .dat file 'path' from the session's raw files; 0 or -errno */
int rec_dat_write(struct rec_session *s, const char *path)
{
	char dir[PATH_MAX], kallsyms[PATH_MAX + 16];
	char (*globs)[128] = NULL;
	const char *tmp = NULL;
	struct tracecmd_event_list *items = NULL, *list;
	struct tracecmd_output *out = NULL;
	char **files = NULL;
	int cpu, ret;

	if ((ret = rec_shadow_dir(s, dir, sizeof(dir))) < 0)
		return ret == -EIO && rec_disk_full(s->tmpdir) ? -ENOSPC : ret;
	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", dir);
	globs = calloc(s->events.n + 1, sizeof(*globs));
	items = calloc(s->events.n + 1, sizeof(*items));
	files = calloc(s->ncpus, sizeof(*files));
	if (!globs || !items || !files) {
		ret = -ENOMEM;
		goto out;
	}
	list = rec_event_globs(s, items, globs);
	for (cpu = 0; cpu < s->ncpus; cpu++)
		files[cpu] = s->cpus[cpu].path;

	ret = -EIO;
	if (pf_outfile_begin(path, &tmp)) {	/* lib/outfile.h: path.tmp, said why when it cannot be */
		tmp = NULL;
		goto out;
	}
	out = tracecmd_output_create(tmp);
	if (!out) {
		ret = errno ? -errno : -EIO;
		goto out;
	}
	tracecmd_set_quiet(out, true);
	if (tracecmd_output_set_version(out, s->opts->compress ? 7 : 6) < 0 ||
	    (s->opts->compress && tracecmd_output_set_compression(out, "any") < 0) ||
	    tracecmd_output_set_trace_dir(out, dir) < 0 ||
	    tracecmd_output_set_kallsyms(out, kallsyms) < 0 ||
	    tracecmd_output_write_headers(out, list) < 0)
		goto out;
	rec_add_options(s, out);
	tracecmd_set_out_clock(out, s->clock);
	if (tracecmd_write_cmdlines(out) < 0 ||
	    tracecmd_append_cpu_data(out, s->ncpus, files) < 0)
		goto out;
	tracecmd_output_close(out);
	out = NULL;
	ret = pf_outfile_end(path, true) ? -EIO : 0;	/* fsync, rename, fsync the directory */
	tmp = NULL;
out:
	if (out)
		tracecmd_output_close(out);
	if (ret == -EIO && (errno == ENOSPC || errno == EDQUOT || rec_disk_full(s->tmpdir)))
		ret = -ENOSPC;	/* libtracecmd says only that a write failed */
	if (ret < 0 && tmp)
		(void)!pf_outfile_end(path, false);
	free(items);
	free(globs);
	free(files);
	return ret;
}

/* rec_cpu_seconds - CPU time used by this process (all threads) so far */
double rec_cpu_seconds(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_SELF, &ru) < 0)
		return 0;
	return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

/*
 * rec_report - the summary line (stderr) of a written file, and the loud
 * warning when events were lost
 */
void rec_report(struct rec_session *s, const char *path, const struct rec_count *count)
{
	struct rec_lost lost;
	double span_s = count->last_ns > count->first_ns ?
			(count->last_ns - count->first_ns) / 1e9 : 0;
	/* a flight window's first page says how much older data was overwritten: not a loss */
	uint64_t missed = s->opts->flight ? 0 : count->missed;
	uint64_t bytes = 0;
	char *all = NULL, *text;
	size_t len = 0;
	FILE *f;
	int cpu;

	/* the same text the file stores, parsed by the reader analysis uses */
	f = open_memstream(&all, &len);
	if (f) {
		if ((text = rec_buffer_line(s)))
			fputs(text, f);
		free(text);
		for (cpu = 0; cpu < s->ncpus; cpu++) {
			if ((text = rec_cpu_stat_text(s, cpu)))
				fputs(text, f);
			free(text);
		}
		fclose(f);
	}
	if (rec_parse_cpustats(all, &lost) < 0)
		memset(&lost, 0, sizeof(lost));
	free(all);
	for (cpu = 0; cpu < s->ncpus; cpu++)
		bytes += s->cpus[cpu].bytes;
	if (!s->opts->quiet)
		fprintf(stderr, "preflight: record: wrote %s: %llu events, %.3f s, %.1f MB raw, "
			"clock %s, %d CPUs, lost %llu\n", path, (unsigned long long)count->events,
			span_s, bytes / 1e6, s->clock, s->ncpus, (unsigned long long)lost.lost);
	if (!s->opts->quiet && s->wall_ns > 0)
		fprintf(stderr, "preflight: record: recorder CPU while recording: %.3f s in "
			"%.3f s (%.1f %% of one CPU), %.0f events/s\n", s->cpu_s, s->wall_ns / 1e9,
			100.0 * s->cpu_s / (s->wall_ns / 1e9), count->events / (s->wall_ns / 1e9));
	if (lost.lost || missed) {
		pf_err("WARNING: %s IS INCOMPLETE: %llu events LOST (ring buffer overflow; "
		       "raise --buffer-kb or record fewer events)",
		       path, (unsigned long long)(lost.lost > missed ? lost.lost : missed));
		for (cpu = 0; cpu < lost.ncpus; cpu++)
			pf_err("WARNING:   cpu%d: overrun %llu, commit overrun %llu, dropped %llu",
			       lost.cpu[cpu].cpu, (unsigned long long)lost.cpu[cpu].overrun,
			       (unsigned long long)lost.cpu[cpu].commit_overrun,
			       (unsigned long long)lost.cpu[cpu].dropped);
	}
}
