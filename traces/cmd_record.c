/*
 * cmd_record.c - 'preflight record': record kernel events and the app's
 * markers into a trace-cmd .dat file while a command runs.
 *
 * The session (rec.h) is set up here, the command is started with
 * PREFLIGHT_TRACE_INSTANCE / PREFLIGHT_TRACE_DIR in its environment, and the
 * main thread waits in sigtimedwait() for the command's end, the duration,
 * SIGINT / SIGTERM (or SIGUSR1 in flight-recorder mode) while per-CPU
 * threads stream pages to disk. Every path out of the run (the command
 * failing, a signal, an error) goes through the same teardown: the command
 * is stopped, the file written, the instance and temporary files removed.
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "cpuset.h"
#include "proc.h"
#include "rec.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>
#include <trace-cmd.h>

extern char **environ;

static int rec_cmd_run(int argc, char **argv);

const struct pf_command cmd_record = {
	.name = "record",
	.summary = "record kernel events and app markers into a trace-cmd .dat file",
	.usage =
	"usage: preflight record -o FILE [options] [-- COMMAND [ARGS...]]\n"
	"       preflight record --summary FILE\n"
	"       preflight record --recover DIR | --cleanup-stale\n"
	"\n"
	"Records scheduler, interrupt and timer events and the app's markers in its own\n"
	"tracefs instance until COMMAND exits, --duration ends, or SIGINT / SIGTERM, and\n"
	"writes a trace-cmd .dat (v6) file that trace-cmd report and KernelShark read.\n"
	"COMMAND finds the instance in $PREFLIGHT_TRACE_INSTANCE (its directory in\n"
	"$PREFLIGHT_TRACE_DIR): flightapp --trace-instance \"$PREFLIGHT_TRACE_INSTANCE\".\n"
	"\n"
	"options:\n"
	"  -o, --output FILE        the .dat file to write (flight recorder: FILE-NNN.dat;\n"
	"                           no default: required to record)\n"
	"  -e, --events SET|LIST    sched, default, full, or a comma-separated list of sets,\n"
	"                           systems (workqueue) and events (irq:irq_handler_entry)\n"
	"                           (default: default); ftrace:print and ftrace:raw_data\n"
	"                           (markers) are always recorded\n"
	"  -b, --buffer-kb N        ring buffer per CPU in KiB (default: 16384)\n"
	"  -i, --instance NAME      tracefs instance name (default: $PREFLIGHT_TRACE_INSTANCE\n"
	"                           if set, else preflight-<pid>)\n"
	"  -d, --duration TIME      stop after TIME (10s, 500ms; default: until COMMAND\n"
	"                           exits, or SIGINT / SIGTERM without a command)\n"
	"      --buffer-percent N   wake the per-CPU readers at N % full (default: 25)\n"
	"  -z, --compress           write a .dat v7 with compressed sections (zstd or zlib;\n"
	"                           default: v6, uncompressed)\n"
	"      --no-kallsyms        do not store /proc/kallsyms (smaller file; kernel\n"
	"                           addresses then print as numbers; default: stored)\n"
	"      --wakeups rt|all     rt: the kernel records sched_waking / sched_wakeup of\n"
	"                           realtime threads only (about half the events of a\n"
	"                           loaded system; other threads then have no wakeup\n"
	"                           latency; default: all)\n"
	"      --switches rt|all    rt: the kernel records sched_switch only to or from a\n"
	"                           realtime thread or idle (every switch that bounds a\n"
	"                           realtime wait or run; other threads' run times are\n"
	"                           then unknown; default: all)\n"
	"      --no-copy-markers    do not copy top-level trace_marker writes (cyclictest\n"
	"                           --tracemark) into the instance (default: copy)\n"
	"  -F, --flight-recorder    keep the buffer in overwrite mode and save the last\n"
	"                           --window on each trigger (marker or SIGUSR1;\n"
	"                           default: off, stream everything)\n"
	"      --window TIME        flight recorder: time kept before a trigger (default: 10s)\n"
	"      --max-snapshots N    flight recorder: stop after N snapshots (default: 10)\n"
	"      --trigger TEXT       flight recorder: a marker containing TEXT triggers a\n"
	"                           snapshot (default: 'hit latency threshold', written by\n"
	"                           cyclictest --tracemark; empty: SIGUSR1 only)\n"
	"      --cpus LIST          pin every thread of the recorder to these CPUs (1,\n"
	"                           0-3,6); COMMAND keeps the recorder's original affinity\n"
	"                           (default: not pinned)\n"
	"      --nice N             the recorder's threads at nice N (-20..19), so that busy\n"
	"                           normal threads (a load) cannot starve it on a shared CPU;\n"
	"                           COMMAND keeps the recorder's original nice value; fails\n"
	"                           when it cannot be set (default: unchanged)\n"
	"      --ready-fd FD        write \"ready\" to FD once the instance is set up, before\n"
	"                           the recording and COMMAND start (an error before that\n"
	"                           exits, the why on stderr; default: none)\n"
	"      --go-fd FD           once set up, wait for the line \"go\" on FD before the\n"
	"                           recording and COMMAND start: a caller sets the recorder\n"
	"                           up on a quiet machine, then starts its loads (FD closed\n"
	"                           or a signal first: nothing recorded, exit 3; default:\n"
	"                           start at once)\n"
	"      --observer PID       the threads of process PID are preflight's too (the\n"
	"                           runner): listed with the recorder's own in the file, so\n"
	"                           analysis counts them as the observer; repeatable, at\n"
	"                           most 16 (default: the recorder alone)\n"
	"  -q, --quiet              no summary line (warnings about lost events stay;\n"
	"                           default: summary on stderr)\n"
	"      --summary FILE       print what a .dat file holds (events per type, markers,\n"
	"                           lost events, pid -> comm) and exit (default: record)\n"
	"      --recover DIR        turn what a killed recorder left in DIR (raw pages\n"
	"                           in .preflight-record.*, what its instance still\n"
	"                           holds) into its .dat, marked incomplete, and remove\n"
	"                           its instance; a recorder still running is left alone\n"
	"                           (default: off, record)\n"
	"      --cleanup-stale      the same for every dead recorder, wherever its output\n"
	"                           was (record and run do this first; default: off)\n"
	"  -h, --help               this text\n"
	"\n"
	"A disk that fills while recording ends the recording there: the trace up to\n"
	"that point is kept, marked truncated (exit 3).\n"
	"\n"
	"exit: 0 recorded (lost events are stored in the file and warned about), 1 COMMAND\n"
	"failed (the trace is still written), 2 usage, 3 no tracefs / privilege, 4 internal\n",
	.run = rec_cmd_run,
};

/* the state of the running command, seen by the wait loop */
struct rec_run {
	struct pf_proc cmd;		/* the command: pid (0: none), status once reaped, exec errno */
	int64_t deadline_ns;		/* 0: no --duration */
	int64_t next_scan_ns;		/* next /proc comm scan */
	int stop_signal;		/* SIGINT / SIGTERM that ended the run */
	bool stopped;			/* the recorder ended the command (duration, signal) */
	sigset_t sigs;			/* the signals the loop waits for */
};

