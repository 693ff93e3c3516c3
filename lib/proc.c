/*
 * proc.c - child processes (see proc.h): start with exec errors reported
 * back through a close-on-exec pipe, die-with-parent, own process group,
 * stop by pid or process group with a grace period, run-to-completion with
 * the first error line captured. Every child is tracked by its pid and
 * reaped.
 */
#define _GNU_SOURCE
#include "proc.h"
#include "common.h"
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#define PF_LEAK_CHECK 1		/* make check SANITIZE=address: leaks are checked (docs/fuzzing.md) */
#endif

extern char **environ;

/* pf_proc_redirect - open 'path' (NULL: /dev/null; "-": leave fd alone) onto fd in the child */
static void pf_proc_redirect(const char *path, int fd, int oflags)
{
	int f;

	if (path && !strcmp(path, "-"))
		return;
	f = open(path ? path : "/dev/null", oflags | O_CLOEXEC, 0644);
	if (f < 0)
		_exit(127);
	if (dup2(f, fd) < 0)
		_exit(127);
}

pid_t pf_proc_fork(struct pf_proc *p, const char *name, int flags, int death_sig)
{
	pid_t parent = getpid(), pid;
	sigset_t held;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", strrchr(name, '/') ? strrchr(name, '/') + 1 : name);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid > 0) {
		if (flags & PF_PROC_PGRP)
			setpgid(pid, pid);	/* also here: no race with an early kill */
		p->pid = pid;
		return pid;
	}
	/* the child: only async-signal-safe calls (the parent may have threads) */
	sigemptyset(&held);
	if (flags & PF_PROC_HOLD_STOP) {
		/* before the death signal is set: from here on it waits, through the exec, until the
		 * program takes it (neither the parent's handler nor the default action runs) */
		sigaddset(&held, SIGINT);
		sigaddset(&held, SIGTERM);
		sigaddset(&held, SIGHUP);
		sigprocmask(SIG_BLOCK, &held, NULL);
	}
	if (flags & PF_PROC_PGRP)
		setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, death_sig ? death_sig : SIGKILL);
	if (getppid() != parent)
		_exit(127);	/* the parent died before the line above */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);	/* an ignored signal would stay ignored across exec */
	sigprocmask(SIG_SETMASK, &held, NULL);
	return 0;
}

