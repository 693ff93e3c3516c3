/*
 * outguard.c - refuse to write over inputs and over a run's evidence. Every
 * command that writes a file (analyze -o / --csv, check -o, summary -o,
 * report -o / --pdf, compare --tap / --junit / --json / --md, baseline -o,
 * history --csv / --plot) asks pf_out_guard first, for every path it will
 * write, before it writes anything; what can be written at all (a file, a
 * device, a FIFO, not a directory) is lib/outfile.c's rule. See outguard.h.
 *
 * Paths are compared in their canonical form (realpath: links and "..",
 * resolved; a file that does not exist yet by its directory's), and an
 * existing file also by device and inode, so a hard link to an input is
 * caught too. A run's SHA256SUMS (sha256sum's output: "<hex>  ./03-app/jobs.csv",
 * relative to the directory holding it) is looked for in the output's
 * directory and every directory above it: a phase directory's files are
 * listed in the run directory's SHA256SUMS.
 */
#define _GNU_SOURCE
#include "outguard.h"
#include "common.h"
#include "outfile.h"

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* pf_out_canon - the canonical absolute form of path, which need not exist (its directory must); 0 or -errno */
static int pf_out_canon(const char *path, char *out)
{
	char dir[PATH_MAX], base[PATH_MAX], real[PATH_MAX];

	if (realpath(path, out))
		return 0;
	if (errno != ENOENT || strlen(path) >= sizeof(dir))
		return -errno;
	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s", path);
	if (!realpath(dirname(dir), real))
		return -errno;
	if (snprintf(out, PATH_MAX, "%s%s%s", real, strcmp(real, "/") ? "/" : "",
		     basename(base)) >= PATH_MAX)
		return -ENAMETOOLONG;
	return 0;
}

/* pf_out_same - are a and b (canonical) the same file: by name, or by device and inode */
static bool pf_out_same(const char *a, const char *b)
{
	struct stat sa, sb;

	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* pf_out_listed - does the SHA256SUMS 'sums' (in directory dir) list the file 'canon' */
static bool pf_out_listed(const char *sums, const char *dir, const char *canon)
{
	char line[PATH_MAX + 128], entry[PATH_MAX * 2], real[PATH_MAX];
	bool found = false;
	char *name, *nl;
	FILE *f = fopen(sums, "re");

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		/* "<hex>  name" (text) or "<hex> *name" (binary); names with '\n' are escaped: skipped */
		name = strchr(line, ' ');
		if (!name || line[0] == '\\' || (name[1] != ' ' && name[1] != '*'))
			continue;
		name += 2;
		nl = strchr(name, '\n');
		if (nl)
			*nl = '\0';
		while (name[0] == '.' && name[1] == '/')
			name += 2;
		if (!*name)
			continue;
		if (pf_path_join(entry, sizeof(entry), dir, name))
			continue;	/* longer than a path: no file of ours */
		found = pf_out_same(canon, entry) ||
			(strlen(entry) < PATH_MAX && realpath(entry, real) && !strcmp(real, canon));
	}
	fclose(f);
	return found;
}

int pf_out_guard(const char *path, const char *const *inputs, size_t ninputs)
{
	char canon[PATH_MAX], in[PATH_MAX], dir[PATH_MAX], sums[PATH_MAX + 16];
	struct stat st;
	size_t i;
	char *slash;
	int ret;

	if (!path || !strcmp(path, "-"))
		return 0;
	if ((ret = pf_outfile_check(path, false)))
		return ret;	/* a directory, a block device, a socket: refused before anything is done */
	if (pf_out_canon(path, canon))
		return 0;	/* its directory does not exist: opening it will say so; nothing there to lose */
	if (!stat(canon, &st) && !S_ISREG(st.st_mode))
		return 0;	/* a device or a pipe (/dev/null): written to, never replaced */
	for (i = 0; i < ninputs; i++) {
		if (!inputs[i] || !strcmp(inputs[i], "-") || pf_out_canon(inputs[i], in))
			continue;
		if (pf_out_same(canon, in))
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write over an input of this command (%s)",
				       path, inputs[i]);
	}
	snprintf(dir, sizeof(dir), "%s", canon);
	while ((slash = strrchr(dir, '/'))) {
		slash[slash == dir] = '\0';	/* keep "/" itself */
		snprintf(sums, sizeof(sums), "%s%sSHA256SUMS", dir, strcmp(dir, "/") ? "/" : "");
		if (!strcmp(sums, canon) && !access(sums, F_OK))
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write over a run's checksums (SHA256SUMS)",
				       path);
		if (pf_out_listed(sums, dir, canon))
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write over a run's evidence: %s lists it",
				       path, sums);
		if (!strcmp(dir, "/"))
			break;
	}
	return 0;
}

int pf_out_guard_dir(const char *path)
{
	char dir[PATH_MAX], sums[PATH_MAX + 16];
	char *slash;

	if (pf_out_canon(path, dir))
		return 0;	/* its parent does not exist: making it will say so */
	for (;;) {
		snprintf(sums, sizeof(sums), "%s%sSHA256SUMS", dir, strcmp(dir, "/") ? "/" : "");
		if (!access(sums, F_OK))
			return pf_fail(PF_EXIT_USAGE, "%s: refusing to write into a run's evidence directory (%s)",
				       path, sums);
		slash = strrchr(dir, '/');
		if (!slash || !strcmp(dir, "/"))
			break;
		slash[slash == dir] = '\0';	/* keep "/" itself */
	}
	return 0;
}