static struct rec_run rec_run;

/* rec_reap - collect the command's exit status if it ended */
static void rec_reap(bool block)
{
	struct pf_proc *c = &rec_run.cmd;

	if (!c->pid || c->reaped)
		return;
	if (waitpid(c->pid, &c->status, block ? 0 : WNOHANG) == c->pid)
		c->reaped = true;
}

/*
 * rec_discard_pending - drop the loop's signals still pending at the end (a
 * second SIGTERM / Ctrl-C while stopping): the run already stopped and
 * cleaned up, so unblocking them must not kill the recorder with a
 * "terminated" status after the fact
 */
static void rec_discard_pending(void)
{
	struct timespec zero = { 0, 0 };

	while (sigtimedwait(&rec_run.sigs, NULL, &zero) > 0)
		;
}

/* rec_wait - the main loop's wait: one tick, or why the run should stop / snapshot */
static enum rec_wake rec_wait(struct rec_session *s)
{
	struct timespec tick = { 0, 100 * PF_NS_PER_MS };
	int64_t now_ns;
	int sig;

	sig = sigtimedwait(&rec_run.sigs, NULL, &tick);
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		rec_run.stop_signal = sig;
		return REC_WAKE_STOP;
	}
	rec_reap(false);
	if (rec_run.cmd.reaped)	/* the command ended, or could not be started */
		return REC_WAKE_STOP;
	if (!s->opts->flight && rec_stream_failed(s))	/* a full disk: keep what is on it */
		return REC_WAKE_STOP;
	now_ns = pf_now_ns();
	if (rec_run.deadline_ns && now_ns >= rec_run.deadline_ns)
		return REC_WAKE_STOP;
	if (now_ns >= rec_run.next_scan_ns) {
		if (!s->opts->flight)
			rec_comm_scan_proc(&s->comms);
		if (rec_observer_scan(s) < 0)
			pf_err("observer threads: out of memory (the list in the file is short)");
		rec_run.next_scan_ns = now_ns + 500 * PF_NS_PER_MS;
	}
	return sig == SIGUSR1 ? REC_WAKE_SNAPSHOT : REC_WAKE_TICK;
}

