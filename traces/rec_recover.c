/*
 * rec_recover.c - what a recorder killed by SIGKILL (or by the death of
 * `preflight run`, which starts it) leaves behind, and making a trace of it.
 *
 * A killed recorder leaves its tracefs instance (stopped by the next
 * preflight command of any kind: lib/stale.c), its registry entries under
 * /run/preflight/ and its private tmpdir beside the output, holding the raw
 * per-CPU pages streamed so far and REC_SESSION_FILE, written when the
 * recording started: owner pid, instance, output, events, clock, CPUs, page
 * size. Recovery appends what the instance's ring buffer still holds to the
 * pages, converts them into the output .dat marked INCOMPLETE (rec_read.h)
 * with the reason, then removes the instance, the registry entries and the
 * tmpdir. Nothing is recovered or removed while its owner lives.
 *
 * The same mark serves a recording cut by a full disk (rec_disk_full_cut):
 * its pages are cut at one time on every CPU, shorter until the .dat fits,
 * and the note says where the trace ends.
 *
 * It runs from `preflight record --recover DIR` (the tmpdirs in DIR), and
 * from rec_stale_cleanup (every dead recorder's, wherever its output was),
 * which `preflight record`, `preflight run` and `preflight load
 * --cleanup-stale` call first.
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

/* rec_note - what REC_SESSION_FILE says */
struct rec_note {
	long pid;			/* the recorder */
	char instance[64];
	char output[PATH_MAX];		/* absolute */
	char events[1024];
	char clock_line[256];
	long ncpus, subbuf_size;
	bool compress, kallsyms, flight;
};

/* rec_abs_path - 'path' made absolute against the working directory; 0 or -errno */
static int rec_abs_path(const char *path, char *buf, size_t size)
{
	char cwd[PATH_MAX];

	if (path[0] == '/')
		return snprintf(buf, size, "%s", path) < (int)size ? 0 : -ENAMETOOLONG;
	if (!getcwd(cwd, sizeof(cwd)))
		return -errno;
	return pf_path_join(buf, size, cwd, path);
}

/*
 * rec_session_note - write REC_SESSION_FILE into the session's tmpdir once
 * the recording runs (the page size is known then); 0 or -errno
 */
