/*
 * lib_test.c - unit tests of lib/: duration and number parsing, the growing
 * array, the INI line reader, the data-file resolver, the process spawner and
 * CPU lists, the job-log reader (the histogram has its own, t/unit/hist_test.c).
 */
#define _GNU_SOURCE
#include "common.h"
#include "cpuset.h"
#include "datafile.h"
#include "gnuplot.h"
#include "ini.h"
#include "joblog_read.h"
#include "kconfig.h"
#include "outfile.h"
#include "proc.h"
#include "results_keys.h"
#include "tap.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char lib_tmp[] = "/tmp/preflight-lib-test.XXXXXX";

/* test_parse - lib-1.x: durations with and without units, rejects */
static void test_parse(void)
{
	int64_t ns = -1;
	long v = -1;
	long long ll = 0;

	check_int(pf_parse_duration_ns("62us", PF_NS_PER_SEC, &ns), ==, 0, "lib-1.1 62us parses");
	check_int(ns, ==, 62000, "lib-1.2 62us is 62000 ns");
	check_int(pf_parse_duration_ns("1.5", PF_NS_PER_SEC, &ns), ==, 0, "lib-1.3 bare number parses");
	check_int(ns, ==, 1500000000LL, "lib-1.4 bare number takes the default unit");
	check_int(pf_parse_duration_ns("10ms", 1, &ns), ==, 0, "lib-1.5 10ms parses");
	check_int(ns, ==, 10000000, "lib-1.6 10ms is 1e7 ns");
	check_int(pf_parse_duration_ns("10 ms", 1, &ns), ==, -EINVAL, "lib-1.7 space before unit rejected");
	check_int(pf_parse_duration_ns("5parsecs", 1, &ns), ==, -EINVAL, "lib-1.8 unknown unit rejected");
	check_int(pf_parse_duration_ns("-1s", 1, &ns), ==, -EINVAL, "lib-1.9 negative rejected");
	check_int(pf_parse_duration_ns("", 1, &ns), ==, -EINVAL, "lib-1.10 empty rejected");
	check_int(pf_parse_long("99", 1, 99, &v), ==, 0, "lib-1.11 in-range number parses");
	check_int(v, ==, 99, "lib-1.12 value kept");
	check_int(pf_parse_long("100", 1, 99, &v), ==, -ERANGE, "lib-1.13 out of range rejected");
	check_int(pf_parse_long("9x", 1, 99, &v), ==, -EINVAL, "lib-1.14 trailing junk rejected");
	check(!pf_parse_ll("-5000000000", LLONG_MIN, LLONG_MAX, &ll) && ll == -5000000000LL,
	      "lib-1.15 pf_parse_ll: past 32 bits on every target");
	check_int(pf_parse_ll("9223372036854775808", LLONG_MIN, LLONG_MAX, &ll), ==, -ERANGE, "lib-1.16 past 64 bits rejected");
}

/* test_grow - lib-4.x: a growing array keeps its elements and doubles from 'first' */
static void test_grow(void)
{
	struct { int64_t a, b; } *v = NULL;
	size_t cap = 0, n, bad = 0;

	for (n = 0; n < 1000; n++) {
		if (pf_grow(&v, &cap, n, sizeof(*v), 8))
			break;
		v[n].a = (int64_t)n;
		v[n].b = -(int64_t)n;
	}
	check_int(n, ==, 1000, "lib-4.1 1000 elements appended");
	check_int(cap, ==, 1024, "lib-4.2 capacity doubled from 8 to 1024");
	for (n = 0; n < 1000; n++)
		bad += v[n].a != (int64_t)n || v[n].b != -(int64_t)n;
	check_int(bad, ==, 0, "lib-4.3 every element kept across reallocations");
	check_int(pf_grow(&v, &cap, 10, sizeof(*v), 8), ==, 0, "lib-4.4 room already there");
	check_int(cap, ==, 1024, "lib-4.5 ... leaves the capacity alone");
	free(v);
}

/* lib_write - a file in the test's directory with 'text'; its path (static) */
static const char *lib_write(const char *name, const char *text)
{
	static char path[4][512];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, sizeof(path[0]), "%s/%s", lib_tmp, name);
	f = fopen(p, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	return p;
}

/* what the INI handler saw */
struct ini_seen {
	struct pf_ini ini;
	int keys, key_line, lines_seen;
	char last[64];
};

static const char *lib_fail_key;	/* the handler refuses this key */

/* lib_ini_key - count keys; refuse fail_key with an error at its line */
static int lib_ini_key(void *user, const char *section, const char *key, const char *value)
{
	struct ini_seen *s = user;

	s->keys++;
	s->key_line = s->ini.line;
	snprintf(s->last, sizeof(s->last), "%s.%s=%s", section, key, value);
	if (lib_fail_key && !strcmp(key, lib_fail_key))
		return pf_ini_error(&s->ini, s->ini.line, "bad key '%s'", key);
	return 1;
}

static void lib_ini_line(void *user, char *line)
{
	((struct ini_seen *)user)->lines_seen++;
}

/* lib_ini_run - parse 'text' (from a file when 'file', else from the string) with lines of max_line - 1 */
static int lib_ini_run(struct ini_seen *s, const char *text, bool file, int max_line, char *err, size_t size)
{
	memset(s, 0, sizeof(*s));
	s->ini = (struct pf_ini){ .file = file ? lib_write("t.ini", text) : "t.ini", .err = err,
				  .err_size = size, .max_line = max_line, .on_line = lib_ini_line };
	if (!file)
		s->ini.text = text;
	err[0] = '\0';
	return pf_ini_parse(&s->ini, lib_ini_key, s);
}