/*
 * rec_ready_go - the instance is set up: say "ready" on --ready-fd, then wait
 * for the line "go" on --go-fd (signals still end the wait); 0, -ECANCELED
 * (SIGINT / SIGTERM / SIGHUP: rec_run.stop_signal), -EPIPE (closed first),
 * -EPROTO (another line) or -errno
 */
static int rec_ready_go(const struct rec_opts *o)
{
	struct pollfd pfd = { .fd = o->go_fd, .events = POLLIN };
	struct timespec now = { 0, 0 };
	char line[16];
	size_t len = 0;
	ssize_t n;
	int sig;

	if (o->ready_fd >= 0 && write(o->ready_fd, "ready\n", 6) != 6)
		return errno == EPIPE ? -EPIPE : errno ? -errno : -EIO;
	if (o->go_fd < 0)
		return 0;
	for (;;) {
		sig = sigtimedwait(&rec_run.sigs, NULL, &now);
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			rec_run.stop_signal = sig;
			return -ECANCELED;
		}
		if (poll(&pfd, 1, 100) <= 0)
			continue;
		n = read(o->go_fd, line + len, sizeof(line) - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		len += (size_t)n;
		line[len] = '\0';
		if (strchr(line, '\n'))
			return strcmp(line, "go\n") ? -EPROTO : 0;
		if (len == sizeof(line) - 1)
			return -EPROTO;
	}
}

/* rec_env - environ plus the instance variables, for the command */
static char **rec_env(struct rec_session *s, char *inst_var, size_t inst_size,
		      char *dir_var, size_t dir_size)
{
	size_t n = 0, i, j = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 3, sizeof(*env));
	if (!env)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(environ[i], "PREFLIGHT_TRACE_INSTANCE=", 25) &&
		    strncmp(environ[i], "PREFLIGHT_TRACE_DIR=", 20))
			env[j++] = environ[i];
	snprintf(inst_var, inst_size, "PREFLIGHT_TRACE_INSTANCE=%s", s->name);
	snprintf(dir_var, dir_size, "PREFLIGHT_TRACE_DIR=%s/instances/%s", s->tracing_dir,
		 s->name);
	env[j++] = inst_var;
	env[j++] = dir_var;
	return env;
}

/*
 * rec_start_command - start argv with the instance in its environment, in
 * its own process group (everything it starts is stopped with it); a
 * SIGKILLed recorder leaves no command (SIGTERM on the parent's death). A
 * command that cannot be executed is not an error here: rec_command_result
 * says so after the (empty) recording.
 */
static int rec_start_command(struct rec_session *s, char **argv)
{
	char inst_var[128], dir_var[PATH_MAX + 64];
	char **env = rec_env(s, inst_var, sizeof(inst_var), dir_var, sizeof(dir_var));
	struct pf_proc_spec spec = {
		.argv = argv, .envp = env, .in_path = "-", .out_path = "-", .err_path = "-",
		.flags = PF_PROC_PGRP, .death_sig = SIGTERM,
		/* the command runs where the recorder was started, not on --cpus; set in the child, so
		 * the recorder itself never leaves its CPUs */
		.cpus = s->pinned ? &s->orig_cpus : NULL,
		.set_nice = s->opts->set_nice, .nice = s->orig_nice,	/* --nice is the recorder's only */
	};
	int ret;

	if (!env)
		return -ENOMEM;
	ret = pf_proc_start(&rec_run.cmd, &spec);
	free(env);
	return ret < 0 && !rec_run.cmd.exec_errno ? ret : 0;
}

/*
 * rec_stop_command - end the command and whatever it left running in its
 * process group: SIGTERM, then SIGKILL after 2 s
 */
static void rec_stop_command(void)
{
	int64_t give_up_ns = pf_now_ns() + 2 * PF_NS_PER_SEC;
	pid_t group = rec_run.cmd.pid;

	if (!group)
		return;
	rec_reap(false);
	if (kill(-group, 0) < 0 && rec_run.cmd.reaped)
		return;
	rec_run.stopped = !rec_run.cmd.reaped;
	kill(-group, SIGTERM);
	while (pf_now_ns() < give_up_ns) {
		rec_reap(false);
		if (rec_run.cmd.reaped && kill(-group, 0) < 0)
			return;
		usleep(10000);
	}
	kill(-group, SIGKILL);
	rec_reap(true);
}

/* rec_tmpdir_make - a private directory next to the output (same filesystem) */
static int rec_tmpdir_make(struct rec_session *s, const char *output)
{
	char copy[PATH_MAX];

	snprintf(copy, sizeof(copy), "%s", output);
	snprintf(s->tmpdir, sizeof(s->tmpdir), "%s/" REC_TMPDIR_PREFIX "XXXXXX", dirname(copy));
	if (!mkdtemp(s->tmpdir)) {
		int ret = -errno;

		s->tmpdir[0] = '\0';
		return ret;
	}
	return 0;
}

