/*
 * cmd_load.c - `preflight load NAME [options] [key=value ...]`: run one load
 * standalone until its duration ends or SIGINT / SIGTERM arrives, then stop
 * it, clean up and print (or write) its JSON report of what it achieved.
 *
 * `preflight run` starts every load of a phase through this command in a
 * child process of its own process group, with --ready-fd: the load writes
 * "ready\n" there once started, or "error <why>\n" when it could not start.
 */
#include "command.h"
#include "common.h"
#include "datafile.h"
#include "outfile.h"
#include "load.h"
#include "proc.h"

#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static volatile sig_atomic_t load_stop_signal;

/* load_on_signal - remember that the load must stop */
static void load_on_signal(int sig)
{
	load_stop_signal = sig;
}

/* load_tell - write one status line to the ready fd, if any */
static void load_tell(int fd, const char *status, const char *why)
{
	char line[600];
	int n;

	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%s%s%s\n", status, why ? " " : "", why ? why : "");
	if (write(fd, line, n > (int)sizeof(line) - 1 ? (int)sizeof(line) - 1 : n) < 0)
		return;
	close(fd);
}

/* load_samples - the samples file: what the load achieved per second, over time */
struct load_samples {
	FILE   *f;
	int64_t prev_ns;	/* the previous sample, 0 before the first */
	double  prev_count;
};

#define LOAD_SAMPLE_NS PF_NS_PER_SEC	/* one row per second */

/* load_samples_open - create the samples file with its header; 0 or -errno (no file: 0) */
static int load_samples_open(struct load_samples *ls, const struct load *l, const char *path)
{
	memset(ls, 0, sizeof(*ls));
	if (!path || !l->ops->sample)
		return 0;
	ls->f = fopen(path, "w");
	if (!ls->f)
		return -errno;
	fprintf(ls->f, "# preflight-load-samples/1\n# load=%s unit=%s\nt_ns,achieved,target\n",
		l->ops->name, l->ops->sample_unit);
	fflush(ls->f);
	return 0;
}

/* load_samples_take - one row when a second has passed (or 'force'): the rate since the previous sample */
static void load_samples_take(struct load_samples *ls, struct load *l, bool force)
{
	int64_t now = pf_now_ns();
	double count, target;

	if (!ls->f || (ls->prev_ns && !force && now - ls->prev_ns < LOAD_SAMPLE_NS))
		return;
	if (l->ops->sample(l, &count, &target) < 0)
		return;
	if (ls->prev_ns && now > ls->prev_ns) {
		fprintf(ls->f, "%lld,%.6g,", (long long)now,
			(count - ls->prev_count) * PF_NS_PER_SEC / (double)(now - ls->prev_ns));
		if (!isnan(target))
			fprintf(ls->f, "%.6g", target);
		fputc('\n', ls->f);
		fflush(ls->f);	/* an interrupted run keeps what was sampled */
	}
	ls->prev_ns = now;
	ls->prev_count = count;
}

static int cmd_load_run(int argc, char **argv);

/*
 * load_cleanup_recorders - the stale state of the other background piece of
 * a run, the recorder: 'preflight record --cleanup-stale'; an exit code
 */
static int load_cleanup_recorders(void)
{
	char self[4096];
	char *argv[] = { self, "record", "--cleanup-stale", NULL };
	struct pf_proc p;
	int ret;

	if (pf_self_exe(self, sizeof(self)) < 0 || pf_proc_spawn(&p, argv, "-", "-", 0) < 0)
		return PF_EXIT_OK;
	ret = pf_proc_wait(&p);
	if (ret != 0 && ret != PF_EXIT_USAGE)	/* 2: no recorder in this build */
		return pf_fail(PF_EXIT_ENV, "stale recorders: 'preflight record --cleanup-stale' exit %d", ret);
	return PF_EXIT_OK;
}