/* test_ini - lib-5.x: the one INI line reader, from a file and from a string */
static void test_ini(void)
{
	char err[512], want[600], line15[] = "k = 0123456789\n";	/* 15 characters before the newline */
	char text[700];
	struct ini_seen s;
	int f;

	for (f = 0; f < 2; f++) {
		const char *src = f ? "file" : "string";

		check_int(lib_ini_run(&s, "[a]\nk = v\n\n[b]\nx = y\n", f, 0, err, sizeof(err)), ==, 0,
			  "lib-5.%d.1 %s: a good file parses", f, src);
		check(s.keys == 2 && s.key_line == 5 && s.lines_seen == 5 && !strcmp(s.last, "b.x=y"),
		      "lib-5.%d.2 %s: every key seen at its own line, every line counted (keys %d, line %d, lines %d)",
		      f, src, s.keys, s.key_line, s.lines_seen);
		snprintf(text, sizeof(text), "[a]\n%s", line15);
		text[strlen(text) - 1] = '\0';	/* the last line without its newline */
		check_int(lib_ini_run(&s, text, f, 16, err, sizeof(err)), ==, 0,
			  "lib-5.%d.3 %s: a line of the longest length fits (%s)", f, src, err);
		snprintf(text, sizeof(text), "[a]\n%sz = 1\n", line15);
		check(!lib_ini_run(&s, text, f, 16, err, sizeof(err)) && s.keys == 2,
		      "lib-5.%d.4 %s: ... also with its newline, and the next line is its own (%s)", f, src, err);
		snprintf(text, sizeof(text), "[a]\nk = 012345678901\nz = 1\n");
		check_int(lib_ini_run(&s, text, f, 16, err, sizeof(err)), ==, -EINVAL,
			  "lib-5.%d.5 %s: a line one longer is an error", f, src);
		snprintf(want, sizeof(want), "%s:2: line too long (at most 15 characters)", s.ini.file);
		check_str(err, want, "lib-5.%d.6 %s: ... at its own line, nothing of it parsed", f, src);
		check_int(s.keys, ==, 0, "lib-5.%d.7 %s: ... and no key of it or after it reaches the handler", f, src);
	}
	snprintf(want, sizeof(want), "%s/t.ini", lib_tmp);
	lib_fail_key = "bad";
	check_int(lib_ini_run(&s, "[a]\nk = 1\nbad = 2\nbad = 3\n", true, 0, err, sizeof(err)), ==, -EINVAL,
		  "lib-5.8 a handler's error fails the parse");
	snprintf(text, sizeof(text), "%s:3: bad key 'bad'", want);
	check_str(err, text, "lib-5.9 ... the first error wins, with the file and the line");
	lib_fail_key = NULL;
	memset(&s, 0, sizeof(s));
	s.ini = (struct pf_ini){ .file = "t.ini", .text = "[a]\nnot a pair\n", .err = err, .err_size = sizeof(err),
				 .syntax = "expected key = value" };
	check_int(pf_ini_parse(&s.ini, lib_ini_key, &s), ==, -EINVAL, "lib-5.10 a line inih cannot parse fails");
	check_str(err, "t.ini:2: expected key = value", "lib-5.11 ... with the reader's syntax message at its line");
	memset(&s, 0, sizeof(s));
	s.ini = (struct pf_ini){ .file = lib_tmp, .err = err, .err_size = sizeof(err) };
	check_int(pf_ini_parse(&s.ini, lib_ini_key, &s), ==, -EISDIR, "lib-5.12 a directory is not read as an empty file");
	s.ini.file = "/nonexistent/t.ini";
	check_int(pf_ini_parse(&s.ini, lib_ini_key, &s), ==, -ENOENT, "lib-5.13 a missing file: -ENOENT");
	check_str(err, "/nonexistent/t.ini: No such file or directory", "lib-5.14 ... said as 'file: why'");
}

/* test_datafile - lib-6.x: $PREFLIGHT_DATA first, then the build tree, then the installed directory */
static void test_datafile(void)
{
	char path[8192], want[600], exe[4096], dir[4096];
	const char *a, *b, *c;

	check(!pf_self_exe(exe, sizeof(exe)) && strstr(exe, "/lib_test") && exe[0] == '/',
	      "lib-6.1 pf_self_exe is this program's absolute path (%s)", exe);
	check(!pf_self_dir(dir, sizeof(dir)) && !strncmp(exe, dir, strlen(dir)) && exe[strlen(dir)] == '/',
	      "lib-6.2 pf_self_dir is its directory (%s)", dir);
	check_int(pf_self_exe(exe, 4), ==, -ENAMETOOLONG, "lib-6.3 a buffer too small is an error, never a torn path");

	mkdir(strcat(strcpy(dir, lib_tmp), "/budgets"), 0755);
	lib_write("budgets/x.ini", "[R]\n");
	setenv("PREFLIGHT_DATA", lib_tmp, 1);
	snprintf(want, sizeof(want), "%s/budgets/x.ini", lib_tmp);
	check_int(pf_datafile("budgets/x.ini", path, sizeof(path)), ==, 0, "lib-6.4 found in $PREFLIGHT_DATA");
	check_str(path, want, "lib-6.5 ... at its path there");
	check_int(pf_datafile("profiles/none.ini", path, sizeof(path)), ==, -ENOENT, "lib-6.6 a file nowhere: -ENOENT");
	a = strstr(path, "/profiles/none.ini ($PREFLIGHT_DATA)");
	b = strstr(path, "/app/profiles/none.ini (build tree)");
	c = strstr(path, "/profiles/none.ini (installed)");
	check(!strncmp(path, "searched ", 9) && a && b && c && a < b && b < c && !strchr(path, '\n'),
	      "lib-6.7 ... one line naming $PREFLIGHT_DATA, the build tree (app/profiles), the installed directory, in order: %s",
	      path);
	check_int(pf_datafile("scenarios/none.ini", path, sizeof(path)), ==, -ENOENT, "lib-6.8 a scenario nowhere");
	check(strstr(path, "/bench/scenarios/none.ini (build tree)") != NULL,
	      "lib-6.9 ... is looked for in bench/scenarios of the source tree: %s", path);
	unsetenv("PREFLIGHT_DATA");
	check_int(pf_datafile("budgets/none.ini", path, sizeof(path)), ==, -ENOENT, "lib-6.10 without $PREFLIGHT_DATA");
	check(strstr(path, "$PREFLIGHT_DATA") == NULL && strstr(path, "/budgets/none.ini (build tree)"),
	      "lib-6.11 ... it is not searched, the build tree's budgets/ is: %s", path);
}