/* rec_session_end - release everything the session holds, on every path */
static void rec_session_end(struct rec_session *s)
{
	int cpu;

	rec_stream_stop(s);
	rec_cpu_files_close(s, true);
	rec_instance_teardown(s);
	if (s->tmpdir[0])
		rec_tmpdir_remove(s->tmpdir);
	for (cpu = 0; s->stats && cpu < s->ncpus; cpu++)
		free(s->stats[cpu]);
	free(s->stats);
	free(s->cpus);
	free(s->obs);
	rec_comm_free(&s->comms);
	if (s->tep)
		tep_free(s->tep);
	memset(s, 0, sizeof(*s));
}

/* rec_finish_stream - streaming: stop, collect stats and comms, write the file */
static int rec_finish_stream(struct rec_session *s)
{
	struct rec_count count;
	int ret, full;

	rec_tracing_on(s, false);
	s->cpu_s = rec_cpu_seconds() - s->cpu_s;
	s->wall_ns = pf_now_ns() - s->wall_ns;
	if ((ret = rec_read_stats(s)) < 0)
		pf_err("per-CPU stats: cannot read: %s (lost events unknown)", strerror(-ret));
	full = ret = rec_stream_stop(s);
	if (ret < 0 && ret != -ENOSPC && ret != -EDQUOT) {
		pf_err("streaming to '%s': %s", s->tmpdir, strerror(-ret));
		return ret == -EIO ? PF_EXIT_ENV : PF_EXIT_INTERNAL;
	}
	rec_comm_read_saved(&s->comms, s->tracing_dir);
	rec_comm_scan_proc(&s->comms);
	if ((ret = rec_scan_all(s, &count)) < 0) {
		pf_err("reading back the recorded pages: %s", strerror(-ret));
		return PF_EXIT_INTERNAL;
	}
	ret = full < 0 ? full : rec_dat_write(s, s->opts->output);
	if (ret == -ENOSPC || ret == -EDQUOT) {
		/* the disk is full: the trace up to where it filled, marked truncated */
		full = ret;
		ret = rec_disk_full_cut(s, full, &count);
	}
	if (ret < 0) {
		pf_err("'%s': cannot write: %s", s->opts->output, strerror(-ret));
		return ret == -ENOSPC || ret == -EDQUOT || ret == -EACCES || ret == -EROFS ?
		       PF_EXIT_ENV : PF_EXIT_INTERNAL;
	}
	rec_report(s, s->opts->output, &count);
	if (full < 0)
		return pf_fail(PF_EXIT_ENV, "'%s': %s (%s): %s", s->opts->output, strerror(-full),
			       full == -EDQUOT ? "EDQUOT" : "ENOSPC", s->incomplete);
	return PF_EXIT_OK;
}

/* rec_command_result - the exit code the command's end deserves, with its message */
static int rec_command_result(void)
{
	int st = rec_run.cmd.status;

	if (rec_run.cmd.exec_errno)
		return pf_fail(PF_EXIT_USAGE, "command: cannot run: %s", strerror(rec_run.cmd.exec_errno));
	if (!rec_run.cmd.reaped || rec_run.stop_signal || rec_run.stopped)
		return PF_EXIT_OK;
	if (WIFEXITED(st) && WEXITSTATUS(st))
		return pf_fail(PF_EXIT_FAILED, "command: exited with status %d (trace written)",
			       WEXITSTATUS(st));
	if (WIFSIGNALED(st))
		return pf_fail(PF_EXIT_FAILED, "command: killed by signal %d (trace written)",
			       WTERMSIG(st));
	return PF_EXIT_OK;
}

