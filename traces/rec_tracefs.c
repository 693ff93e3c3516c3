/*
 * rec_tracefs.c - the recorder's tracefs instance: finding (or mounting)
 * tracefs, expanding event sets, creating and configuring its own instance
 * (never the top-level buffer), registering it, and tearing it down again.
 *
 * Ownership of instances is recorded in REC_REGISTRY_DIR/<name> (the pid of
 * the recorder), so a later run can tell a stale instance (its recorder is
 * dead) from one in use; rec_recover.c deals with those.
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

/* the documented event sets; "full" adds what culprit analysis can use */
static const char *const rec_set_sched[] = {
	"sched:sched_switch", "sched:sched_waking", "sched:sched_wakeup",
	"sched:sched_wakeup_new", "sched:sched_migrate_task", "sched:sched_process_exit",
	NULL
};
/*
 * a priority-inheritance boost and its end (analysis/rt.c: the holder, its
 * boost, how long it ran boosted); where the kernel has no such event the
 * set goes without it
 */
static const char *const rec_set_sched_optional[] = { "sched:sched_pi_setprio", NULL };
static const char *const rec_set_default[] = {
	"irq:irq_handler_entry", "irq:irq_handler_exit", "irq:softirq_entry",
	"irq:softirq_exit", "irq:softirq_raise", "timer:hrtimer_expire_entry",
	"timer:hrtimer_expire_exit", NULL
};
/*
 * x86's system interrupts (the local timer, IPIs), which irq_handler_entry
 * does not see: the time a thread's CPU spent in them is not its execution
 * time (analysis). Where there are none (other architectures), the set goes
 * without them. 'default' records them only when they interrupt a thread
 * (REC_VEC_FILTER): an idle CPU's timer interrupts are nobody's execution
 * time; 'full' records all, and the reschedule IPI.
 */
#define REC_VEC_FILTER "common_pid != 0"
static const char *const rec_set_default_vectors[] = {
	"irq_vectors:local_timer_entry", "irq_vectors:local_timer_exit",
	"irq_vectors:call_function_entry", "irq_vectors:call_function_exit",
	"irq_vectors:call_function_single_entry", "irq_vectors:call_function_single_exit",
	"irq_vectors:irq_work_entry", "irq_vectors:irq_work_exit",
	NULL
};
static const char *const rec_set_full[] = {
	"sched:sched_process_fork", "sched:sched_process_exec",
	"workqueue:workqueue_queue_work", "workqueue:workqueue_activate_work",
	"workqueue:workqueue_execute_start", "workqueue:workqueue_execute_end",
	"timer:timer_start", "timer:timer_expire_entry", "timer:timer_expire_exit",
	"timer:hrtimer_start", "timer:hrtimer_cancel",
	"ipi:ipi_send_cpu", "ipi:ipi_send_cpumask",
	/* the scheduler's IPI: a handler of next to nothing, 9 % of a loaded trace's events */
	"irq_vectors:reschedule_entry", "irq_vectors:reschedule_exit",
	NULL
};

/* rec_tracefs_ready - tracefs mounted (mounting it if needed) and writable; its path in dir */
int rec_tracefs_ready(char *dir, size_t size)
{
	const char *path = NULL;
	char inst[PATH_MAX];

	if (!tracefs_tracing_dir_is_mounted(true, &path) || !path)
		path = tracefs_tracing_dir();
	if (!path)
		return -ENODEV;
	snprintf(inst, sizeof(inst), "%s/instances", path);
	if (access(inst, W_OK) < 0)
		return errno == ENOENT ? -ENODEV : -EACCES;
	snprintf(dir, size, "%s", path);
	return 0;
}

/* rec_events_add - append one "system:event", "system/event" or "system" item */
static int rec_events_add(struct rec_events *out, const char *item, bool optional)
{
	struct rec_event *e;
	const char *sep = strpbrk(item, ":/");
	size_t sys_len = sep ? (size_t)(sep - item) : strlen(item);
	const char *ev = sep ? sep + 1 : "";
	int i;

	if (!sys_len || sys_len >= sizeof(e->system) || strlen(ev) >= sizeof(e->event))
		return -EINVAL;
	if (!strcmp(ev, "*"))
		ev = "";
	for (i = 0; i < out->n; i++)
		if (!strncmp(out->ev[i].system, item, sys_len) && !out->ev[i].system[sys_len] &&
		    !strcmp(out->ev[i].event, ev)) {
			out->ev[i].optional &= optional;	/* named on its own: required */
			return 0;
		}
	if (out->n >= REC_MAX_EVENTS)
		return -E2BIG;
	e = &out->ev[out->n++];
	memcpy(e->system, item, sys_len);
	e->system[sys_len] = '\0';
	snprintf(e->event, sizeof(e->event), "%s", ev);
	e->optional = optional;
	return 0;
}