/* test_proc - lib-7.x: the spawner reports exec failures, redirects, passes the environment, holds signals */
static void test_proc(void)
{
	char *missing[] = { "/nonexistent/program", NULL };
	char *nopath[] = { "preflight-no-such-program", NULL };
	char *noexec[] = { (char *)lib_write("plain.txt", "not a program\n"), NULL };
	char *both[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };
	char *env_argv[] = { "sh", "-c", "echo \"$PF_LIB_TEST\"", NULL };
	char *env[] = { "PF_LIB_TEST=seen", "PATH=/usr/bin:/bin", NULL };
	char *sleeper[] = { "sleep", "30", NULL };
	char out[512], buf[4096];
	struct pf_proc p;
	pid_t pid;

	check_int(pf_proc_spawn(&p, missing, NULL, NULL, 0), ==, -ENOENT, "lib-7.1 a program that does not exist: -ENOENT");
	check(p.exec_errno == ENOENT && p.reaped && !p.pid, "lib-7.2 ... the exec's errno kept, the child reaped");
	check_int(pf_proc_spawn(&p, nopath, NULL, NULL, 0), ==, -ENOENT, "lib-7.3 a name not in PATH: -ENOENT");
	check_int(pf_proc_spawn(&p, noexec, NULL, NULL, 0), ==, -EACCES, "lib-7.4 a file that is not executable: -EACCES");

	snprintf(out, sizeof(out), "%s/both.log", lib_tmp);
	check_int(pf_proc_spawn(&p, both, out, out, 0), ==, 0, "lib-7.5 a program runs");
	while (waitpid(p.pid, &p.status, 0) < 0 && errno == EINTR)
		;
	p.reaped = true;
	check_int(pf_proc_exit_code(&p), ==, 3, "lib-7.6 ... its exit code");
	check(pf_read_file(out, buf, sizeof(buf)) > 0 && !strcmp(buf, "out\nerr"),
	      "lib-7.7 ... stdout and stderr into one file when they are the same path");

	snprintf(out, sizeof(out), "%s/env.log", lib_tmp);
	check_int(pf_proc_start(&p, &(struct pf_proc_spec){ .argv = env_argv, .envp = env, .out_path = out }), ==, 0,
		  "lib-7.8 a program with its own environment");
	while (waitpid(p.pid, &p.status, 0) < 0 && errno == EINTR)
		;
	check(pf_read_file(out, buf, sizeof(buf)) > 0 && !strcmp(buf, "seen"), "lib-7.9 ... sees it");

	check_int(pf_proc_spawn(&p, sleeper, NULL, NULL, PF_PROC_PGRP), ==, 0, "lib-7.10 a child in its own process group");
	check_int(getpgid(p.pid), ==, p.pid, "lib-7.11 ... leads it");
	pf_proc_stop(&p, SIGTERM, 5 * PF_NS_PER_SEC, true);
	check_int(pf_proc_exit_code(&p), ==, 128 + SIGTERM, "lib-7.12 ... is stopped by the signal and reaped");

	pid = pf_proc_fork(&p, "worker", 0, 0);
	if (pid == 0)
		_exit(7);
	check(pid > 0 && p.pid == pid && !strcmp(p.name, "worker"), "lib-7.13 pf_proc_fork: our own code in a child");
	while (pid > 0 && waitpid(pid, &p.status, 0) < 0 && errno == EINTR)
		;
	p.reaped = true;
	check_int(pf_proc_exit_code(&p), ==, 7, "lib-7.14 ... its exit code");

	/* SigBlk / ShdPnd: SIGHUP, SIGINT, SIGTERM are bits 0, 1, 14 */
	check_int(pf_proc_spawn(&p, sleeper, NULL, NULL, PF_PROC_TERM_ON_DEATH | PF_PROC_HOLD_STOP), ==, 0,
		  "lib-7.15 a child that holds the stop signals");
	snprintf(out, sizeof(out), "/proc/%d/status", (int)p.pid);
	check(pf_read_file(out, buf, sizeof(buf) - 1) > 0 && strstr(buf, "\nSigBlk:\t0000000000004003\n"),
	      "lib-7.16 ... runs its program with SIGINT, SIGTERM and SIGHUP blocked");
	kill(p.pid, SIGTERM);
	check(pf_read_file(out, buf, sizeof(buf) - 1) > 0 && strstr(buf, "\nShdPnd:\t0000000000004000\n") &&
	      pf_proc_alive(&p), "lib-7.17 ... a SIGTERM waits for it, pending");
	pf_proc_stop(&p, SIGKILL, 5 * PF_NS_PER_SEC, false);
}