int rec_session_note(const struct rec_session *s)
{
	char path[PATH_MAX], output[PATH_MAX];
	FILE *f;
	int ret;

	if ((ret = rec_abs_path(s->opts->output, output, sizeof(output))) < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/" REC_SESSION_FILE, s->tmpdir);
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fprintf(f, "# preflight-record-session/1\npid %d\ninstance %s\noutput %s\nevents %s\n"
		"clock_line %s\nncpus %d\nsubbuf_size %d\ncompress %d\nkallsyms %d\nflight %d\n",
		(int)getpid(), s->name, output, s->opts->events, s->clock_line, s->ncpus,
		s->subbuf_size, s->opts->compress, s->opts->kallsyms, s->opts->flight);
	ret = fflush(f) ? -errno : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

/* rec_note_read - parse REC_SESSION_FILE of tmpdir; 0, -ENOENT (none) or -EINVAL */
static int rec_note_read(const char *tmpdir, struct rec_note *n)
{
	char path[PATH_MAX], line[PATH_MAX + 32], key[32], *val;
	long v;
	FILE *f;
	int seen = 0;

	memset(n, 0, sizeof(*n));
	snprintf(path, sizeof(path), "%s/" REC_SESSION_FILE, tmpdir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f) || strcmp(line, "# preflight-record-session/1\n")) {
		fclose(f);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		val = strchr(line, ' ');
		if (!val || val - line >= (long)sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(val - line), line);
		val++;
		seen++;
		if (!strcmp(key, "instance"))
			snprintf(n->instance, sizeof(n->instance), "%s", val);
		else if (!strcmp(key, "output"))
			snprintf(n->output, sizeof(n->output), "%s", val);
		else if (!strcmp(key, "events"))
			snprintf(n->events, sizeof(n->events), "%s", val);
		else if (!strcmp(key, "clock_line"))
			snprintf(n->clock_line, sizeof(n->clock_line), "%s", val);
		else if (pf_parse_long(val, 0, INT32_MAX, &v) < 0)
			seen--;
		else if (!strcmp(key, "pid"))
			n->pid = v;
		else if (!strcmp(key, "ncpus"))
			n->ncpus = v;
		else if (!strcmp(key, "subbuf_size"))
			n->subbuf_size = v;
		else if (!strcmp(key, "compress"))
			n->compress = v;
		else if (!strcmp(key, "kallsyms"))
			n->kallsyms = v;
		else if (!strcmp(key, "flight"))
			n->flight = v;
	}
	fclose(f);
	if (seen < 10 || n->pid <= 0 || !n->instance[0] || n->output[0] != '/' || !n->events[0] ||
	    n->ncpus < 1 || n->ncpus > REC_MAX_CPUS || n->subbuf_size < 64)
		return -EINVAL;
	return 0;
}

/* rec_destroy_named - remove instance 'name' (disabling its events first) */
static int rec_destroy_named(const char *tracing_dir, const char *name)
{
	struct tracefs_instance *inst;
	int ret;

	inst = tracefs_instance_alloc(tracing_dir, name);
	if (!inst)
		return -errno ? -errno : -ENOMEM;
	tracefs_instance_file_write(inst, "tracing_on", "0");
	tracefs_event_disable(inst, NULL, NULL);
	if (tracefs_file_exists(inst, "options/copy_trace_marker"))
		tracefs_instance_file_write(inst, "options/copy_trace_marker", "0");
	ret = tracefs_instance_destroy(inst) < 0 ? -EBUSY : 0;
	tracefs_instance_free(inst);
	return ret;
}

/* rec_clock_name - the clock in brackets of a trace_clock line */
static void rec_clock_name(const char *line, char *buf, size_t size)
{
	const char *open_b = strchr(line, '['), *close_b = open_b ? strchr(open_b, ']') : NULL;

	snprintf(buf, size, "%s", "unknown");
	if (open_b && close_b)
		snprintf(buf, size, "%.*s", (int)(close_b - open_b - 1), open_b + 1);
}

/*
 * rec_recover_pages - the raw page files of a dead session, opened for
 * appending whole pages (a page cut by the kill is dropped), plus what its
 * instance still holds if it exists; 0 or -errno
 */
static int rec_recover_pages(struct rec_session *s)
{
	char path[PATH_MAX];
	struct stat st;
	int cpu, ret;

	s->cpus = calloc(s->ncpus, sizeof(*s->cpus));
	if (!s->cpus)
		return -ENOMEM;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		c->s = s;
		c->cpu = cpu;
		snprintf(c->path, sizeof(c->path), "%s/stream.cpu%d", s->tmpdir, cpu);
		c->fd = open(c->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
		if (c->fd < 0 || fstat(c->fd, &st) < 0)
			return -errno;
		c->bytes = (uint64_t)st.st_size - (uint64_t)st.st_size % (uint64_t)s->subbuf_size;
		if (ftruncate(c->fd, (off_t)c->bytes) < 0 || lseek(c->fd, (off_t)c->bytes, SEEK_SET) < 0)
			return -errno;
	}
	snprintf(path, sizeof(path), "%s/instances/%s", s->tracing_dir, s->name);
	if (access(path, F_OK) < 0)
		return 0;
	s->inst = tracefs_instance_alloc(s->tracing_dir, s->name);
	if (!s->inst)
		return -ENOMEM;
	rec_tracing_on(s, false);
	if ((ret = rec_drain(s)) < 0)
		pf_err("instance '%s': reading what its buffer still holds: %s", s->name, strerror(-ret));
	if (rec_read_stats(s) < 0)
		pf_err("instance '%s': per-CPU stats: cannot read (lost events unknown)", s->name);
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		if (s->cpus[cpu].tcpu)
			tracefs_cpu_close(s->cpus[cpu].tcpu);
		s->cpus[cpu].tcpu = NULL;
	}
	return 0;
}

/* rec_recovered_name - the output, or beside it when a file of that name exists already */
static void rec_recovered_name(const char *output, char *buf, size_t size)
{
	size_t len = strlen(output);

	snprintf(buf, size, "%s", output);
	if (access(output, F_OK) < 0)
		return;
	if (len > 4 && !strcmp(output + len - 4, ".dat"))
		len -= 4;
	snprintf(buf, size, "%.*s-recovered.dat", (int)len, output);
}

/*
 * rec_recover_session - turn one dead session's tmpdir (described by 'n')
 * into its .dat marked incomplete, then remove its instance, registry
 * entries and tmpdir; 1 recovered, 0 nothing to recover, -errno
 */