/* rec_record - one whole recording: set up, run, write, tear down; an exit code */
static int rec_record(const struct rec_opts *o)
{
	struct rec_session s = { .opts = o };
	struct sigaction ign = { .sa_handler = SIG_IGN }, old_pipe;
	sigset_t old;
	int ret, code = PF_EXIT_INTERNAL, snapshots = 0, top_on = -1;

	memset(&rec_run, 0, sizeof(rec_run));
	ret = rec_tracefs_ready(s.tracing_dir, sizeof(s.tracing_dir));
	if (ret < 0)
		return pf_fail(PF_EXIT_ENV, "tracefs: %s (needs root and tracefs at "
			       "/sys/kernel/tracing: mount -t tracefs nodev /sys/kernel/tracing)",
			       ret == -EACCES ? "no permission to create instances" :
			       "not mounted and cannot be mounted");
	s.ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (s.ncpus < 1 || s.ncpus > REC_MAX_CPUS)
		return pf_fail(PF_EXIT_ENV, "cpus: %d configured, 1..%d supported", s.ncpus,
			       REC_MAX_CPUS);
	if ((ret = rec_stale_cleanup(s.tracing_dir, o->quiet)) < 0)
		pf_err("stale instances: cannot check: %s", strerror(-ret));

	/*
	 * the stream threads inherit this mask; only the main loop takes these
	 * signals. 'preflight run' starts the recorder with them blocked already
	 * (PF_PROC_HOLD_STOP): one sent while it sets up (the SIGTERM of the
	 * runner's death) ends the recording once it runs, the trace written
	 */
	sigemptyset(&rec_run.sigs);
	sigaddset(&rec_run.sigs, SIGINT);
	sigaddset(&rec_run.sigs, SIGTERM);
	sigaddset(&rec_run.sigs, SIGHUP);
	sigaddset(&rec_run.sigs, SIGCHLD);
	sigaddset(&rec_run.sigs, SIGUSR1);
	sigprocmask(SIG_BLOCK, &rec_run.sigs, &old);
	/* a closed stderr pipe (record ... 2>&1 | head) must not kill the run before its teardown */
	sigaction(SIGPIPE, &ign, &old_pipe);

	if ((ret = rec_pin(&s)) < 0) {
		code = pf_fail(ret == -EINVAL ? PF_EXIT_USAGE : PF_EXIT_ENV, "--cpus '%s': cannot pin "
			       "the recorder: %s", o->cpus, ret == -EINVAL ? "no CPU of the list is "
			       "online here" : strerror(-ret));
		goto out;
	}
	if (o->set_nice) {	/* this thread's, which the stream threads inherit (Linux: nice is per thread) */
		errno = 0;
		s.orig_nice = getpriority(PRIO_PROCESS, 0);
		if ((s.orig_nice == -1 && errno) || setpriority(PRIO_PROCESS, 0, o->nice) < 0) {
			code = pf_fail(PF_EXIT_ENV, "--nice %d: cannot set the recorder's nice value: %s",
				       o->nice, strerror(errno));
			goto out;
		}
	}
	if ((ret = rec_tmpdir_make(&s, o->output)) < 0) {
		code = pf_fail(ret == -ENOENT || ret == -ENOTDIR ? PF_EXIT_USAGE : PF_EXIT_ENV,
			       "'%s': cannot create a temporary directory beside it: %s",
			       o->output, strerror(-ret));
		goto out;
	}
	if ((ret = rec_events_parse(o->events, &s.events)) < 0) {
		code = pf_fail(PF_EXIT_USAGE, "--events '%s': not a set or list of events", o->events);
		goto out;
	}
	if ((ret = rec_instance_setup(&s)) < 0) {
		code = ret == -ENOENT || ret == -EEXIST ? PF_EXIT_USAGE : PF_EXIT_ENV;
		goto out;
	}
	if ((ret = rec_cpu_files_open(&s, o->flight ? "snap" : "stream")) < 0) {
		code = pf_fail(PF_EXIT_ENV, "per-CPU files in '%s': %s", s.tmpdir, strerror(-ret));
		goto out;
	}
	if ((ret = rec_ready_go(o)) < 0) {
		code = pf_fail(PF_EXIT_ENV, "%s: nothing recorded", ret == -ECANCELED ?
			       strsignal(rec_run.stop_signal) : ret == -EPIPE ? "--ready-fd / --go-fd closed "
			       "before \"go\"" : ret == -EPROTO ? "--go-fd: a line other than \"go\"" :
			       strerror(-ret));
		goto out;
	}
	ret = o->flight ? rec_flight_arm(&s) : rec_stream_start(&s);
	if (!ret && !o->flight)
		ret = rec_tracing_on(&s, true);
	if (ret < 0) {
		code = pf_fail(PF_EXIT_ENV, "starting the recording: %s", strerror(-ret));
		goto out;
	}
	if ((ret = rec_session_note(&s)) < 0)
		pf_err("WARNING: %s/%s: %s (a killed recording could not be recovered)", s.tmpdir,
		       REC_SESSION_FILE, strerror(-ret));
	if (!o->flight) {
		s.cpu_s = rec_cpu_seconds();
		s.wall_ns = pf_now_ns();
	}
	if (rec_observer_scan(&s) < 0)
		pf_err("observer threads: out of memory (the list in the file is short)");
	top_on = tracefs_trace_is_on(NULL);
	if (o->duration_ns)
		rec_run.deadline_ns = pf_now_ns() + o->duration_ns;
	if (o->argv && (ret = rec_start_command(&s, o->argv)) < 0) {
		code = pf_fail(PF_EXIT_INTERNAL, "command: cannot start: %s", strerror(-ret));
		goto out;
	}
	if (!o->quiet)
		fprintf(stderr, "preflight: record: recording into instance '%s' (%s, %ld KiB "
			"per CPU, clock %s)%s\n", s.name, o->events, o->buffer_kb, s.clock,
			o->argv ? "" : "; stop with Ctrl-C");

	if (o->flight) {
		ret = rec_flight_run(&s, rec_wait, &snapshots);
		rec_stop_command();
		code = ret < 0 ? PF_EXIT_INTERNAL : PF_EXIT_OK;
		if (ret < 0)
			pf_err("flight recorder: snapshot %d: %s", snapshots + 1, strerror(-ret));
		if (!o->quiet)
			fprintf(stderr, "preflight: record: %d snapshot%s saved\n", snapshots,
				snapshots == 1 ? "" : "s");
	} else {
		while (rec_wait(&s) != REC_WAKE_STOP)
			;
		rec_stop_command();
		code = rec_finish_stream(&s);
	}
	if (rec_run.stop_signal && !o->quiet)
		fprintf(stderr, "preflight: record: stopped by %s\n", strsignal(rec_run.stop_signal));
	if (top_on == 1 && tracefs_trace_is_on(NULL) == 0 && !o->quiet)
		fprintf(stderr, "preflight: record: note: the top-level tracing_on was switched off "
			"during the run (cyclictest -b does that); this recording was not affected "
			"(echo 1 > %s/tracing_on turns it back on)\n", s.tracing_dir);
	if (code == PF_EXIT_OK)
		code = rec_command_result();
out:
	rec_stop_command();
	rec_session_end(&s);
	rec_discard_pending();
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return code;
}