/* test_cpus - lib-8.x: CPU lists parsed and formatted, housekeeping CPUs of a sysfs tree */
static void test_cpus(void)
{
	char buf[256], path[300];
	cpu_set_t set, used, hk;

	check_int(pf_cpus_parse("0-3, 6,8-9", &set), ==, 0, "lib-8.1 a CPU list parses");
	check_str(pf_cpus_format(&set, buf, sizeof(buf)), "0-3,6,8-9", "lib-8.2 and formats back as the kernel writes it");
	check_int(pf_cpus_parse("", &set), ==, 0, "lib-8.3 the empty list parses (sysfs nohz_full when off)");
	check_int(CPU_COUNT(&set), ==, 0, "lib-8.4 ... to the empty set");
	check_str(pf_cpus_format(&set, buf, sizeof(buf)), "", "lib-8.5 ... formatted as an empty string");
	check_int(pf_cpus_parse("3-1", &set), ==, -EINVAL, "lib-8.6 a backwards range is refused");
	check_int(pf_cpus_parse("1,,2", &set), ==, -EINVAL, "lib-8.7 an empty item is refused");
	check_int(pf_cpus_parse("99999", &set), ==, -EINVAL, "lib-8.8 a CPU beyond CPU_SETSIZE is refused");
	/* a machine of 8 CPUs, 6-7 isolated, 5 nohz_full; the app on 1-2 */
	snprintf(path, sizeof(path), "mkdir -p %s/cpus/sys/devices/system/cpu && cd %s/cpus/sys/devices/system/cpu && "
		 "echo 0-7 > online && echo 6-7 > isolated && echo 5 > nohz_full", lib_tmp, lib_tmp);
	check_int(system(path), ==, 0, "lib-8.9 the sysfs tree is made");
	snprintf(path, sizeof(path), "%s/cpus", lib_tmp);
	check_int(pf_cpus_parse("1-2", &used), ==, 0, "lib-8.10 the app's CPUs");
	pf_cpus_housekeeping(path, &used, &hk);
	check_str(pf_cpus_format(&hk, buf, sizeof(buf)), "0,3-4",
		  "lib-8.11 housekeeping: online, not the app's, not isolated, not nohz_full");
	check_int(pf_cpus_parse("0-7", &used), ==, 0, "lib-8.12 an app on every CPU");
	pf_cpus_housekeeping(path, &used, &hk);
	check_int(CPU_COUNT(&hk), ==, 0, "lib-8.13 leaves no housekeeping CPU");
	check_int(pf_cpus_of_task(getpid(), getpid(), &set), ==, 0, "lib-8.14 this thread's Cpus_allowed_list reads");
	check_int(CPU_COUNT(&set), >, 0, "lib-8.15 ... and names at least one CPU");
}

/* lib_isolated_ok - an isolated call that ends normally, with a step left set */
static int lib_isolated_ok(void *arg)
{
	pf_isolate_step("a library call", 1, 2);
	return *(int *)arg;
}

/* lib_isolated_fault - an isolated call that faults inside a step (SIGILL: no sanitizer intercepts it) */
static int lib_isolated_fault(void *arg)
{
	pf_isolate_step("lib_test's faulting step", 4096, 17);
	raise(SIGILL);
	return 0;
}

/* lib_isolated_ours - an isolated call that faults in our own code (no step) */
static int lib_isolated_ours(void *arg)
{
	pf_isolate_step("done with the library", 1, 1);
	pf_isolate_step(NULL, 0, 0);
	raise(SIGILL);
	return 0;
}

/* test_isolate - lib-9.x: pf_isolate runs code in a child and turns its fault into a report */
static void test_isolate(void)
{
	struct pf_isolated f;
	char name[64];
	int three = 3;

	check_int(pf_isolate("ok", lib_isolated_ok, &three, &f), ==, 3, "lib-9.1 pf_isolate: the call's return value");
	check(f.signal == 0 && !f.step, "lib-9.2 ... no fault reported");
	pf_isolate_step("outside", 1, 1);	/* must do nothing here */
	check_int(pf_isolate("fault", lib_isolated_fault, NULL, &f), ==, -1, "lib-9.3 a fault in the child: -1");
	check(f.signal == SIGILL && f.step && !strcmp(f.step, "lib_test's faulting step") && f.at == 4096 &&
	      f.count == 17, "lib-9.4 ... its signal, step, position and count: %d %s %llu %llu",
	      f.signal, f.step ? f.step : "(none)", f.at, f.count);
	check_int(pf_isolate("ours", lib_isolated_ours, NULL, &f), ==, -1, "lib-9.5 a fault in our own code: -1");
	check(f.signal == SIGILL && !f.step, "lib-9.6 ... with no step: the fault is ours");
	check_str(pf_isolate_signame(SIGSEGV, name, sizeof(name)), "SIGSEGV (Segmentation fault)",
		  "lib-9.7 the signal's name for messages");
}

/* test_gp_quote - lib-11.x: strings for a gnuplot script are data, never code */
static void test_gp_quote(void)
{
	char buf[64];

	check_str(pf_gp_quote("a.svg'; system('touch PWNED'); set output 'b", '\'', buf, sizeof(buf)),
		  "a.svg''; system(''touch PWNED''); set output ''b", "lib-11.1 a quote in a single-quoted string: doubled");
	check_str(pf_gp_quote("io\nEOD\nsystem(\"x\")\r", '"', buf, sizeof(buf)), "io?EOD?system('x')?",
		  "lib-11.2 in a data column: no newline (no line, no EOD of its own), no double quote");
	check_str(pf_gp_quote("ab'c", '\'', buf, 4), "ab", "lib-11.3 truncated, never half a doubled quote");
	check_str(pf_gp_quote("µs \\ ok", '\'', buf, sizeof(buf)), "µs \\ ok", "lib-11.4 UTF-8 and backslashes kept");
	check_str(pf_gp_quote(NULL, '\'', buf, sizeof(buf)), "", "lib-11.5 NULL: empty");
}