const struct pf_command cmd_load = {
	.name = "load",
	.summary = "run one synthetic load (wifi, sd, spi, cpu, rt-swarm) and report what it achieved",
	.usage =
	"usage: preflight load NAME [options] [key=value ...]\n"
	"       preflight load --list | --cleanup-stale\n"
	"\n"
	"Runs one load of the test bench until the duration ends or SIGINT / SIGTERM,\n"
	"then stops it, removes everything it created and prints its JSON report.\n"
	"\n"
	"options:\n"
	"  -d, --duration TIME   run time (10s, 2min, ...; default 0 = until a signal)\n"
	"  -o, --output FILE     write the JSON report to FILE (default: stdout)\n"
	"  -w, --work-dir DIR    directory for helper output files (default /tmp)\n"
	"      --ready-fd FD     write \"ready\" or \"error <why>\" to FD once started (default none)\n"
	"      --samples FILE    write what the load achieved each second, and its target, as CSV\n"
	"                        (docs/loads.md; default: none)\n"
	"      --list            list the loads and their parameters (default: off)\n"
	"      --cleanup-stale   remove namespaces, links, mounts and loop devices\n"
	"                        of dead loads, and what dead recorders left\n"
	"                        ('preflight record --cleanup-stale': their traces\n"
	"                        recovered, their instances removed) (default: off)\n"
	"  -h, --help            this text\n"
	"\n"
	"Each load's parameters and defaults: 'preflight load --list'. See docs/loads.md.\n"
	"exit: 0 ran and reported, 2 bad parameter, 3 the load could not start or died\n",
	.run = cmd_load_run,
};