/* rec_summary_child - the body of rec_summary_isolated */
static int rec_summary_child(void *path)
{
	return rec_summary_print(path, stdout);
}

/*
 * rec_summary_isolated - --summary in a child process (pf_isolate):
 * libtraceevent faults on some corrupt event-format text (so does trace-cmd
 * report), and a bad file must give a one-line error, not a crash
 */
static int rec_summary_isolated(const char *path)
{
	struct pf_isolated fault;
	char sig[64];
	int code;

	code = pf_isolate("record --summary", rec_summary_child, (void *)path, &fault);
	if (code >= 0)
		return code;
	if (code != -1)
		return pf_fail(PF_EXIT_INTERNAL, "--summary: waiting for the reader: %s", strerror(-code));
	pf_isolate_signame(fault.signal, sig, sizeof(sig));
	return pf_fail(PF_EXIT_USAGE, "'%s': not a readable trace-cmd file (corrupt: %s faulted reading it, %s)",
		       path, fault.step ? fault.step : "libtracecmd", sig);
}

/* rec_parse_time - a --duration / --window value */
static int rec_parse_time(const char *opt, const char *text, int64_t *ns)
{
	if (pf_parse_duration_ns(text, PF_NS_PER_SEC, ns) < 0 || *ns <= 0)
		return pf_usage_error(&cmd_record, "%s '%s': not a positive time", opt, text);
	return 0;
}

enum {
	REC_OPT_NO_KALLSYMS = 256,
	REC_OPT_NO_COPY,
	REC_OPT_PERCENT,
	REC_OPT_WINDOW,
	REC_OPT_MAX_SNAP,
	REC_OPT_TRIGGER,
	REC_OPT_SUMMARY,
	REC_OPT_WAKEUPS,
	REC_OPT_SWITCHES,
	REC_OPT_CPUS,
	REC_OPT_OBSERVER,
	REC_OPT_RECOVER,
	REC_OPT_STALE,
	REC_OPT_READY_FD,
	REC_OPT_GO_FD,
	REC_OPT_NICE,
};

/* rec_recover_cmd - --recover DIR (or every stale session when dir is NULL); an exit code */
static int rec_recover_cmd(const char *dir, bool quiet)
{
	char tracing_dir[256];
	int ret;

	tracefs_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	if (rec_tracefs_ready(tracing_dir, sizeof(tracing_dir)) < 0)
		snprintf(tracing_dir, sizeof(tracing_dir), "/sys/kernel/tracing");
	ret = rec_stale_cleanup(tracing_dir, quiet);
	if (ret < 0 && ret != -ENOENT)
		pf_err("stale instances: cannot check: %s", strerror(-ret));
	if (!dir)
		return PF_EXIT_OK;
	ret = rec_recover_dir(tracing_dir, dir, quiet);
	if (ret == -ENOENT || ret == -ENOTDIR)
		return pf_fail(PF_EXIT_USAGE, "--recover '%s': %s", dir, strerror(-ret));
	if (ret < 0)
		return pf_fail(ret == -ENOSPC || ret == -EDQUOT || ret == -EACCES ? PF_EXIT_ENV :
			       PF_EXIT_INTERNAL, "--recover '%s': %s", dir, strerror(-ret));
	if (!quiet && !ret)
		fprintf(stderr, "preflight: record: --recover '%s': nothing left by a killed "
			"recorder\n", dir);
	return PF_EXIT_OK;
}