/* lib_slurp - a small file's text ("" when it cannot be read) */
static const char *lib_slurp(const char *path)
{
	static char buf[256];

	if (pf_read_file(path, buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	return buf;
}

/* lib_out - LIB_TMP/out/NAME (a rotation of buffers) */
static const char *lib_out(const char *name)
{
	static char path[4][PATH_MAX];
	static int n;
	char *p = path[n++ % 4];

	snprintf(p, PATH_MAX, "%s/out/%s", lib_tmp, name);
	return p;
}

/* lib_kind - 'r' regular, 'c' character device, 'p' FIFO, 'l' symbolic link, '-' missing, '?' */
static char lib_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return '-';
	return S_ISREG(st.st_mode) ? 'r' : S_ISCHR(st.st_mode) ? 'c' : S_ISFIFO(st.st_mode) ? 'p' :
	       S_ISLNK(st.st_mode) ? 'l' : '?';
}

/* lib_out_write - pf_outfile_open, fputs, pf_outfile_commit; an exit code */
static int lib_out_write(const char *path, const char *text)
{
	FILE *f;
	int ret = pf_outfile_open(path, &f);

	if (ret)
		return ret;
	fputs(text, f);
	return pf_outfile_commit(f);
}

/* lib_child - run fn in a child with PREFLIGHT_TEST_OUTFILE_KILL set to 'kill' (NULL: unset); its wait status */
static int lib_child(const char *kill_env, void (*fn)(void))
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		if (kill_env)
			setenv("PREFLIGHT_TEST_OUTFILE_KILL", kill_env, 1);
		fn();
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	return status;
}

/* lib_child_write - in a child: write "new\n" to out/killed (PREFLIGHT_TEST_OUTFILE_KILL kills it before the rename) */
static void lib_child_write(void)
{
	_exit(lib_out_write(lib_out("killed"), "new\n"));
}

/* lib_child_term - in a child: start writing out/termed, then SIGTERM */
static void lib_child_term(void)
{
	FILE *f;

	if (pf_outfile_open(lib_out("termed"), &f))
		_exit(9);
	fputs("partial\n", f);
	fflush(f);
	raise(SIGTERM);
	_exit(8);
}