/* load_list - every load with its parameters */
static void load_list(void)
{
	char names[128], *save = NULL, *name;

	snprintf(names, sizeof(names), "%s", load_names());
	for (name = strtok_r(names, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
		const struct load_ops *ops = load_find(name);

		printf("%s - %s\n%s\n", ops->name, ops->summary, ops->params_help);
	}
	printf("every load:\n  helper_cpus=LIST     the load's process and non-realtime helpers on these CPUs\n"
	       "                       (docs/loads.md); preflight run passes the housekeeping CPUs\n"
	       "                       (default: not placed)\n");
}

/* load_drive - start, poll until the end or a signal, stop; 0 or an exit code */
static int load_drive(struct load *l, int ready_fd, const char *samples)
{
	struct load_samples ls;
	int ret;

	l->start_ns = pf_now_ns();
	ret = load_place_helpers(l);
	if (!ret)
		ret = l->ops->start(l);
	if (ret < 0) {
		l->ops->cleanup(l);
		load_tell(ready_fd, "error", l->why);
		return pf_fail(PF_EXIT_ENV, "%s: cannot start: %s", l->ops->name, l->why);
	}
	load_tell(ready_fd, "ready", NULL);
	if (load_samples_open(&ls, l, samples) < 0)
		pf_err("%s: --samples: '%s': %s (no samples written)", l->ops->name, samples, strerror(errno));
	/* the count at ready: the row at the stop has it to count from even when a slow start (an
	 * emulated CPU) used the whole duration and the loop below never ran */
	load_samples_take(&ls, l, false);
	while (!load_stop_signal) {
		if (l->duration_ns && pf_now_ns() - l->start_ns >= l->duration_ns)
			break;
		ret = l->ops->poll(l);
		if (ret < 0 && load_stop_signal)
			ret = 0;	/* Ctrl-C on a terminal reaches the helpers too: their end is the stop */
		if (ret < 0)
			break;
		load_samples_take(&ls, l, false);
		pf_proc_sleep_ns(100 * PF_NS_PER_MS);
	}
	load_samples_take(&ls, l, true);
	if (ls.f && fclose(ls.f))
		pf_err("%s: --samples: '%s': %s", l->ops->name, samples, strerror(errno));
	l->interrupted = load_stop_signal && l->duration_ns &&
			 pf_now_ns() - l->start_ns < l->duration_ns;
	l->ops->stop(l);
	l->stop_ns = pf_now_ns();
	l->ops->cleanup(l);
	if (ret < 0) {
		pf_err("%s: stopped early: %s", l->ops->name, l->why);
		return PF_EXIT_ENV;
	}
	return PF_EXIT_OK;
}

static int cmd_load_run(int argc, char **argv)
{
	enum { OPT_READY = 256, OPT_LIST, OPT_STALE, OPT_SAMPLES };
	static const struct option opts[] = {
		{ "duration", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "work-dir", required_argument, NULL, 'w' },
		{ "ready-fd", required_argument, NULL, OPT_READY },
		{ "samples", required_argument, NULL, OPT_SAMPLES },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "cleanup-stale", no_argument, NULL, OPT_STALE },
		{ NULL, 0, NULL, 0 },
	};
	const struct load_ops *ops;
	const char *output = NULL, *work_dir = "/tmp", *samples = NULL;
	struct sigaction sa = { .sa_handler = load_on_signal };
	int64_t duration_ns = 0;
	struct load l;
	json_t *report;
	long ready_fd = -1;
	char comm[16];
	int c, i, ret;

	while ((c = getopt_long(argc, argv, "d:o:w:", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_SEC, &duration_ns))
				return pf_usage_error(&cmd_load, "--duration: '%s': not a duration", optarg);
			break;
		case 'o':
			output = optarg;
			break;
		case 'w':
			work_dir = optarg;
			break;
		case OPT_READY:
			if (pf_parse_long(optarg, 0, 1 << 20, &ready_fd))
				return pf_usage_error(&cmd_load, "--ready-fd: '%s': not a file descriptor", optarg);
			break;
		case OPT_SAMPLES:
			samples = optarg;
			break;
		case OPT_LIST:
			load_list();
			return PF_EXIT_OK;
		case OPT_STALE:
			load_cleanup_stale();
			return load_cleanup_recorders();
		default:
			return pf_option_error(&cmd_load, argv, "d:o:w:");
		}
	}
	if (optind >= argc)
		return pf_usage_error(&cmd_load, "which load? (%s)", load_names());
	ops = load_find(argv[optind]);
	if (!ops)
		return pf_usage_error(&cmd_load, "'%s': no such load (%s)", argv[optind], load_names());
	if (load_init(&l, ops, work_dir) < 0)
		return pf_fail(PF_EXIT_INTERNAL, "%s: out of memory", ops->name);
	l.duration_ns = duration_ns;
	for (i = optind + 1; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');
		char key[64];

		if (!eq || eq == argv[i] || (size_t)(eq - argv[i]) >= sizeof(key)) {
			ret = pf_usage_error(&cmd_load, "'%s': expected key=value", argv[i]);
			goto out;
		}
		snprintf(key, sizeof(key), "%.*s", (int)(eq - argv[i]), argv[i]);	/* argv stays whole for ps */
		ret = load_set(&l, key, eq + 1);
		if (ret == -ENOENT) {
			ret = pf_usage_error(&cmd_load, "%s: '%s': unknown parameter", ops->name, key);
			goto out;
		} else if (ret < 0) {
			ret = pf_usage_error(&cmd_load, "%s: %s: '%s': bad value", ops->name, key, eq + 1);
			goto out;
		}
	}

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (ready_fd >= 0)
		prctl(PR_SET_PDEATHSIG, SIGTERM);	/* started by a runner: never outlive it */

	snprintf(comm, sizeof(comm), "pf-%s", ops->name);
	prctl(PR_SET_NAME, comm);	/* so that traces and culprit lists name the load */
	ret = load_drive(&l, (int)ready_fd, samples);
	if (l.start_ns && l.stop_ns) {
		report = load_report(&l);
		if (ret != PF_EXIT_OK)
			json_object_set_new(report, "error", json_string(l.why));
		if (!report)
			ret = pf_fail(PF_EXIT_INTERNAL, "%s: out of memory", ops->name);
		else if ((c = pf_outfile_json(output ? output : "-", report,
						 JSON_INDENT(2) | JSON_REAL_PRECISION(10))))
			ret = c;
		json_decref(report);
	}
out:
	load_free(&l);
	return ret;
}