static int rec_recover_session(const char *tracing_dir, const char *tmpdir,
			       const struct rec_note *n, bool quiet)
{
	struct rec_opts o = {
		.output = n->output, .events = n->events, .compress = n->compress,
		.kallsyms = n->kallsyms, .copy_markers = true, .quiet = true,
	};
	struct rec_session s = { .opts = &o };
	char out[PATH_MAX], tmp[PATH_MAX + 8], reg[PATH_MAX];
	struct rec_count count = { 0 };
	uint64_t bytes = 0;
	int cpu, ret;

	snprintf(s.name, sizeof(s.name), "%s", n->instance);
	snprintf(s.tracing_dir, sizeof(s.tracing_dir), "%s", tracing_dir);
	snprintf(s.tmpdir, sizeof(s.tmpdir), "%s", tmpdir);
	snprintf(s.clock_line, sizeof(s.clock_line), "%s", n->clock_line);
	rec_clock_name(n->clock_line, s.clock, sizeof(s.clock));
	s.ncpus = (int)n->ncpus;
	s.subbuf_size = (int)n->subbuf_size;
	snprintf(s.incomplete, sizeof(s.incomplete), "recovered after the recorder (pid %ld) was "
		 "killed; events after its death are missing", n->pid);
	rec_recovered_name(n->output, out, sizeof(out));
	snprintf(tmp, sizeof(tmp), "%s.tmp", n->output);
	unlink(tmp);	/* a .dat the killed recorder was writing: never complete */

	ret = rec_events_parse(n->events, &s.events);
	if (!ret && !n->flight)
		ret = rec_recover_pages(&s);
	for (cpu = 0; !ret && !n->flight && cpu < s.ncpus; cpu++)
		bytes += s.cpus[cpu].bytes;
	if (!ret && bytes) {
		rec_comm_read_saved(&s.comms, s.tracing_dir);
		rec_comm_scan_proc(&s.comms);
		ret = rec_scan_all(&s, &count);
		if (!ret)
			ret = rec_dat_write(&s, out);
	}
	if (ret < 0) {
		pf_err("'%s': cannot recover the killed recorder's pages: %s (kept)", tmpdir,
		       strerror(-ret));
	} else if (bytes && !quiet) {
		fprintf(stderr, "preflight: record: recovered %s: %llu events of the killed "
			"recorder (pid %ld), marked incomplete\n", out,
			(unsigned long long)count.events, n->pid);
	}
	rec_cpu_files_close(&s, ret >= 0);
	if (s.inst) {
		rec_instance_teardown(&s);
	} else if (access(tracing_dir, F_OK) == 0) {
		snprintf(reg, sizeof(reg), "%s/instances/%s", tracing_dir, n->instance);
		if (access(reg, F_OK) == 0)
			rec_destroy_named(tracing_dir, n->instance);
	}
	rec_registry_path(reg, sizeof(reg), n->instance);
	unlink(reg);
	rec_tmpreg_path(reg, sizeof(reg), n->instance);
	unlink(reg);
	if (ret >= 0)
		rec_tmpdir_remove(tmpdir);
	free(s.cpus);
	rec_comm_free(&s.comms);
	if (s.tep)
		tep_free(s.tep);
	return ret < 0 ? ret : bytes ? 1 : 0;
}

/* rec_tmpdir_empty - the tmpdir holds no page data (empty files only) */
static bool rec_tmpdir_empty(const char *tmpdir)
{
	char path[PATH_MAX];
	struct dirent *d;
	struct stat st;
	bool empty = true;
	DIR *dir = opendir(tmpdir);

	while (dir && empty && (d = readdir(dir)))
		if (strncmp(d->d_name, "stream.cpu", 10) == 0 &&
		    !pf_path_join(path, sizeof(path), tmpdir, d->d_name) &&
		    !stat(path, &st) && st.st_size > 0)
			empty = false;
	if (dir)
		closedir(dir);
	return empty;
}

/*
 * rec_recover_tmpdir - recover one tmpdir unless its recorder lives; a
 * tmpdir without a session note (its recorder died before it recorded) is
 * removed when it holds no pages, else kept and said; 1 recovered, 0
 * nothing to do, -EBUSY in use, -errno
 */
static int rec_recover_tmpdir(const char *tracing_dir, const char *tmpdir, bool quiet)
{
	struct rec_note n;
	int ret = rec_note_read(tmpdir, &n);

	if (ret == 0 && pf_stale_owner_alive(n.pid))
		return -EBUSY;
	if (ret == 0)
		return rec_recover_session(tracing_dir, tmpdir, &n, quiet);
	if (rec_tmpdir_empty(tmpdir)) {
		rec_tmpdir_remove(tmpdir);
		return 0;
	}
	pf_err("'%s': raw pages without a readable %s: not recovered (kept)", tmpdir,
	       REC_SESSION_FILE);
	return ret;
}