/* rec_events_add_set - append a NULL-terminated set, each new one with the kernel filter 'filter' (NULL none) */
static int rec_events_add_set(struct rec_events *out, const char *const *set, bool optional, const char *filter)
{
	int ret, n;

	for (; *set; set++) {
		n = out->n;
		if ((ret = rec_events_add(out, *set, optional)) < 0)
			return ret;
		if (out->n > n)
			out->ev[n].filter = filter;
	}
	return 0;
}

/* rec_events_add_sched - the 'sched' set: its events, and sched_pi_setprio where the kernel has it */
static int rec_events_add_sched(struct rec_events *out)
{
	int ret = rec_events_add_set(out, rec_set_sched, false, NULL);

	return ret ? ret : rec_events_add_set(out, rec_set_sched_optional, true, NULL);
}

/*
 * rec_events_parse - expand "sched", "default", "full" or a comma-separated
 * list of sets, systems ("workqueue") and events ("irq:irq_handler_entry");
 * 0 or -EINVAL / -E2BIG
 */
int rec_events_parse(const char *spec, struct rec_events *out)
{
	char buf[1024], *item, *save = NULL;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec || strlen(spec) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (item = strtok_r(buf, ",", &save); item && !ret; item = strtok_r(NULL, ",", &save)) {
		const char *p;

		for (p = item; *p; p++)
			if (!isalnum((unsigned char)*p) && !strchr("_:/*-", *p))
				return -EINVAL;
		if (!strcmp(item, "sched")) {
			ret = rec_events_add_sched(out);
		} else if (!strcmp(item, "default")) {
			ret = rec_events_add_sched(out);
			if (!ret)
				ret = rec_events_add_set(out, rec_set_default, false, NULL);
			if (!ret)
				ret = rec_events_add_set(out, rec_set_default_vectors, true, REC_VEC_FILTER);
		} else if (!strcmp(item, "full")) {
			ret = rec_events_add_sched(out);
			if (!ret)
				ret = rec_events_add_set(out, rec_set_default, false, NULL);
			if (!ret)
				ret = rec_events_add_set(out, rec_set_default_vectors, true, NULL);
			if (!ret)
				ret = rec_events_add_set(out, rec_set_full, true, NULL);
		} else {
			ret = rec_events_add(out, item, false);
		}
	}
	if (!ret && !out->n)
		ret = -EINVAL;
	return ret;
}

/* rec_registry_path - the ownership file of instance 'name' ("" when too long: fails on use) */
void rec_registry_path(char *buf, size_t size, const char *name)
{
	if (pf_path_join(buf, size, REC_REGISTRY_DIR, name))
		return;
}

/* rec_tmpreg_path - the file naming instance 'name''s temporary directory ("" when too long) */
void rec_tmpreg_path(char *buf, size_t size, const char *name)
{
	if (pf_path_join(buf, size, REC_TMPREG_DIR, name))
		return;
}

/* rec_rm_entry - nftw callback removing one entry of a tmpdir */
static int rec_rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	remove(path);
	return 0;
}

/* rec_tmpdir_remove - remove a session's temporary directory and what it holds */
void rec_tmpdir_remove(const char *dir)
{
	nftw(dir, rec_rm_entry, 8, FTW_DEPTH | FTW_PHYS);
}

/*
 * rec_events_dir - the tracing directory whose events/ holds the session's
 * formats: its instance's, or the top level's once the instance is gone (a
 * recovery after it was removed; the formats are the same kernel's)
 */
void rec_events_dir(const struct rec_session *s, char *buf, size_t size)
{
	snprintf(buf, size, "%s/instances/%s", s->tracing_dir, s->name);
	if (access(buf, F_OK) < 0)
		snprintf(buf, size, "%s", s->tracing_dir);
}

/* rec_write - write a control file of the instance; 0 or -errno */
static int rec_write(struct rec_session *s, const char *file, const char *text)
{
	errno = 0;
	if (tracefs_instance_file_write(s->inst, file, text) < 0)
		return errno ? -errno : -EIO;
	return 0;
}

