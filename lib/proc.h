/*
 * proc.h - the one way preflight starts a child process: the loads, the
 * scenario runner's stages and tools, the recorder's command, the
 * simulator's programs and the SPI load's echo peer all come through here.
 *
 * A child dies with its parent (PR_SET_PDEATHSIG), starts with default
 * signal dispositions and nothing blocked, may lead its own process group
 * (so that whatever it starts is stopped with it), and an exec that fails
 * comes back to the parent as -errno through a close-on-exec pipe instead of
 * as a child that exits 127. Every child is tracked by its pid and reaped.
 */
#ifndef PF_PROC_H
#define PF_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sched.h>
#include <sys/types.h>

struct json_t;

/* pf_proc - one child */
struct pf_proc {
	pid_t pid;		/* 0 when not running */
	char name[32];		/* program name (no directory), for messages */
	int status;		/* wait status once reaped */
	bool reaped;
	int exec_errno;		/* the exec failed with this errno (the child is reaped), or 0 */
};

enum {
	PF_PROC_PGRP = 1,	/* child leads a new process group */
	PF_PROC_TERM_ON_DEATH = 2,	/* SIGTERM, not SIGKILL, when the parent dies: it cleans up */
	PF_PROC_HOLD_STOP = 4,		/* starts with SIGINT / SIGTERM / SIGHUP blocked, from before the
					 * death signal is set: a program of ours that waits for them once
					 * set up (the recorder) gets one sent while it starts, not dies of it */
};

/* pf_proc_spec - what to start and how */
struct pf_proc_spec {
	char *const *argv;	/* argv[0] is searched in PATH unless it holds a '/' */
	char *const *envp;	/* the child's environment, or NULL: ours */
	const char *in_path;	/* stdin: NULL /dev/null, "-" inherited, or a file */
	const char *out_path;	/* stdout: NULL /dev/null, "-" inherited, or a file (truncated) */
	const char *err_path;	/* stderr: the same; equal to out_path: the same open file */
	int flags;		/* PF_PROC_PGRP */
	int pass_fd;		/* > 0: handed to the child as PF_PROC_PASS_FD */
	int death_sig;		/* sent to the child when the parent dies (0: SIGKILL) */
	const cpu_set_t *cpus;	/* the child's CPU affinity, set before exec (NULL: ours) */
	bool set_nice;		/* the child's nice value is 'nice', set before exec (false: ours) */
	int nice;
};

#define PF_PROC_PASS_FD 3

/*
 * pf_proc_start - fork and exec as 'spec' says. 0 when the program runs;
 * -errno when it could not be started (an exec failure also sets
 * p->exec_errno and reaps the child)
 */
int pf_proc_start(struct pf_proc *p, const struct pf_proc_spec *spec) __attribute__((warn_unused_result));

/*
 * pf_proc_fork - fork a child that runs our own code ('name' for messages):
 * dies with its parent, default signals, own process group with
 * PF_PROC_PGRP. Returns 0 in the child, the pid in the parent, or -errno.
 */
pid_t pf_proc_fork(struct pf_proc *p, const char *name, int flags, int death_sig);

/*
 * pf_proc_spawn - pf_proc_start of argv with stdin from /dev/null, stdout /
 * stderr to the given files (NULL: /dev/null; "-": inherited). 0 or -errno.
 */
int pf_proc_spawn(struct pf_proc *p, char *const argv[], const char *out_path,
		  const char *err_path, int flags) __attribute__((warn_unused_result));

/* pf_proc_spawn_fd - pf_proc_spawn that also hands 'pass_fd' to the child as PF_PROC_PASS_FD */
int pf_proc_spawn_fd(struct pf_proc *p, char *const argv[], const char *out_path,
		     const char *err_path, int flags, int pass_fd) __attribute__((warn_unused_result));

/* pf_proc_alive - true while the child runs (reaps it when it has exited) */
bool pf_proc_alive(struct pf_proc *p);

/*
 * pf_proc_stop - send 'sig' (to the process group when 'group'), wait up to
 * grace_ns, then SIGKILL; always reaps. No-op when not running.
 */
void pf_proc_stop(struct pf_proc *p, int sig, int64_t grace_ns, bool group);

/* pf_proc_wait - wait for the process to end (EINTR retried) and reap it; pf_proc_exit_code, or -errno */
int pf_proc_wait(struct pf_proc *p);

