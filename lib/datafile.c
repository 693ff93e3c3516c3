/*
 * datafile.c - the data-file resolver and the program's own path (see
 * datafile.h). The only reader of /proc/self/exe in the suite.
 */
#include "datafile.h"
#include "common.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PF_DATADIR
#define PF_DATADIR "/usr/local/share/preflight"
#endif

/* where an installed data directory's folders are in the source tree */
static const struct {
	const char *installed;	/* "profiles/" */
	const char *source;	/* "app/profiles/" */
} pf_data_dirs[] = {
	{ "budgets/", "budgets/" },
	{ "profiles/", "app/profiles/" },
	{ "scenarios/", "bench/scenarios/" },
};

int pf_self_exe(char *path, size_t size)
{
	ssize_t n;

	if (size < 2)
		return -ENAMETOOLONG;
	n = readlink("/proc/self/exe", path, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	path[n] = '\0';
	return 0;
}

int pf_self_dir(char *dir, size_t size)
{
	int ret = pf_self_exe(dir, size);

	if (ret < 0)
		return ret;
	*strrchr(dir, '/') = '\0';	/* /proc/self/exe is absolute */
	return 0;
}

/* pf_source_name - 'name' as it lies in the source tree ("profiles/x" -> "app/profiles/x") */
static void pf_source_name(const char *name, char *out, size_t size)
{
	size_t i, n;

	for (i = 0; i < PF_ARRAY_SIZE(pf_data_dirs); i++) {
		n = strlen(pf_data_dirs[i].installed);
		if (!strncmp(name, pf_data_dirs[i].installed, n)) {
			snprintf(out, size, "%s%s", pf_data_dirs[i].source, name + n);
			return;
		}
	}
	snprintf(out, size, "%s", name);
}

/*
 * pf_try - 'dir/name' into path when it is a readable file (true); else
 * adds "dir/name (where)" to the list of places searched
 */
static bool pf_try(const char *dir, const char *name, const char *where, char *path, size_t size,
		   char *searched, size_t searched_size)
{
	size_t used = strlen(searched);

	if (!pf_path_join(path, size, dir, name) && !access(path, R_OK))
		return true;
	snprintf(searched + used, searched_size - used, "%s %s/%s (%s)", used ? "," : "searched", dir,
		 name, where);
	return false;
}

int pf_datafile(const char *name, char *path, size_t size)
{
	const char *env = getenv("PREFLIGHT_DATA");
	char tree[4096], rel[4096 + 32], src[1024], searched[4 * 4096 + 192] = "", *slash;

	if (env && *env && pf_try(env, name, "$PREFLIGHT_DATA", path, size, searched, sizeof(searched)))
		return 0;
	if (!pf_self_dir(tree, sizeof(tree))) {
		slash = strrchr(tree, '/');
		if (slash)
			*slash = '\0';	/* build/ -> the source tree, PREFIX/bin -> PREFIX ("" for /bin) */
		pf_source_name(name, src, sizeof(src));
		if (pf_try(tree, src, "build tree", path, size, searched, sizeof(searched)))
			return 0;
		/* installed elsewhere than its DATADIR (DESTDIR, a moved prefix): PREFIX/share/preflight */
		if (snprintf(rel, sizeof(rel), "%s/share/preflight", tree) < (int)sizeof(rel) &&
		    strcmp(rel, PF_DATADIR) &&
		    pf_try(rel, name, "installed beside the program", path, size, searched, sizeof(searched)))
			return 0;
	}
	if (pf_try(PF_DATADIR, name, "installed", path, size, searched, sizeof(searched)))
		return 0;
	snprintf(path, size, "%s", searched);
	return -ENOENT;
}