/* rec_clock_setup - set trace_clock to mono and store the clock actually in effect */
static int rec_clock_setup(struct rec_session *s)
{
	char *line, *open_b, *close_b;
	int ret = rec_write(s, "trace_clock", "mono");

	line = tracefs_instance_file_read(s->inst, "trace_clock", NULL);
	if (!line)
		return -EIO;
	line[strcspn(line, "\n")] = '\0';
	snprintf(s->clock_line, sizeof(s->clock_line), "%s", line);
	open_b = strchr(line, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (open_b && close_b) {
		*close_b = '\0';
		snprintf(s->clock, sizeof(s->clock), "%s", open_b + 1);
	}
	free(line);
	if (ret < 0 || strcmp(s->clock, "mono"))
		pf_err("WARNING: trace clock is '%s', not 'mono': marker payloads and event "
		       "times are on different clocks", s->clock[0] ? s->clock : "unknown");
	return 0;
}

/* rec_events_enable - enable the session's events; a missing optional one is noted */
/* rec_sched_filter - the kernel filter of one sched event; 0 or -errno with the message printed */
static int rec_sched_filter(struct rec_session *s, const char *event, const char *filter)
{
	if (tracefs_event_file_write(s->inst, "sched", event, "filter", filter) < 0)
		return pf_fail(-EIO, "sched:%s: cannot set the filter '%s': %s", event, filter,
			       strerror(errno));
	return 0;
}

/*
 * rec_filters - the kernel filters of --wakeups rt and --switches rt. Wakeups:
 * sched_waking and sched_wakeup of realtime threads only (prio below 100:
 * FIFO, RR, deadline), half the events of a loaded system (a hackbench worker
 * is woken for every message) and none of the app's. Switches: those to or
 * from a realtime thread or the idle task only. A realtime thread that is
 * runnable takes its CPU before any other thread, so while one waits no
 * switch between two other threads happens on that CPU: every switch that
 * bounds a realtime thread's wait or run, and every idle period, is kept;
 * what a load's threads did among themselves (most of a switch storm) is not,
 * but for a thread's last switch, in state X or Z (0x10, 0x20; TASK_DEAD,
 * 0x40, before Linux 4.14): analyze then knows it died, and a busy system's
 * thousands of short-lived threads do not add up in its memory.
 * 0 or -errno with the message printed.
 */
static int rec_filters(struct rec_session *s)
{
	int ret = 0;

	if (s->opts->rt_wakeups && !(ret = rec_sched_filter(s, "sched_waking", "prio < 100")))
		ret = rec_sched_filter(s, "sched_wakeup", "prio < 100");
	if (!ret && s->opts->rt_switches)
		ret = rec_sched_filter(s, "sched_switch", "prev_prio < 100 || next_prio < 100 || "
				       "prev_pid == 0 || next_pid == 0 || prev_state & 112");
	return ret;
}

static int rec_events_enable(struct rec_session *s)
{
	int i;

	for (i = 0; i < s->events.n; i++) {
		struct rec_event *e = &s->events.ev[i];
		const char *ev = e->event[0] ? e->event : NULL;

		if (!strcmp(e->system, "ftrace")) {
			e->system[0] = '\0';	/* the markers: always on, formats always stored */
			continue;
		}
		if (tracefs_event_enable(s->inst, e->system, ev) == 0) {
			if (e->filter && ev && tracefs_event_file_write(s->inst, e->system, ev, "filter", e->filter) < 0)
				return pf_fail(-EIO, "%s:%s: cannot set the filter '%s': %s", e->system, ev, e->filter,
					       strerror(errno));
			continue;
		}
		if (e->optional) {
			e->system[0] = '\0';	/* not recorded: no format in the file */
			continue;
		}
		return pf_fail(-ENOENT, "event '%s%s%s': not available in this kernel",
			       e->system, ev ? ":" : "", ev ? ev : "");
	}
	return rec_filters(s);
}

/*
 * rec_instance_setup - create and configure the session's instance, tracing
 * off: clock, buffer size, overwrite mode, marker copy, events; 0 or -errno
 * (the message is printed)
 */
int rec_instance_setup(struct rec_session *s)
{
	const struct rec_opts *o = s->opts;
	char path[PATH_MAX], num[32], cwd[PATH_MAX] = "";
	int ret, fd;

	if (o->instance)
		snprintf(s->name, sizeof(s->name), "%s", o->instance);
	else
		snprintf(s->name, sizeof(s->name), REC_NAME_PREFIX "%d", (int)getpid());
	if (tracefs_instance_exists(s->name)) {
		pf_err("instance '%s': already exists (another recorder is using it?)", s->name);
		return -EEXIST;
	}
	s->inst = tracefs_instance_create(s->name);
	if (!s->inst) {
		ret = errno ? -errno : -EIO;
		pf_err("instance '%s': cannot create: %s", s->name, strerror(-ret));
		return ret;
	}
	if (mkdir("/run/preflight", 0755) < 0 && errno != EEXIST)
		pf_err("WARNING: /run/preflight: %s (stale instances will be found by name only)",
		       strerror(errno));
	mkdir(REC_REGISTRY_DIR, 0755);
	rec_registry_path(path, sizeof(path), s->name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dprintf(fd, "%d\n", (int)getpid());
		close(fd);
	}
	/* the tmpdir beside the output, for a later run to remove if this one is killed */
	mkdir(REC_TMPREG_DIR, 0755);
	rec_tmpreg_path(path, sizeof(path), s->name);
	if (s->tmpdir[0] && (s->tmpdir[0] == '/' || getcwd(cwd, sizeof(cwd))) &&
	    (fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644)) >= 0) {
		dprintf(fd, "%s%s%s\n", s->tmpdir[0] == '/' ? "" : cwd, s->tmpdir[0] == '/' ? "" : "/",
			s->tmpdir);
		close(fd);
	}

	if ((ret = rec_write(s, "tracing_on", "0")) < 0)
		goto fail;
	if ((ret = rec_clock_setup(s)) < 0)
		goto fail;
	snprintf(num, sizeof(num), "%ld", o->buffer_kb);
	if ((ret = rec_write(s, "buffer_size_kb", num)) < 0) {
		pf_err("buffer of %ld KiB per CPU: cannot allocate: %s", o->buffer_kb,
		       strerror(-ret));
		goto out;
	}
	if ((ret = rec_write(s, "options/overwrite", "1")) < 0)
		goto fail;
	if (o->copy_markers && tracefs_file_exists(s->inst, "options/copy_trace_marker"))
		rec_write(s, "options/copy_trace_marker", "1");
	snprintf(num, sizeof(num), "%ld", o->buffer_percent);
	if (tracefs_file_exists(s->inst, "buffer_percent"))
		rec_write(s, "buffer_percent", num);
	if ((ret = rec_events_enable(s)) < 0)
		goto out;
	return 0;
fail:
	pf_err("instance '%s': configuring: %s", s->name, strerror(-ret));
out:
	rec_instance_teardown(s);
	return ret;
}

