/*
 * outfile.c - the one way to write an output or evidence file: looked at
 * before anything is written, a regular file replaced atomically and durably
 * (temporary beside it, fsync, rename, fsync of the directory), a device or a
 * FIFO written in place, anything else refused; every write checked. See
 * outfile.h.
 *
 * A stream's file (pf_outfile_open) is written without a name where the file
 * system allows it (O_TMPFILE), linked as the temporary only at its commit: a
 * writer killed by SIGKILL while it writes (a runner's run.json, rewritten
 * after every phase, on an emulated CPU) leaves nothing behind.
 *
 * The files being written live in a small fixed table of slots whose paths
 * are built before the temporary file exists, so a signal handler can remove
 * them with unlink alone (async-signal-safe).
 */
#define _GNU_SOURCE
#include "outfile.h"
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum pf_out_kind {
	PF_OUT_REPLACE,		/* a regular file or a new name: temporary, then rename */
	PF_OUT_INPLACE,		/* a character device or a FIFO: written where it is */
	PF_OUT_STDOUT,		/* "-", /dev/stdout */
};

struct pf_out_slot {
	volatile sig_atomic_t used;	/* the slot holds a file being written */
	volatile sig_atomic_t pending;	/* tmp may exist: a signal removes it */
	enum pf_out_kind kind;
	FILE *f;			/* the stream (pf_outfile_open), or NULL */
	char shown[PATH_MAX];		/* the path as the caller gave it (messages, pf_outfile_end) */
	char path[PATH_MAX];		/* where it ends: the target, symbolic links resolved */
	char tmp[PATH_MAX + 8];		/* path + ".tmp" */
	bool anon;			/* the stream's file has no name yet (O_TMPFILE): tmp is made at its commit */
};

#define PF_OUT_SLOTS 16

static struct pf_out_slot pf_out_slots[PF_OUT_SLOTS];

void pf_outfile_on_signal(void)
{
	int i;

	for (i = 0; i < PF_OUT_SLOTS; i++)
		if (pf_out_slots[i].used && pf_out_slots[i].pending)
			unlink(pf_out_slots[i].tmp);
}

/* pf_out_signal - SIGINT / SIGTERM / SIGHUP: leave no temporary file, then die of the signal */
static void pf_out_signal(int sig)
{
	pf_outfile_on_signal();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* pf_out_handlers - catch the signals that would leave a temporary file, where nobody else does */
static void pf_out_handlers(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	static bool done;
	struct sigaction sa = { .sa_handler = pf_out_signal }, old;
	size_t i;

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < PF_ARRAY_SIZE(sigs); i++)
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_DFL)
			sigaction(sigs[i], &sa, NULL);
}

/* pf_out_is_stdout - is path a name of standard output */
static bool pf_out_is_stdout(const char *path)
{
	return !strcmp(path, "-") || !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/fd/1") ||
	       !strcmp(path, "/proc/self/fd/1");
}

/*
 * pf_out_kind - what path is, and where a replaced file ends (resolved,
 * PATH_MAX); 0, or PF_EXIT_USAGE after one line
 */
static int pf_out_kind(const char *path, enum pf_out_kind *kind, char *resolved)
{
	const char *why;
	struct stat st;

	if (!path || !*path)
		return pf_fail(PF_EXIT_USAGE, "'': refusing to write: an empty file name");
	if (pf_out_is_stdout(path)) {
		*kind = PF_OUT_STDOUT;
		return 0;
	}
	if (stat(path, &st) < 0) {
		if (errno == ENOENT && !lstat(path, &st))
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write: a symbolic link to nothing", path);
		*kind = PF_OUT_REPLACE;	/* a new name (a missing directory: opening it says so) */
		if (snprintf(resolved, PATH_MAX, "%s", path) >= PATH_MAX)
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write: the name is too long", path);
		return 0;
	}
	if (S_ISREG(st.st_mode)) {
		*kind = PF_OUT_REPLACE;
		if (!realpath(path, resolved))
			snprintf(resolved, PATH_MAX, "%s", path);
		return 0;
	}
	if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		*kind = PF_OUT_INPLACE;
		return 0;
	}
	why = S_ISDIR(st.st_mode) ? "it is a directory" : S_ISBLK(st.st_mode) ? "it is a block device" :
	      S_ISSOCK(st.st_mode) ? "it is a socket" : "it is not a file, a character device or a FIFO";
	return pf_fail(PF_EXIT_USAGE, "%s: refusing to write: %s (a file, a new name, a character "
		       "device, a FIFO or '-' for stdout)", path, why);
}