/* rec_is_tmpdir - 'path' is a real REC_TMPDIR_PREFIX directory, nothing else it may name */
static bool rec_is_tmpdir(const char *path)
{
	char copy[PATH_MAX];
	struct stat st;

	snprintf(copy, sizeof(copy), "%s", path);
	return path[0] == '/' && !strncmp(basename(copy), REC_TMPDIR_PREFIX, strlen(REC_TMPDIR_PREFIX)) &&
	       !lstat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * rec_recover_dir - 'preflight record --recover DIR': every dead recorder's
 * tmpdir in DIR; the number recovered, or -errno (-EBUSY: one is in use)
 */
int rec_recover_dir(const char *tracing_dir, const char *dir, bool quiet)
{
	char abs[PATH_MAX], path[PATH_MAX * 2];
	struct dirent *d;
	int recovered = 0, ret, err = 0;
	DIR *dd;

	if ((ret = rec_abs_path(dir, abs, sizeof(abs))) < 0)
		return ret;
	dd = opendir(abs);
	if (!dd)
		return -errno;
	while ((d = readdir(dd))) {
		if (strncmp(d->d_name, REC_TMPDIR_PREFIX, strlen(REC_TMPDIR_PREFIX)))
			continue;
		if (pf_path_join(path, sizeof(path), abs, d->d_name) || !rec_is_tmpdir(path))
			continue;
		ret = rec_recover_tmpdir(tracing_dir, path, quiet);
		if (ret > 0)
			recovered++;
		else if (ret == -EBUSY && !quiet)
			fprintf(stderr, "preflight: record: '%s': its recorder is still running: "
				"left alone\n", path);
		if (ret < 0 && !err)
			err = ret;
	}
	closedir(dd);
	return err && err != -EBUSY ? err : recovered;
}

/*
 * rec_stale_one - instance 'name' of recorder 'pid': when that is dead,
 * recover its tmpdir (rec_recover_tmpdir) and remove the instance and its
 * registry entries; 1 when it was stale
 */
static int rec_stale_one(const char *tracing_dir, const char *name, long pid, bool quiet)
{
	char path[PATH_MAX], reg[PATH_MAX], tmpdir[PATH_MAX];
	int ret;

	if (pf_stale_owner_alive(pid))
		return 0;
	rec_tmpreg_path(reg, sizeof(reg), name);
	if (pf_read_file(reg, tmpdir, sizeof(tmpdir)) >= 0 && rec_is_tmpdir(tmpdir))
		rec_recover_tmpdir(tracing_dir, tmpdir, quiet);
	unlink(reg);
	snprintf(path, sizeof(path), "%s/instances/%s", tracing_dir, name);
	if (access(path, F_OK) == 0) {
		ret = rec_destroy_named(tracing_dir, name);
		if (ret < 0) {
			pf_err("stale instance '%s' (recorder pid %ld is gone): cannot remove: %s",
			       name, pid, strerror(-ret));
			return ret;
		}
		if (!quiet)
			fprintf(stderr, "preflight: record: removed stale instance '%s' "
				"(recorder pid %ld is gone)\n", name, pid);
	}
	rec_registry_path(reg, sizeof(reg), name);
	unlink(reg);
	return 1;
}

/*
 * rec_stale_cleanup - recover and remove what recorders that died without
 * cleaning up left: registered instances whose pid is dead, and
 * "preflight-<pid>" ones whose pid is dead; the number removed or -errno
 */
int rec_stale_cleanup(const char *tracing_dir, bool quiet)
{
	char path[PATH_MAX], text[32];
	struct dirent *d;
	int removed = 0, ret;
	long pid;
	DIR *dir;

	dir = opendir(REC_REGISTRY_DIR);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		rec_registry_path(path, sizeof(path), d->d_name);
		if (pf_read_file(path, text, sizeof(text)) < 0 ||
		    pf_parse_long(text, 1, INT32_MAX, &pid) < 0)
			continue;	/* being written: its recorder is starting */
		ret = rec_stale_one(tracing_dir, d->d_name, pid, quiet);
		if (ret > 0)
			removed++;
	}
	if (dir)
		closedir(dir);

	snprintf(path, sizeof(path), "%s/instances", tracing_dir);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir))) {
		const char *num = d->d_name + strlen(REC_NAME_PREFIX);

		if (strncmp(d->d_name, REC_NAME_PREFIX, strlen(REC_NAME_PREFIX)) ||
		    pf_parse_long(num, 1, INT32_MAX, &pid) < 0)
			continue;
		ret = rec_stale_one(tracing_dir, d->d_name, pid, quiet);
		if (ret > 0)
			removed++;
	}
	closedir(dir);
	return removed;
}

