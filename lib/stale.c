/*
 * stale.c - stopping the tracefs instances of dead recorders (stale.h), the
 * first thing every preflight command does. Plain file writes, no
 * libtracefs: the front end links no tracing library for this.
 */
#include "stale.h"
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* the tracefs mounts a recorder's instance may live in */
static const char *const pf_stale_tracefs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

bool pf_stale_owner_alive(long pid)
{
	char path[64], stat[256], *paren;

	if (pid <= 0 || pid > INT32_MAX || (kill((pid_t)pid, 0) < 0 && errno != EPERM))
		return false;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (pf_read_file(path, stat, sizeof(stat)) < 0)
		return true;	/* exists, but /proc says nothing: assume it lives */
	paren = strrchr(stat, ')');
	return !paren || paren[1] != ' ' || paren[2] != 'Z';
}

/* pf_stale_stop_one - tracing_on = 0 in instance 'name' where it exists; 1 when stopped */
static int pf_stale_stop_one(const char *name)
{
	char path[PATH_MAX], on[8];
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(pf_stale_tracefs); i++) {
		snprintf(path, sizeof(path), "%s/instances/%s/tracing_on", pf_stale_tracefs[i], name);
		if (pf_read_file(path, on, sizeof(on)) < 0)
			continue;
		if (on[0] == '0')
			return 0;
		return pf_write_file(path, "0") < 0 ? 0 : 1;
	}
	return 0;
}

int pf_stale_stop(void)
{
	char path[PATH_MAX], text[32];
	struct dirent *d;
	int stopped = 0;
	long pid;
	DIR *dir;

	if (geteuid() != 0 || !(dir = opendir(PF_RECORD_REGISTRY)))
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' ||
		    pf_path_join(path, sizeof(path), PF_RECORD_REGISTRY, d->d_name))
			continue;
		/* an unreadable entry is one being written: its owner lives */
		if (pf_read_file(path, text, sizeof(text)) < 0 || pf_parse_long(text, 1, INT32_MAX, &pid) < 0 ||
		    pf_stale_owner_alive(pid))
			continue;
		stopped += pf_stale_stop_one(d->d_name);
	}
	closedir(dir);
	return stopped;
}