static int rec_cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "instance", required_argument, NULL, 'i' },
		{ "duration", required_argument, NULL, 'd' },
		{ "buffer-percent", required_argument, NULL, REC_OPT_PERCENT },
		{ "no-kallsyms", no_argument, NULL, REC_OPT_NO_KALLSYMS },
		{ "compress", no_argument, NULL, 'z' },
		{ "no-copy-markers", no_argument, NULL, REC_OPT_NO_COPY },
		{ "wakeups", required_argument, NULL, REC_OPT_WAKEUPS },
		{ "switches", required_argument, NULL, REC_OPT_SWITCHES },
		{ "flight-recorder", no_argument, NULL, 'F' },
		{ "window", required_argument, NULL, REC_OPT_WINDOW },
		{ "max-snapshots", required_argument, NULL, REC_OPT_MAX_SNAP },
		{ "trigger", required_argument, NULL, REC_OPT_TRIGGER },
		{ "quiet", no_argument, NULL, 'q' },
		{ "summary", required_argument, NULL, REC_OPT_SUMMARY },
		{ "cpus", required_argument, NULL, REC_OPT_CPUS },
		{ "observer", required_argument, NULL, REC_OPT_OBSERVER },
		{ "recover", required_argument, NULL, REC_OPT_RECOVER },
		{ "cleanup-stale", no_argument, NULL, REC_OPT_STALE },
		{ "ready-fd", required_argument, NULL, REC_OPT_READY_FD },
		{ "go-fd", required_argument, NULL, REC_OPT_GO_FD },
		{ "nice", required_argument, NULL, REC_OPT_NICE },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct rec_opts o = {
		.events = "default",
		.buffer_kb = 16384,
		.kallsyms = true,
		.copy_markers = true,
		.buffer_percent = 25,
		.window_ns = 10 * PF_NS_PER_SEC,
		.max_snapshots = 10,
		.trigger = "hit latency threshold",
		.ready_fd = -1,
		.go_fd = -1,
	};
	struct rec_events check;
	const char *summary = NULL, *recover = NULL;
	bool stale = false;
	long pid, fd;
	struct stat st;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+o:e:b:i:d:Fqzh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case 'e':
			o.events = optarg;
			break;
		case 'b':
			if (pf_parse_long(optarg, 4, 64L * 1024 * 1024, &o.buffer_kb) < 0)
				return pf_usage_error(&cmd_record,
						      "--buffer-kb '%s': not a size in 4..67108864 KiB", optarg);
			break;
		case 'i':
			o.instance = optarg;
			break;
		case 'd':
			if ((ret = rec_parse_time("--duration", optarg, &o.duration_ns)))
				return ret;
			break;
		case REC_OPT_PERCENT:
			if (pf_parse_long(optarg, 0, 100, &o.buffer_percent) < 0)
				return pf_usage_error(&cmd_record,
						      "--buffer-percent '%s': not in 0..100", optarg);
			break;
		case REC_OPT_NO_KALLSYMS:
			o.kallsyms = false;
			break;
		case REC_OPT_NO_COPY:
			o.copy_markers = false;
			break;
		case 'F':
			o.flight = true;
			break;
		case 'z':
			o.compress = true;
			break;
		case REC_OPT_WAKEUPS:
			if (strcmp(optarg, "rt") && strcmp(optarg, "all"))
				return pf_usage_error(&cmd_record, "--wakeups '%s': rt or all", optarg);
			o.rt_wakeups = !strcmp(optarg, "rt");
			break;
		case REC_OPT_SWITCHES:
			if (strcmp(optarg, "rt") && strcmp(optarg, "all"))
				return pf_usage_error(&cmd_record, "--switches '%s': rt or all", optarg);
			o.rt_switches = !strcmp(optarg, "rt");
			break;
		case REC_OPT_WINDOW:
			if ((ret = rec_parse_time("--window", optarg, &o.window_ns)))
				return ret;
			break;
		case REC_OPT_MAX_SNAP:
			if (pf_parse_long(optarg, 1, 100000, &o.max_snapshots) < 0)
				return pf_usage_error(&cmd_record,
						      "--max-snapshots '%s': not in 1..100000", optarg);
			break;
		case REC_OPT_TRIGGER:
			if (strlen(optarg) > 200 || strpbrk(optarg, "\"\\*?[]\n"))
				return pf_usage_error(&cmd_record, "--trigger '%s': at most 200 "
						      "characters, none of \" \\ * ? [ ]", optarg);
			o.trigger = optarg;
			break;
		case 'q':
			o.quiet = true;
			break;
		case REC_OPT_SUMMARY:
			summary = optarg;
			break;
		case REC_OPT_CPUS:
			if (pf_cpus_parse(optarg, &o.cpu_set) < 0 || !CPU_COUNT(&o.cpu_set))
				return pf_usage_error(&cmd_record, "--cpus '%s': not a CPU list (1, 0-3,6)",
						      optarg);
			o.cpus = optarg;
			break;
		case REC_OPT_OBSERVER:
			if (pf_parse_long(optarg, 1, INT32_MAX, &pid) < 0 ||
			    o.nobserve >= (int)PF_ARRAY_SIZE(o.observe))
				return pf_usage_error(&cmd_record, "--observer '%s': not a pid (at most %d)",
						      optarg, (int)PF_ARRAY_SIZE(o.observe));
			o.observe[o.nobserve++] = (int)pid;
			break;
		case REC_OPT_RECOVER:
			recover = optarg;
			break;
		case REC_OPT_STALE:
			stale = true;
			break;
		case REC_OPT_NICE:
			if (pf_parse_long(optarg, -20, 19, &fd) < 0)
				return pf_usage_error(&cmd_record, "--nice '%s': not in -20..19", optarg);
			o.set_nice = true;
			o.nice = (int)fd;
			break;
		case REC_OPT_READY_FD:
		case REC_OPT_GO_FD:
			/* the command must not inherit them: it would hold the caller's pipe open */
			if (pf_parse_long(optarg, 0, INT32_MAX, &fd) < 0 || fcntl((int)fd, F_SETFD, FD_CLOEXEC) < 0)
				return pf_usage_error(&cmd_record, "--%s '%s': not an open file descriptor",
						      c == REC_OPT_GO_FD ? "go-fd" : "ready-fd", optarg);
			*(c == REC_OPT_GO_FD ? &o.go_fd : &o.ready_fd) = (int)fd;
			break;
		case 'h':
			pf_print_usage(&cmd_record);
			return PF_EXIT_OK;
		default:
			return pf_option_error(&cmd_record, argv, "+o:e:b:i:d:Fqzh");
		}
	}
	if (summary) {
		if (optind < argc || o.output)
			return pf_usage_error(&cmd_record, "--summary takes only a file");
		tracecmd_set_loglevel(TEP_LOG_NONE);
		return rec_summary_isolated(summary);
	}
	if (recover || stale) {
		if (optind < argc || o.output || (recover && stale))
			return pf_usage_error(&cmd_record, "--recover DIR and --cleanup-stale take nothing else");
		return rec_recover_cmd(recover, o.quiet);
	}
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return pf_usage_error(&cmd_record, "'%s': unexpected argument (a command "
				      "goes after --)", argv[optind]);
	if (!o.output)
		return pf_usage_error(&cmd_record, "-o FILE is required");
	/*
	 * found now, not after the whole recording; and the .dat is renamed into
	 * place at the end, which must never replace a device, FIFO or socket
	 * (-o /dev/null would put a regular file where /dev/null was)
	 */
	if (!stat(o.output, &st) && S_ISDIR(st.st_mode))
		return pf_usage_error(&cmd_record, "-o '%s': is a directory (name a file)", o.output);
	if (!stat(o.output, &st) && !S_ISREG(st.st_mode))
		return pf_usage_error(&cmd_record, "-o '%s': not a regular file (the .dat is written "
				      "beside it and renamed into place)", o.output);
	if (rec_events_parse(o.events, &check) < 0)
		return pf_usage_error(&cmd_record, "--events '%s': not a set or a list of "
				      "system:event names", o.events);
	if (optind < argc)
		o.argv = argv + optind;
	if (!o.instance && getenv("PREFLIGHT_TRACE_INSTANCE") && *getenv("PREFLIGHT_TRACE_INSTANCE"))
		o.instance = getenv("PREFLIGHT_TRACE_INSTANCE");
	if (o.instance && (!*o.instance || strlen(o.instance) >= 64 || o.instance[0] == '.' ||
			   strpbrk(o.instance, "/ \t\n")))
		return pf_usage_error(&cmd_record, "--instance '%s': not a valid instance name",
				      o.instance);
	tracefs_set_loglevel(TEP_LOG_NONE);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	return rec_record(&o);
}