int pf_proc_start(struct pf_proc *p, const struct pf_proc_spec *spec)
{
	char *const *argv = spec->argv;
	int pipefd[2], err = 0, fd = spec->pass_fd;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	pid = pf_proc_fork(p, argv[0], spec->flags, spec->death_sig);
	if (pid < 0) {
		close(pipefd[0]);
		close(pipefd[1]);
		return (int)pid;
	}
	if (pid == 0) {
		close(pipefd[0]);
		pf_proc_redirect(spec->in_path, 0, O_RDONLY);
		pf_proc_redirect(spec->out_path, 1, O_WRONLY | O_CREAT | O_TRUNC);
		if (spec->err_path && spec->out_path && !strcmp(spec->err_path, spec->out_path) &&
		    strcmp(spec->err_path, "-")) {
			if (dup2(1, 2) < 0)
				_exit(127);
		} else {
			pf_proc_redirect(spec->err_path, 2, O_WRONLY | O_CREAT | O_TRUNC);
		}
		if (fd == PF_PROC_PASS_FD && fcntl(fd, F_SETFD, 0) < 0)
			_exit(127);	/* dup2 onto itself would keep close-on-exec */
		if (fd > 0 && fd != PF_PROC_PASS_FD && dup2(fd, PF_PROC_PASS_FD) < 0)
			_exit(127);
		if (spec->cpus && sched_setaffinity(0, sizeof(*spec->cpus), spec->cpus) < 0)
			_exit(127);
		if (spec->set_nice && setpriority(PRIO_PROCESS, 0, spec->nice) < 0)
			_exit(127);
		execvpe(argv[0], argv, spec->envp ? spec->envp : environ);
		err = errno;
		if (write(pipefd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pipefd[1]);
	do
		n = read(pipefd[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(pipefd[0]);
	if (n == sizeof(err)) {
		while (waitpid(pid, &p->status, 0) < 0 && errno == EINTR)
			;
		p->reaped = true;
		p->pid = 0;
		p->exec_errno = err;
		return -err;
	}
	return 0;
}

int pf_proc_spawn(struct pf_proc *p, char *const argv[], const char *out_path,
		  const char *err_path, int flags)
{
	return pf_proc_spawn_fd(p, argv, out_path, err_path, flags, -1);
}

int pf_proc_spawn_fd(struct pf_proc *p, char *const argv[], const char *out_path,
		     const char *err_path, int flags, int pass_fd)
{
	struct pf_proc_spec spec = {
		.argv = argv, .out_path = out_path, .err_path = err_path,
		.flags = flags, .pass_fd = pass_fd,
		.death_sig = flags & PF_PROC_TERM_ON_DEATH ? SIGTERM : 0,
	};

	return pf_proc_start(p, &spec);
}

bool pf_proc_alive(struct pf_proc *p)
{
	pid_t r;

	if (!p->pid || p->reaped)
		return false;
	r = waitpid(p->pid, &p->status, WNOHANG);
	if (r == p->pid || (r < 0 && errno == ECHILD)) {
		p->reaped = true;
		return false;
	}
	return true;
}

/* pf_proc_wait_ns - wait up to ns for the child to end; true when reaped */
static bool pf_proc_wait_ns(struct pf_proc *p, int64_t ns)
{
	int64_t end = pf_now_ns() + ns;

	while (pf_proc_alive(p)) {
		if (pf_now_ns() >= end)
			return false;
		pf_proc_sleep_ns(10 * PF_NS_PER_MS);
	}
	return true;
}

void pf_proc_stop(struct pf_proc *p, int sig, int64_t grace_ns, bool group)
{
	if (!p->pid || p->reaped)
		return;
	if (pf_proc_alive(p)) {
		kill(group ? -p->pid : p->pid, sig);
		if (!pf_proc_wait_ns(p, grace_ns)) {
			kill(group ? -p->pid : p->pid, SIGKILL);
			if (group)
				kill(p->pid, SIGKILL);
			waitpid(p->pid, &p->status, 0);
			p->reaped = true;
		}
	}
	if (group)
		kill(-p->pid, SIGKILL);	/* leftovers of the group, if any */
}

int pf_proc_wait(struct pf_proc *p)
{
	while (!p->reaped && waitpid(p->pid, &p->status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	p->reaped = true;
	return pf_proc_exit_code(p);
}

int pf_proc_exit_code(const struct pf_proc *p)
{
	if (!p->reaped)
		return -1;
	if (WIFEXITED(p->status))
		return WEXITSTATUS(p->status);
	if (WIFSIGNALED(p->status))
		return 128 + WTERMSIG(p->status);
	return -1;
}

int pf_proc_run(char *const argv[], char *err, size_t err_size)
{
	char path[] = "/tmp/preflight-proc.XXXXXX";
	struct pf_proc p;
	char line[512];
	ssize_t n;
	int fd, ret, code;

	if (err_size)
		err[0] = '\0';
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = pf_proc_spawn(&p, argv, NULL, path, 0);
	/* the child has its stderr open once spawned (it has exec'd): the name goes at once, so that
	 * nothing is left in /tmp if this process is killed while the child runs; read through fd */
	unlink(path);
	if (ret < 0) {
		close(fd);
		if (err_size)
			snprintf(err, err_size, "%s: %s", argv[0], strerror(-ret));
		return ret;
	}
	waitpid(p.pid, &p.status, 0);
	p.reaped = true;
	code = pf_proc_exit_code(&p);
	if (code && err_size) {
		n = pread(fd, line, sizeof(line) - 1, 0);
		if (n > 0) {
			line[n] = '\0';
			line[strcspn(line, "\n")] = '\0';
			snprintf(err, err_size, "%s", line);
		} else {
			snprintf(err, err_size, "%s exited with %d", argv[0], code);
		}
	}
	close(fd);
	return code;
}

int pf_proc_runl(char *err, size_t err_size, const char *arg0, ...)
{
	const char *argv[32];
	va_list ap;
	int n = 0;

	argv[n++] = arg0;
	va_start(ap, arg0);
	while (n < 31 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	return pf_proc_run((char *const *)argv, err, err_size);
}

int pf_proc_which(const char *tool)
{
	const char *path = getenv("PATH");
	char buf[4096];
	const char *p, *end;

	if (strchr(tool, '/'))
		return access(tool, X_OK) ? -ENOENT : 0;
	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchrnul(p, ':');
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)(end - p), p, tool);
		if (end != p && !access(buf, X_OK))
			return 0;
	}
	return -ENOENT;
}

bool pf_proc_pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

void pf_proc_sleep_ns(int64_t ns)
{
	struct timespec ts = pf_ns_to_ts(ns > 0 ? ns : 0);

	nanosleep(&ts, NULL);
}

int pf_proc_await_paths(struct pf_proc *p, const char *const paths[], int n, int64_t timeout_ns,
			char *why, size_t why_size)
{
	const char *cap = getenv("PREFLIGHT_TEST_AWAIT_MS");
	int64_t end;
	int i = 0;

	if (cap && *cap)
		timeout_ns = atoll(cap) * PF_NS_PER_MS;
	end = pf_now_ns() + timeout_ns;
	for (;;) {
		while (i < n && access(paths[i], F_OK) == 0)
			i++;
		if (i == n)
			return 0;
		if (!pf_proc_alive(p)) {
			snprintf(why, why_size, "%s exited with %d before '%s' appeared", p->name,
				 pf_proc_exit_code(p), paths[i]);
			return -ECHILD;
		}
		if (pf_now_ns() >= end) {
			snprintf(why, why_size, "'%s' not there after %lld ms, %s still running (pid %d)",
				 paths[i], (long long)(timeout_ns / PF_NS_PER_MS), p->name, (int)p->pid);
			return -ETIMEDOUT;
		}
		pf_proc_sleep_ns(20 * PF_NS_PER_MS);	/* a poll of the condition, not a guess of its time */
	}
}

json_t *pf_json_load_at_brace(const char *path)
{
	json_error_t jerr;
	json_t *root = NULL;
	char *text = NULL, *brace;
	size_t len = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return NULL;
	if (getdelim(&text, &len, '\0', f) > 0) {
		brace = strchr(text, '{');
		if (brace)
			root = json_loads(brace, JSON_DISABLE_EOF_CHECK, &jerr);
	}
	free(text);
	fclose(f);
	return root;
}

struct pf_isolate_state *pf_isolate_now;	/* set in an isolated child only */

/* pf_isolate_fault - true for the signals a fault raises (not those sent from outside) */
static bool pf_isolate_fault(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
	       sig == SIGABRT || sig == SIGSYS || sig == SIGTRAP;
}

const char *pf_isolate_signame(int sig, char *buf, size_t size)
{
	const char *abbrev = sigabbrev_np(sig);

	snprintf(buf, size, "SIG%s (%s)", abbrev ? abbrev : "?", strsignal(sig));
	return buf;
}

int pf_isolate(const char *name, int (*fn)(void *arg), void *arg, struct pf_isolated *out)
{
	struct rlimit no_core = { 0, 0 };
	struct pf_isolate_state *s;
	struct pf_proc p;
	int code, sig, out_ret;
	pid_t pid;

	memset(out, 0, sizeof(*out));
	s = mmap(NULL, sizeof(*s), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return fn(arg);
	memset(s, 0, sizeof(*s));
	fflush(NULL);	/* nothing buffered before the fork is written twice */
	pid = pf_proc_fork(&p, name, 0, SIGKILL);
	if (pid < 0) {
		munmap(s, sizeof(*s));
		return fn(arg);
	}
	if (pid == 0) {
		setrlimit(RLIMIT_CORE, &no_core);
		pf_isolate_now = s;
		code = fn(arg);
		/* its stdout is output too, and main's check at exit never sees the child's buffer */
		out_ret = pf_stdout_close();
		if (out_ret && code < PF_EXIT_USAGE)
			code = out_ret;
		fflush(NULL);
#ifdef PF_LEAK_CHECK
		/* _exit skips LeakSanitizer's exit hook: what fn leaked is checked here (its exit code 23) */
		if (__lsan_do_recoverable_leak_check())
			code = 23;
#endif
		_exit(code & 0xff);
	}
	code = pf_proc_wait(&p);
	if (code >= 0 && WIFSIGNALED(p.status)) {
		sig = WTERMSIG(p.status);
		if (pf_isolate_fault(sig)) {
			out->signal = sig;
			out->step = s->step;	/* a literal: the same address here as in the child */
			out->at = s->at;
			out->count = s->count;
			code = -1;
		} else {
			signal(sig, SIG_DFL);
			raise(sig);
		}
	}
	munmap(s, sizeof(*s));
	return code;
}
