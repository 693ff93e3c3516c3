/*
 * peak_anon.c - run a command and report its peak anonymous memory: the
 * largest RssAnon of /proc/PID/status seen while it runs, sampled every
 * millisecond (peak RSS from getrusage also counts the trace file's mapped
 * pages, which are not the analysis' own memory). A sample is the sum over
 * the command and its descendants ('preflight analyze' makes its pass in a
 * child process, pf_isolate): an upper bound, since a child's RssAnon also
 * counts the pages it still shares with its parent. Used by the perf scripts.
 *
 * usage: peak_anon OUT_FILE COMMAND [ARGS...]
 *   runs COMMAND with its output untouched; writes "peak_anon_kib N" to
 *   OUT_FILE; exits with the command's exit status (128 + signal if killed)
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* peak_rss_anon_kib - RssAnon of pid in KiB, or -1 when it cannot be read */
static long peak_rss_anon_kib(pid_t pid)
{
	char path[64], line[256];
	long kib = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "RssAnon: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* tree_anon_kib - RssAnon of pid and of its descendants (their children files), in KiB */
static long tree_anon_kib(pid_t pid, int depth)
{
	char path[96];
	long kib = peak_rss_anon_kib(pid), sub;
	int child;
	FILE *f;

	if (kib < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	f = depth < 8 ? fopen(path, "re") : NULL;
	if (!f)
		return kib;
	while (fscanf(f, "%d", &child) == 1)
		if ((sub = tree_anon_kib(child, depth + 1)) > 0)
			kib += sub;
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	struct timespec tick = { 0, 1000000 };
	long peak = 0, kib;
	int status = 0;
	FILE *out;
	pid_t pid;

	pf_set_prog("peak_anon");
	if (argc < 3)
		return pf_fail(PF_EXIT_USAGE, "usage: peak_anon OUT_FILE COMMAND [ARGS...]");
	pid = fork();
	if (pid < 0)
		return pf_fail(PF_EXIT_INTERNAL, "fork: %s", strerror(errno));
	if (pid == 0) {
		execvp(argv[2], argv + 2);
		fprintf(stderr, "peak_anon: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR)
			return pf_fail(PF_EXIT_INTERNAL, "waitpid: %s", strerror(errno));
		kib = tree_anon_kib(pid, 0);
		if (kib > peak)
			peak = kib;
		nanosleep(&tick, NULL);
	}
	out = fopen(argv[1], "we");
	if (!out)
		return pf_fail(PF_EXIT_ENV, "%s: %s", argv[1], strerror(errno));
	fprintf(out, "peak_anon_kib %ld\n", peak);
	fclose(out);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