/* test_outfile - lib-10.x: lib/outfile.h by the kind of target, write errors, kills and signals */
static void test_outfile(void)
{
	char cmd[PATH_MAX + 64], tmp[PATH_MAX + 8], buf[64];
	const char *name = NULL;
	json_t *doc;
	FILE *f = NULL;
	int status, fd;

	snprintf(cmd, sizeof(cmd), "%s/out", lib_tmp);
	mkdir(cmd, 0755);
	pf_set_prog("lib_test");

	/* a new name, then an existing file: replaced whole, atomically */
	check_int(lib_out_write(lib_out("new.txt"), "one\n"), ==, 0, "lib-10.1 a new name is written: 0");
	check_str(lib_slurp(lib_out("new.txt")), "one", "lib-10.2 ... with the text");
	check_int(lib_kind(lib_out("new.txt.tmp")), ==, '-', "lib-10.3 ... and no temporary file left");
	check_int(pf_outfile_open(lib_out("new.txt"), &f), ==, 0, "lib-10.4 an existing file opens");
	fputs("two\n", f);
	fflush(f);
	check_str(lib_slurp(lib_out("new.txt")), "one", "lib-10.5 ... while it is written the old text stays");
	/* written without a name (O_TMPFILE, where the file system has it: this test's does), linked at the commit */
	check_int(lib_kind(lib_out("new.txt.tmp")), ==, '-',
		  "lib-10.6 ... the new text has no name yet (no NAME.tmp): a writer killed now leaves nothing");
	check_int(pf_outfile_commit(f), ==, 0, "lib-10.7 ... commit: 0");
	check_str(lib_slurp(lib_out("new.txt")), "two", "lib-10.8 ... then the new text is there whole");
	check_int(pf_outfile_open(lib_out("new.txt"), &f), ==, 0, "lib-10.9 abort: opens");
	fputs("three\n", f);
	pf_outfile_abort(f);
	check(!strcmp(lib_slurp(lib_out("new.txt")), "two") && lib_kind(lib_out("new.txt.tmp")) == '-',
	      "lib-10.10 ... abort leaves the target as it was and no temporary file");

	/* devices and FIFOs: written in place, never replaced */
	snprintf(cmd, sizeof(cmd), "mknod '%s' c 1 7 && mknod '%s' c 1 3", lib_out("full"), lib_out("null"));
	if (system(cmd) != 0)
		tap_diag("mknod failed (not root?): the device cases fail");
	check_int(lib_out_write(lib_out("full"), "x\n"), ==, PF_EXIT_ENV, "lib-10.11 a full device: the write fails, exit 3");
	check_int(lib_kind(lib_out("full")), ==, 'c', "lib-10.12 ... and the node is still a character device");
	check_int(lib_out_write(lib_out("null"), "x\n"), ==, 0, "lib-10.13 a null device: written, 0");
	check_int(lib_kind(lib_out("null")), ==, 'c', "lib-10.14 ... and the node is still a character device");
	mkfifo(lib_out("fifo"), 0600);
	fd = open(lib_out("fifo"), O_RDONLY | O_NONBLOCK);
	check_int(lib_out_write(lib_out("fifo"), "through\n"), ==, 0, "lib-10.15 a FIFO: written, 0");
	memset(buf, 0, sizeof(buf));
	check(fd >= 0 && read(fd, buf, sizeof(buf) - 1) == 8 && !strcmp(buf, "through\n"),
	      "lib-10.16 ... the reader gets the text");
	if (fd >= 0)
		close(fd);
	check_int(lib_kind(lib_out("fifo")), ==, 'p', "lib-10.17 ... and it is still a FIFO");

	/* refused before anything is written */
	check_int(pf_outfile_open(lib_out(""), &f), ==, PF_EXIT_USAGE, "lib-10.18 a directory is refused: exit 2");
	check(f == NULL, "lib-10.19 ... with no stream");
	check_int(pf_outfile_check(lib_out(""), true), ==, PF_EXIT_USAGE, "lib-10.20 pf_outfile_check says so too");
	check_int(pf_outfile_open(lib_out("none/x"), &f), ==, PF_EXIT_USAGE,
		  "lib-10.21 a name in a missing directory: exit 2");
	check_int(pf_outfile_check(lib_out("none/x"), true) * 10 + pf_outfile_check(lib_out("none/x"), false), ==,
		  PF_EXIT_USAGE * 10, "lib-10.46 pf_outfile_check: a missing directory only with need_dir");
	check_int(pf_outfile_check(lib_out("new.txt"), true) | pf_outfile_check(lib_out("fresh"), true) |
		  pf_outfile_check(lib_out("null"), true) | pf_outfile_check("-", true), ==, 0,
		  "lib-10.22 a file, a new name, a device and '-' may be written");

	/* stdout */
	check_int(pf_outfile_open("/dev/stdout", &f), ==, 0, "lib-10.23 /dev/stdout opens");
	check(f == stdout, "lib-10.24 ... as stdout itself, never a file renamed over it");
	pf_outfile_abort(f);

	/* a symbolic link to a file: the file is replaced, the link stays */
	symlink("new.txt", lib_out("link"));
	check_int(lib_out_write(lib_out("link"), "four\n"), ==, 0, "lib-10.25 through a symbolic link: 0");
	check(lib_kind(lib_out("link")) == 'l' && !strcmp(lib_slurp(lib_out("new.txt")), "four"),
	      "lib-10.26 ... the link stays a link, the file it names has the text");

	/* a writer killed between the last write and the rename */
	check_int(lib_out_write(lib_out("killed"), "old\n"), ==, 0, "lib-10.27 the file a killed writer replaces");
	status = lib_child("killed", lib_child_write);
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "lib-10.28 PREFLIGHT_TEST_OUTFILE_KILL: killed");
	check_str(lib_slurp(lib_out("killed")), "old", "lib-10.29 ... the target keeps its old text whole");
	snprintf(tmp, sizeof(tmp), "%s.tmp", lib_out("killed"));
	check_str(lib_slurp(tmp), "new", "lib-10.30 ... the new text is only in NAME.tmp");
	check_int(lib_out_write(lib_out("killed"), "next\n"), ==, 0, "lib-10.31 the next write over a leftover NAME.tmp: 0");
	check(!strcmp(lib_slurp(lib_out("killed")), "next") && lib_kind(tmp) == '-',
	      "lib-10.32 ... its text, and the leftover is gone");

	/* SIGTERM while a file is written */
	check_int(lib_out_write(lib_out("termed"), "old\n"), ==, 0, "lib-10.33 the file a terminated writer replaces");
	status = lib_child(NULL, lib_child_term);
	snprintf(tmp, sizeof(tmp), "%s.tmp", lib_out("termed"));
	check(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "lib-10.34 SIGTERM: the writer dies of it");
	check(!strcmp(lib_slurp(lib_out("termed")), "old") && lib_kind(tmp) == '-',
	      "lib-10.35 ... the target as it was and no temporary file left");

	/* by name (a writer that opens the file itself), JSON, copy */
	check_int(pf_outfile_begin(lib_out("byname"), &name), ==, 0, "lib-10.36 pf_outfile_begin: 0");
	snprintf(tmp, sizeof(tmp), "%s.tmp", lib_out("byname"));
	check_str(name ? name : "", tmp, "lib-10.37 ... the name to write is NAME.tmp");
	check_int(pf_write_file(tmp, "named\n"), ==, 0, "lib-10.38 ... written by name");
	check_int(pf_outfile_end(lib_out("byname"), true), ==, 0, "lib-10.39 pf_outfile_end: 0");
	check(!strcmp(lib_slurp(lib_out("byname")), "named") && lib_kind(tmp) == '-',
	      "lib-10.40 ... renamed into place");
	doc = json_pack("{s:i}", "a", 1);
	check_int(pf_outfile_json(lib_out("doc.json"), doc, JSON_COMPACT), ==, 0, "lib-10.41 pf_outfile_json: 0");
	check_str(lib_slurp(lib_out("doc.json")), "{\"a\":1}", "lib-10.42 ... the document");
	check_int(pf_outfile_json(lib_out("full"), doc, 0), ==, PF_EXIT_ENV,
		  "lib-10.43 ... on a full device: exit 3");
	json_decref(doc);
	check_int(pf_outfile_copy(lib_out("doc.json"), lib_out("copy.json")), ==, 0, "lib-10.44 pf_outfile_copy: 0");
	check_str(lib_slurp(lib_out("copy.json")), "{\"a\":1}", "lib-10.45 ... the same text");
}

/* lib_jl_meta - a metadata callback: counts the lines it is given */
static int lib_jl_meta(void *ctx, const char *line)
{
	(void)line;
	++*(int *)ctx;
	return 0;
}