/* rec_instance_teardown - stop, disable and remove the instance and its registry entry */
void rec_instance_teardown(struct rec_session *s)
{
	char path[PATH_MAX];
	int tries;

	if (!s->inst)
		return;
	tracefs_instance_file_write(s->inst, "tracing_on", "0");
	tracefs_event_disable(s->inst, NULL, NULL);
	if (s->opts->copy_markers)
		tracefs_instance_file_write(s->inst, "options/copy_trace_marker", "0");
	/* rmdir fails with EBUSY while a reader still holds a file open: retry briefly */
	for (tries = 0; tracefs_instance_destroy(s->inst) < 0 && tries < 50; tries++)
		usleep(20000);
	if (tries == 50)
		pf_err("instance '%s': cannot remove: %s", s->name, strerror(errno));
	tracefs_instance_free(s->inst);
	s->inst = NULL;
	rec_registry_path(path, sizeof(path), s->name);
	unlink(path);
	rec_tmpreg_path(path, sizeof(path), s->name);
	unlink(path);
}

/* rec_tracing_on - switch the instance's recording on or off */
int rec_tracing_on(struct rec_session *s, bool on)
{
	return rec_write(s, "tracing_on", on ? "1" : "0");
}

/* rec_tracing_is_on - 1 when recording, 0 when off (a traceoff trigger fired), -errno */
int rec_tracing_is_on(struct rec_session *s)
{
	long long val;

	if (tracefs_instance_file_read_number(s->inst, "tracing_on", &val) < 0)
		return -EIO;
	return val != 0;
}

/* rec_read_stats - read per_cpu/cpuN/stats of every CPU into s->stats */
int rec_read_stats(struct rec_session *s)
{
	char file[64];
	int cpu;

	if (!s->stats) {
		s->stats = calloc(s->ncpus, sizeof(*s->stats));
		if (!s->stats)
			return -ENOMEM;
	}
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		free(s->stats[cpu]);
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", cpu);
		s->stats[cpu] = tracefs_instance_file_read(s->inst, file, NULL);
		if (!s->stats[cpu])
			return -EIO;
	}
	return 0;
}

/* rec_marker_write - write a text marker into the instance (ftrace:print) */
int rec_marker_write(struct rec_session *s, const char *text)
{
	return rec_write(s, "trace_marker", text);
}