/* the page to cut each CPU's file at: the first that starts after cut_ns */
struct rec_cut {
	uint64_t cut_ns;
	long long *off;			/* -1: keep the whole file */
};

/* rec_cut_page - rec_page_fn: note the first page starting after the cut */
static int rec_cut_page(void *ctx, int cpu, long long off, uint64_t first_ns, uint64_t last_ns)
{
	struct rec_cut *c = ctx;

	if (c->off[cpu] < 0 && first_ns > c->cut_ns)
		c->off[cpu] = off;
	return 0;
}

/* rec_cut_at - drop every page that starts after cut_ns, on every CPU; 0 or -errno */
static int rec_cut_at(struct rec_session *s, uint64_t cut_ns)
{
	struct rec_cut c = { .cut_ns = cut_ns };
	int cpu, ret = 0;

	c.off = malloc(s->ncpus * sizeof(*c.off));
	if (!c.off)
		return -ENOMEM;
	for (cpu = 0; cpu < s->ncpus && !ret; cpu++) {
		struct rec_count ignored = { 0 };

		c.off[cpu] = -1;
		ret = rec_scan_cpu_file(s, cpu, &ignored, rec_cut_page, &c);
		if (!ret && c.off[cpu] >= 0 && ftruncate(s->cpus[cpu].fd, c.off[cpu]) < 0)
			ret = -errno;
		if (!ret && c.off[cpu] >= 0)
			s->cpus[cpu].bytes = (uint64_t)c.off[cpu];
	}
	free(c.off);
	return ret;
}

/* rec_failed_end_ns - the latest time every CPU's file still covers (the earliest last event) */
static uint64_t rec_failed_end_ns(struct rec_session *s)
{
	uint64_t end = UINT64_MAX;
	int cpu;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_count one = { 0 };

		if (s->cpus[cpu].err && !rec_scan_cpu_file(s, cpu, &one, NULL, NULL) &&
		    one.last_ns && one.last_ns < end)
			end = one.last_ns;	/* a CPU whose stream failed ends there */
	}
	return end;
}

/*
 * rec_disk_full_cut - the disk filled ('why', -ENOSPC / -EDQUOT): cut every
 * CPU's pages at one time (where the first stream failed), then write the
 * .dat, cutting shorter (kallsyms first, then half the remaining span at a
 * time) until it fits; the .dat is marked INCOMPLETE with where it ends.
 * 0 written, or -errno
 */
int rec_disk_full_cut(struct rec_session *s, int why, struct rec_count *count)
{
	uint64_t end_ns, first_ns;
	int ret, tries, cpu;
	struct stat st;

	for (cpu = 0; cpu < s->ncpus; cpu++) {	/* a page the full disk cut in part: never copied */
		struct rec_cpu *c = &s->cpus[cpu];

		if (fstat(c->fd, &st) < 0 ||
		    ftruncate(c->fd, st.st_size - st.st_size % s->subbuf_size) < 0)
			return -errno;
		c->bytes = (uint64_t)(st.st_size - st.st_size % s->subbuf_size);
	}
	if ((ret = rec_scan_all(s, count)) < 0)
		return ret;
	first_ns = count->first_ns;
	end_ns = rec_failed_end_ns(s);
	for (tries = 0; tries < 40; tries++) {
		if (end_ns != UINT64_MAX && (ret = rec_cut_at(s, end_ns)) < 0)
			return ret;
		if ((ret = rec_scan_all(s, count)) < 0)
			return ret;
		snprintf(s->incomplete, sizeof(s->incomplete), "truncated: the disk filled (%s) "
			 "while recording; the trace ends at %.6f s (%.3f s after its first event), "
			 "later events are missing", why == -EDQUOT ? "EDQUOT" : "ENOSPC",
			 count->last_ns / 1e9, count->last_ns > first_ns ?
			 (count->last_ns - first_ns) / 1e9 : 0.0);
		ret = rec_dat_write(s, s->opts->output);
		if (ret != -ENOSPC && ret != -EDQUOT)
			return ret;
		if (s->opts->kallsyms && !s->no_kallsyms) {
			s->no_kallsyms = true;	/* the largest piece that is no event */
			continue;
		}
		if (count->last_ns <= first_ns)
			return ret;
		end_ns = first_ns + (count->last_ns - first_ns) / 2;
	}
	return ret;
}