/* lib_jl_read - read a job log to its end: the last pf_joblog_next result, the rows in *nrows, the line in *lineno */
static int lib_jl_read(const char *path, int *nrows, long *lineno, long *cut, struct pf_jlrow *first)
{
	struct pf_joblog *jl;
	struct pf_jlrow *row;
	int ret, nmeta = 0;

	*nrows = 0;
	if ((ret = pf_joblog_open(path, lib_jl_meta, &nmeta, &jl)))
		return ret;
	while ((ret = pf_joblog_next(jl, lib_jl_meta, &nmeta, &row)) > 0)
		if (!(*nrows)++ && first)
			*first = *row;
	*lineno = pf_joblog_lineno(jl);
	*cut = pf_joblog_cut_line(jl);
	pf_joblog_close(jl);
	return ret;
}

/* test_joblog - lib-12.x: the one job-log reader (docs/joblog.md): rows, its version line, a bad row, a cut line */
static void test_joblog(void)
{
	static const char head[] = "# preflight-joblog/1\n# slot_ns=10000000\n"
				   "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed\n";
	char text[1024];
	struct pf_jlrow row = { 0 };
	long lineno, cut;
	int n;

	snprintf(text, sizeof(text), "%sio,7,1000,1200,3000,1500,1,3,2\nio,8,11000,11100,12000,800,1,0,0\n# rows=2\n", head);
	check_int(lib_jl_read(lib_write("jl1.csv", text), &n, &lineno, &cut, &row), ==, 0, "lib-12.1 a job log: read to its end");
	check_int(n, ==, 2, "lib-12.2 ... both rows");
	check(!strcmp(row.task, "io") && row.seq == 7 && row.release_ns == 1000 && row.start_ns == 1200 &&
	      row.end_ns == 3000 && row.cpu_ns == 1500 && row.cpu == 1 && row.flags == (PF_JL_OVERRUN | PF_JL_DEADLINE) &&
	      row.missed == 2, "lib-12.3 ... every column of the first row");
	check_int(lib_jl_read(lib_write("jl2.csv", "# preflight-joblog/2\ntask,seq,release_ns,start_ns,end_ns,cpu_ns\n"),
			      &n, &lineno, &cut, NULL), ==, -PF_EXIT_USAGE, "lib-12.4 format v2: refused (exit 2)");
	check_int(lineno, ==, 1, "lib-12.5 ... at its line, 1");
	snprintf(text, sizeof(text), "%sio,7,1200,1000,3000,1500,1,0,0\n", head);
	check_int(lib_jl_read(lib_write("jl3.csv", text), &n, &lineno, &cut, NULL), ==, -PF_EXIT_USAGE,
		  "lib-12.6 start before release (columns swapped): refused");
	check_int(lineno * 10 + n, ==, 40, "lib-12.7 ... at line 4, no row given");
	snprintf(text, sizeof(text), "%sio,7,1000,1200,3000,1500,1,0,0\nio,8,110", head);
	check_int(lib_jl_read(lib_write("jl4.csv", text), &n, &lineno, &cut, NULL), ==, 0, "lib-12.8 a last line cut short: read");
	check_int(cut * 10 + n, ==, 51, "lib-12.9 ... line 5 skipped, the row before it read");
}

/* test_kconfig - lib-13: one .config line sets an option, "is not set" is n, another option's line is not it */
static void test_kconfig(void)
{
	char v[8] = "";

	check_int(pf_kconfig_line("CONFIG_HZ=1000", "CONFIG_HZ", v, sizeof(v)), ==, 1, "lib-13.1 CONFIG_HZ=1000 sets CONFIG_HZ");
	check_str(v, "1000", "lib-13.2 ... to 1000");
	check_int(pf_kconfig_line("CONFIG_HZ_1000=y", "CONFIG_HZ", v, sizeof(v)), ==, 0,
		  "lib-13.3 CONFIG_HZ_1000=y is another option's line");
	check_int(pf_kconfig_line("# CONFIG_PREEMPT_RT is not set", "CONFIG_PREEMPT_RT", v, sizeof(v)), ==, 1,
		  "lib-13.4 '# ... is not set' sets it");
	check_str(v, "n", "lib-13.5 ... to n");
	check_int(pf_kconfig_line("# CONFIG_PREEMPT_RT_FULL is not set", "CONFIG_PREEMPT_RT", v, sizeof(v)), ==, 0,
		  "lib-13.6 a longer option's '# ... is not set' is not it");
	check_int(pf_kconfig_line("CONFIG_FTRACE=\"a long value\"", "CONFIG_FTRACE", v, sizeof(v)), ==, 1,
		  "lib-13.7 a value longer than the buffer is read");
	check_str(v, "\"a long", "lib-13.8 ... cut to it");
	check_int((int)PF_KCONFIG_RT_NOPTS, ==, 16, "lib-13.9 16 realtime-relevant options, the survey's and the report's");
}