/* pf_proc_exit_code - the exit status (0-255), 128+signal, or -1 when not reaped */
int pf_proc_exit_code(const struct pf_proc *p);

/*
 * pf_proc_run - run a command to completion; its first stderr line (or a
 * description of how it ended) goes to 'err'. Returns its exit code, or -errno.
 */
int pf_proc_run(char *const argv[], char *err, size_t err_size);

/* pf_proc_runl - pf_proc_run with the arguments as a NULL-terminated list */
int pf_proc_runl(char *err, size_t err_size, const char *arg0, ...) __attribute__((sentinel));

/* pf_proc_which - 0 when 'tool' is an executable in PATH (or a path), else -ENOENT */
int pf_proc_which(const char *tool);

/* pf_proc_pid_alive - true when process 'pid' exists */
bool pf_proc_pid_alive(pid_t pid);

/* pf_proc_sleep_ns - sleep, returning early (never negative) on a signal */
void pf_proc_sleep_ns(int64_t ns);

/*
 * pf_proc_await_paths - wait, up to timeout_ns, until each of the n paths
 * exists while child p runs (a program that makes files, links or sockets
 * another is started against: the simulator's UART link and SPI socket).
 * 0 when all exist; -ETIMEDOUT when one is still missing, -ECHILD when the
 * child ended first (reaped); either way 'why' says which path and the
 * child's state or exit. PREFLIGHT_TEST_AWAIT_MS (tests only) caps the wait.
 */
#define PF_PROC_AWAIT_NS (60 * PF_NS_PER_SEC)	/* its usual bound: a program's start on an emulated CPU */
int pf_proc_await_paths(struct pf_proc *p, const char *const paths[], int n, int64_t timeout_ns,
			char *why, size_t why_size) __attribute__((warn_unused_result));

/*
 * Isolation: code that hands a file to a library which may fault on corrupt
 * input (libtracecmd / libtraceevent on a .dat) runs in a child process, so
 * that a fault becomes one error line, not a crash. The child says what it is
 * doing with pf_isolate_step(); the parent reports that step when the child
 * faults.
 */

/* pf_isolate_state - what an isolated child is doing, in memory its parent shares */
struct pf_isolate_state {
	const char *step;
	unsigned long long at, count;
};

extern struct pf_isolate_state *pf_isolate_now;	/* set in an isolated child only (pf_isolate_step) */

/* pf_isolated - how an isolated call ended when a fault signal ended it */
struct pf_isolated {
	int signal;		/* SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGSYS or SIGTRAP */
	const char *step;	/* the child's last pf_isolate_step text, NULL: none (our own code) */
	unsigned long long at;	/* the number it gave with the step (a file offset, ...) */
	unsigned long long count; /* the count it gave (records read, ...) */
};

/*
 * pf_isolate - run fn(arg) in a child process (no core file, dies with us,
 * stdout / stderr shared) and return its exit code (fn's return value,
 * 0-255). A child ended by a fault signal returns -1 with *out filled in; one
 * ended by another signal (SIGPIPE from a closed reader, SIGINT, SIGTERM)
 * raises it here too, as a filter ends, and returns 128 + signal if we
 * survive it. What the child wrote to stdout is checked there, as main
 * checks its own: a failed write is one line and PF_EXIT_ENV (unless fn
 * returned a worse code). When fork fails, fn runs here. -errno when
 * waiting fails.
 */
int pf_isolate(const char *name, int (*fn)(void *arg), void *arg, struct pf_isolated *out)
	__attribute__((warn_unused_result));

/*
 * pf_isolate_step - inside pf_isolate: the library call starting now ('what',
 * a string literal, or NULL when back in our own code), with a position and
 * a count to report if it faults. Three stores, inline: it runs twice per record
 * of a trace (analysis/trace.c).
 * Outside pf_isolate it does nothing.
 */
static inline void pf_isolate_step(const char *what, unsigned long long at, unsigned long long count)
{
	struct pf_isolate_state *s = pf_isolate_now;

	if (!s)
		return;
	s->step = what;
	s->at = at;
	s->count = count;
}

/* pf_isolate_signame - "SIGSEGV (Segmentation fault)" style name of a signal, for messages */
const char *pf_isolate_signame(int sig, char *buf, size_t size);

/* pf_json_load_at_brace - parse the JSON object a child printed, from the first '{' of a file (NULL on error) */
struct json_t *pf_json_load_at_brace(const char *path);

#endif