int pf_outfile_check(const char *path, bool need_dir)
{
	char resolved[PATH_MAX], *slash;
	enum pf_out_kind kind;
	struct stat st;
	int ret = pf_out_kind(path, &kind, resolved);

	if (ret || kind != PF_OUT_REPLACE || !need_dir)
		return ret;
	/* the directory it goes in must be one: found now, not after the work */
	slash = strrchr(resolved, '/');
	if (!slash)
		return 0;
	slash[slash == resolved] = '\0';
	if (stat(resolved, &st) < 0)
		return pf_fail(PF_EXIT_USAGE, "%s: cannot write: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return pf_fail(PF_EXIT_USAGE, "%s: cannot write: %s", path, strerror(ENOTDIR));
	return 0;
}

int pf_outfile_fail(const char *path, int err)
{
	return pf_fail(PF_EXIT_ENV, "%s: cannot write: %s", pf_out_is_stdout(path) ? "stdout" : path,
		       strerror(err ? err : EIO));
}

/* pf_out_release - the slot is free again */
static void pf_out_release(struct pf_out_slot *s)
{
	s->pending = 0;
	s->anon = false;
	s->f = NULL;
	s->used = 0;
}

/*
 * pf_out_start - take a slot for path and make its file: the temporary
 * (exclusively; a temporary left by a killed writer is removed first) or the
 * device opened in place; the slot and its fd (-1 for stdout), or NULL and an
 * exit code in *code after one line
 */
static struct pf_out_slot *pf_out_start(const char *path, int *fd, int *code)
{
	struct pf_out_slot *s = NULL;
	int i, flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;

	*fd = -1;
	for (i = 0; i < PF_OUT_SLOTS && !s; i++)
		if (!pf_out_slots[i].used)
			s = &pf_out_slots[i];
	if (!s) {
		*code = pf_fail(PF_EXIT_INTERNAL, "%s: more than %d files written at once", path, PF_OUT_SLOTS);
		return NULL;
	}
	if ((*code = pf_out_kind(path, &s->kind, s->path)))
		return NULL;
	snprintf(s->shown, sizeof(s->shown), "%s", s->kind == PF_OUT_STDOUT ? "stdout" : path);
	if (s->kind == PF_OUT_STDOUT) {
		s->used = 1;
		return s;
	}
	if (s->kind == PF_OUT_INPLACE) {
		*fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		if (*fd < 0) {
			*code = pf_outfile_fail(path, errno);
			return NULL;
		}
		s->used = 1;
		return s;
	}
	if (snprintf(s->tmp, sizeof(s->tmp), "%s.tmp", s->path) >= (int)sizeof(s->tmp)) {
		*code = pf_fail(PF_EXIT_USAGE, "%s: refusing to write: the name is too long", path);
		return NULL;
	}
	pf_out_handlers();
	s->used = 1;
	s->pending = 1;
	*fd = open(s->tmp, flags, 0666);
	if (*fd < 0 && errno == EEXIST && !unlink(s->tmp))
		*fd = open(s->tmp, flags, 0666);
	if (*fd < 0) {
		/* no such directory: a wrong name given, not the environment */
		*code = errno == ENOENT || errno == ENOTDIR ?
			pf_fail(PF_EXIT_USAGE, "%s: cannot write: %s", path, strerror(errno)) :
			pf_outfile_fail(path, errno);
		s->pending = 0;
		s->used = 0;
		return NULL;
	}
	return s;
}

/* pf_out_sync_dir - fsync the directory holding path (its rename made durable); 0 or errno */
static int pf_out_sync_dir(const char *path)
{
	char dir[PATH_MAX], *slash;
	int fd, err = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (fsync(fd) < 0 && errno != EINVAL)
		err = errno;
	close(fd);
	return err;
}

/* pf_out_kill_hook - tests: die by SIGKILL between the last write and the rename */
static void pf_out_kill_hook(const char *path)
{
	const char *want = getenv("PREFLIGHT_TEST_OUTFILE_KILL");
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (want && (!strcmp(want, "1") || !strcmp(want, base)))
		raise(SIGKILL);
}

/* pf_out_finish - the slot's file is written (err: or failed): rename it into place; 0 or PF_EXIT_ENV */
static int pf_out_finish(struct pf_out_slot *s, int err)
{
	int ret;

	if (s->kind == PF_OUT_REPLACE) {
		if (!err) {
			pf_out_kill_hook(s->path);
			if (rename(s->tmp, s->path) < 0)
				err = errno;
			else
				s->pending = 0;
		}
		if (err)
			unlink(s->tmp);
		else
			err = pf_out_sync_dir(s->path);
	}
	ret = err ? pf_outfile_fail(s->shown, err) : 0;
	pf_out_release(s);
	return ret;
}

/* pf_out_drop_stdout - stdout's failed or abandoned output is said once: nothing is left for the exit to flush */
static void pf_out_drop_stdout(void)
{
	__fpurge(stdout);
	clearerr(stdout);
}

/*
 * pf_out_anon - a stream's file made without a name in the target's directory (O_TMPFILE), its
 * named temporary removed: a writer killed while it writes leaves nothing; the name is linked at
 * the commit, just before the rename. Where the file system or /proc cannot do it, the named
 * temporary stays.
 */
static void pf_out_anon(struct pf_out_slot *s, int *fd)
{
	char dir[PATH_MAX], *slash;
	int afd;

	if (s->kind != PF_OUT_REPLACE || access("/proc/self/fd", X_OK))
		return;
	snprintf(dir, sizeof(dir), "%s", s->path);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = '\0';
	afd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	if (afd < 0)
		return;
	close(*fd);
	unlink(s->tmp);
	s->pending = 0;
	s->anon = true;
	*fd = afd;
}

/* pf_out_link - the anonymous file gets its temporary name (a leftover of a killed writer replaced); 0 or errno */
static int pf_out_link(struct pf_out_slot *s, int fd)
{
	char proc[64];

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	s->pending = 1;
	if (!linkat(AT_FDCWD, proc, AT_FDCWD, s->tmp, AT_SYMLINK_FOLLOW))
		return 0;
	if (errno == EEXIST && !unlink(s->tmp) && !linkat(AT_FDCWD, proc, AT_FDCWD, s->tmp, AT_SYMLINK_FOLLOW))
		return 0;
	s->pending = 0;
	return errno;
}

int pf_outfile_open(const char *path, FILE **f)
{
	struct pf_out_slot *s;
	int fd, code;

	*f = NULL;
	s = pf_out_start(path, &fd, &code);
	if (!s)
		return code;
	pf_out_anon(s, &fd);
	if (s->kind == PF_OUT_STDOUT) {
		s->f = stdout;
	} else if (!(s->f = fdopen(fd, "w"))) {
		code = pf_outfile_fail(path, errno);
		close(fd);
		if (s->kind == PF_OUT_REPLACE)
			unlink(s->tmp);
		pf_out_release(s);
		return code;
	}
	*f = s->f;
	return 0;
}

/* pf_out_find - the slot of stream f (f != NULL) or of path; NULL when there is none */
static struct pf_out_slot *pf_out_find(FILE *f, const char *path)
{
	int i;

	for (i = 0; i < PF_OUT_SLOTS; i++)
		if (pf_out_slots[i].used &&
		    (f ? pf_out_slots[i].f == f : !pf_out_slots[i].f && !strcmp(pf_out_slots[i].shown, path)))
			return &pf_out_slots[i];
	return NULL;
}

int pf_outfile_commit(FILE *f)
{
	struct pf_out_slot *s = pf_out_find(f, NULL);
	int err = 0;

	if (!s)
		return f ? pf_fail(PF_EXIT_INTERNAL, "pf_outfile_commit: a stream it did not open") : 0;
	errno = 0;
	if (fflush(f) || ferror(f))
		err = errno ? errno : EIO;
	if (!err && s->kind == PF_OUT_REPLACE && fsync(fileno(f)) < 0)
		err = errno;
	if (!err && s->anon)
		err = pf_out_link(s, fileno(f));
	if (f != stdout && fclose(f) && !err)
		err = errno ? errno : EIO;
	if (f == stdout && err)
		pf_out_drop_stdout();
	return pf_out_finish(s, err);
}

void pf_outfile_abort(FILE *f)
{
	struct pf_out_slot *s = f ? pf_out_find(f, NULL) : NULL;

	if (!s)
		return;
	if (f != stdout)
		fclose(f);
	else
		pf_out_drop_stdout();
	if (s->kind == PF_OUT_REPLACE)
		unlink(s->tmp);
	pf_out_release(s);
}

int pf_outfile_begin(const char *path, const char **name)
{
	struct pf_out_slot *s;
	int fd, code;

	if (path && pf_out_is_stdout(path))
		return pf_fail(PF_EXIT_USAGE, "%s: refusing to write: this file cannot go to stdout", path);
	s = pf_out_start(path, &fd, &code);
	if (!s)
		return code;
	close(fd);
	*name = s->kind == PF_OUT_REPLACE ? s->tmp : s->shown;
	return 0;
}

int pf_outfile_end(const char *path, bool ok)
{
	struct pf_out_slot *s = pf_out_find(NULL, path);
	int fd, err = 0;

	if (!s)
		return 0;
	if (!ok) {
		if (s->kind == PF_OUT_REPLACE)
			unlink(s->tmp);
		pf_out_release(s);
		return 0;
	}
	if (s->kind == PF_OUT_REPLACE) {
		fd = open(s->tmp, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fsync(fd) < 0)
			err = errno;
		if (fd >= 0)
			close(fd);
	}
	return pf_out_finish(s, err);
}

int pf_outfile_json(const char *path, const json_t *doc, size_t flags)
{
	FILE *f;
	int ret = pf_outfile_open(path, &f);

	if (ret)
		return ret;
	if (json_dumpf(doc, f, flags) < 0 || (f == stdout && fputc('\n', f) == EOF)) {
		ret = pf_outfile_fail(path, errno);
		pf_outfile_abort(f);
		return ret;
	}
	return pf_outfile_commit(f);
}

int pf_outfile_data(const char *path, const void *buf, size_t len)
{
	FILE *f;
	int ret = pf_outfile_open(path, &f);

	if (ret)
		return ret;
	if (len && fwrite(buf, 1, len, f) != len) {
		ret = pf_outfile_fail(path, errno);
		pf_outfile_abort(f);
		return ret;
	}
	return pf_outfile_commit(f);
}

int pf_outfile_copy(const char *src, const char *path)
{
	char buf[65536];
	FILE *in, *f;
	size_t n;
	int ret;

	in = fopen(src, "re");
	if (!in)
		return pf_fail(PF_EXIT_ENV, "%s: cannot read: %s", src, strerror(errno));
	ret = pf_outfile_open(path, &f);
	while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		if (fwrite(buf, 1, n, f) != n)
			ret = pf_outfile_fail(path, errno);
	if (!ret && ferror(in))
		ret = pf_fail(PF_EXIT_ENV, "%s: cannot read: %s", src, strerror(errno ? errno : EIO));
	fclose(in);
	if (f && ret)
		pf_outfile_abort(f);
	else if (f)
		ret = pf_outfile_commit(f);
	return ret;
}

int pf_stdout_close(void)
{
	int err = 0;

	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		err = errno ? errno : EIO;
	if (fclose(stdout) && !err && errno != EBADF)
		err = errno ? errno : EIO;
	return err ? pf_fail(PF_EXIT_ENV, "stdout: cannot write: %s", strerror(err)) : 0;
}