/* test_names - lib-14.x: one name per metric, from either spelling (lib/results_keys.c) */
static void test_names(void)
{
	static const struct { const char *old, *path; } pairs[] = {
		{ "io.activation_latency.p99.9", "tasks.io.activation_latency_ns.p99.9" },
		{ "ctl100.response_time.max", "tasks.ctl100.response_time_ns.max" },
		{ "io.exec_time.p50", "tasks.io.exec_time_ns.p50" },
		{ "io.overruns.count", "tasks.io.overruns" },
		{ "io.dropped_joblog_rows.count", "tasks.io.joblog.dropped" },
		{ "app.utilisation.run", "app.utilisation" },
		{ "app.utilisation.max_1s", "app.utilisation_max_1s" },
		{ "app.slot_overruns.count", "slots.overruns" },
		{ "run.lost_events.count", "lost_events.total" },
		{ "cpu3.cyclictest_latency.max", "cyclictest.threads.3.latency_ns.max" },
		{ "*.activation_latency.max", "tasks.*.activation_latency_ns.max" },
	};
	char out[160];
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(pairs); i++) {
		check(pf_metric_path(pairs[i].old, out, sizeof(out)) && !strcmp(out, pairs[i].path),
		      "lib-14.%zu %s is %s (got %s)", i + 1, pairs[i].old, pairs[i].path, out);
		check(pf_metric_old_name(pairs[i].path, out, sizeof(out)) && !strcmp(out, pairs[i].old),
		      "lib-14.%zu ... and back (got %s)", i + 1, out);
		check(!pf_metric_path(pairs[i].path, out, sizeof(out)) && !strcmp(out, pairs[i].path),
		      "lib-14.%zu ... the path is its own name", i + 1);
	}
	check(!pf_metric_path("tasks.io.wakeup_latency_ns.max", out, sizeof(out)) &&
	      !strcmp(out, "tasks.io.wakeup_latency_ns.max"), "lib-14.12 a path compare never named: as it is");
	check(!pf_metric_old_name("tasks.io.joblog.activation_latency_ns.max", out, sizeof(out)),
	      "lib-14.13 tasks.io.joblog.activation_latency_ns.max has no older name (a task is one segment)");
	check(!pf_metric_path("io.activation_latency", out, sizeof(out)), "lib-14.14 no statistic: no metric of compare");
}

/* lib-16: one path join that fails on truncation, one UTC time stamp */
static void test_join_utc(void)
{
	const char *volatile name = "defg";	/* opaque: the inline join's truncation is the test's */
	char buf[8], ts[32];

	check_int(pf_path_join(buf, sizeof(buf), "ab", "cd"), ==, 0, "lib-16.1 pf_path_join: dir/name fits");
	check_str(buf, "ab/cd", "lib-16.2 ... joined by one slash");
	check_int(pf_path_join(buf, sizeof(buf), "abc", name), ==, -ENAMETOOLONG,
		  "lib-16.3 a join one byte too long: -ENAMETOOLONG");
	check_str(buf, "", "lib-16.4 ... and an empty buffer, never a cut path");
	check_str(pf_utc(ts, sizeof(ts), 1796279400, false), "2026-12-03T06:30:00Z", "lib-16.5 pf_utc: ISO 8601 UTC");
	check_str(pf_utc(ts, sizeof(ts), 1796279400, true), "20261203T063000Z", "lib-16.6 ... compact, for a file name");
	check_str(pf_utc(ts, 20, 1796279400, false), "", "lib-16.7 ... a buffer too small: empty, never cut");
}

/* lib-17: one ns -> µs text, plain or bare, one missing value of each */
static void test_fmt_us(void)
{
	char buf[32];

	check_str(pf_fmt_us(buf, sizeof(buf), 41249, false), "41.2 us", "lib-17.1 pf_fmt_us: one decimal, ' us'");
	check_str(pf_fmt_us(buf, sizeof(buf), -12350, false), "-12.3 us", "lib-17.2 ... signed (a shift)");
	check_str(pf_fmt_us(buf, sizeof(buf), NAN, false), "-", "lib-17.3 ... missing: '-'");
	check_str(pf_fmt_us(buf, sizeof(buf), 41249, true), "41.2", "lib-17.4 bare: the number alone");
	check_str(pf_fmt_us(buf, sizeof(buf), NAN, true), "—", "lib-17.5 ... missing: '—'");
}

/* test_quantity - lib-15.x: a number with its unit, as a budget's bound is read */
static void test_quantity(void)
{
	struct pf_qty q;
	const char *u;

	check_int(pf_parse_quantity("62us", &q, &u), ==, 0, "lib-15.1 62us");
	check(q.kind == PF_QTY_TIME && q.value * q.unit_ns == 62000 && !strcmp(q.unit, "us"), "lib-15.2 ... 62000 ns");
	check_int(pf_parse_quantity("62 \xc2\xb5s", &q, &u), ==, 0, "lib-15.3 62 µs (a space, the micro sign)");
	check(q.kind == PF_QTY_TIME && !strcmp(q.unit, "us"), "lib-15.4 ... shown us");
	check_int(pf_parse_quantity("60%", &q, &u), ==, 0, "lib-15.5 60%%");
	check(q.kind == PF_QTY_PERCENT && q.value == 60, "lib-15.6 ... a share");
	check_int(pf_parse_quantity("3", &q, &u), ==, 0, "lib-15.7 3");
	check(q.kind == PF_QTY_PLAIN && q.value == 3, "lib-15.8 ... plain");
	check_int(pf_parse_quantity("0x10us", &q, &u), ==, -EINVAL, "lib-15.9 0x10us: no hexadecimal");
	check_int(pf_parse_quantity("us", &q, &u), ==, -EINVAL, "lib-15.10 no number");
	check_int(pf_parse_quantity("62 parsecs", &q, &u), ==, -ENOENT, "lib-15.11 an unknown unit");
	check_str(u, "parsecs", "lib-15.12 ... pointed at");
}

int main(void)
{
	char cmd[600];
	int ret;

	if (!mkdtemp(lib_tmp)) {
		perror("mkdtemp");
		return 1;
	}
	tap_plan(21 + 21 + 11 + 17 + 15 + 7 + 5 + 46 + 9 + 9 + 11 * 3 + 3 + 12 + 7 + 5);
	test_parse();
	test_grow();
	test_ini();
	test_datafile();
	test_proc();
	test_cpus();
	test_isolate();
	test_gp_quote();
	test_outfile();
	test_joblog();
	test_kconfig();
	test_names();
	test_quantity();
	test_join_utc();
	test_fmt_us();
	ret = tap_done();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", lib_tmp);
	if (system(cmd) != 0)
		tap_diag("could not remove %s", lib_tmp);
	return ret;
}
