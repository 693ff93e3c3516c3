/*
 * rec_comm.c - the pid -> comm table written into the .dat "cmdlines"
 * section, so that a report names every thread, including the ones that
 * exited during the run.
 *
 * Observations come from three places, each stamped with the trace-clock
 * time it was made at, and the newest one wins (a thread renamed with
 * pthread_setname_np shows its final name): the kernel's saved_cmdlines at
 * the end (oldest), periodic scans of /proc/<pid>/task/<tid>/comm while the
 * run goes on, and the comm fields of the recorded sched events (rec_scan.c).
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* rec_comm_find - the slot of 'pid', or the free slot where it belongs */
static struct rec_comm *rec_comm_find(const struct rec_comms *c, int pid)
{
	size_t i = ((size_t)pid * 2654435761u) & (c->size - 1);

	while (c->slot[i].pid && c->slot[i].pid != pid)
		i = (i + 1) & (c->size - 1);
	return &c->slot[i];
}

/*
 * rec_comm_rehash - the table moved into one of 'size' slots (a power of
 * two, at least twice the entries kept), keeping the entries observed at or
 * after since_ns
 */
static int rec_comm_rehash(struct rec_comms *c, size_t size, int64_t since_ns)
{
	struct rec_comms moved = { .size = size };
	size_t i;

	moved.slot = calloc(moved.size, sizeof(*moved.slot));
	if (!moved.slot)
		return -ENOMEM;
	for (i = 0; i < c->size; i++)
		if (c->slot[i].pid && c->slot[i].seen_ns >= since_ns) {
			*rec_comm_find(&moved, c->slot[i].pid) = c->slot[i];
			moved.used++;
		}
	free(c->slot);
	*c = moved;
	return 0;
}

/* rec_comm_grow - double the table (or create it) */
static int rec_comm_grow(struct rec_comms *c)
{
	return rec_comm_rehash(c, c->size ? c->size * 2 : 1024, INT64_MIN);
}

/*
 * rec_comm_forget - drop what was last observed before since_ns: a flight
 * recorder's snapshot names the threads of its window and the live ones, so
 * over hours of short-lived load processes the table stays the size of one
 * window instead of growing with every pid the run ever saw
 */
int rec_comm_forget(struct rec_comms *c, int64_t since_ns)
{
	size_t kept = 0, size = 1024, i;

	for (i = 0; i < c->size; i++)
		kept += c->slot[i].pid && c->slot[i].seen_ns >= since_ns;
	while (size < 2 * (kept + 1))
		size *= 2;
	return c->size ? rec_comm_rehash(c, size, since_ns) : 0;
}

/* rec_comm_set - record that 'pid' was called 'comm' at seen_ns; older news is ignored */
int rec_comm_set(struct rec_comms *c, int pid, const char *comm, int64_t seen_ns)
{
	struct rec_comm *e;
	int ret;

	if (pid <= 0 || !comm || !*comm)
		return 0;
	if ((c->used + 1) * 2 > c->size && (ret = rec_comm_grow(c)) < 0)
		return ret;
	e = rec_comm_find(c, pid);
	if (e->pid && e->seen_ns > seen_ns)
		return 0;
	if (!e->pid)
		c->used++;
	e->pid = pid;
	e->seen_ns = seen_ns;
	snprintf(e->comm, sizeof(e->comm), "%.*s", REC_COMM_LEN, comm);
	e->comm[strcspn(e->comm, "\n")] = '\0';
	return 0;
}

/* rec_comm_get - the comm of 'pid', or NULL */
const char *rec_comm_get(const struct rec_comms *c, int pid)
{
	const struct rec_comm *e;

	if (!c->size)
		return NULL;
	e = rec_comm_find(c, pid);
	return e->pid ? e->comm : NULL;
}

void rec_comm_free(struct rec_comms *c)
{
	free(c->slot);
	memset(c, 0, sizeof(*c));
}

/* rec_comm_scan_proc - every live thread's comm from /proc, stamped now */
int rec_comm_scan_proc(struct rec_comms *c)
{
	int64_t now_ns = pf_now_ns();
	struct dirent *p, *t;
	DIR *proc, *task;
	char path[600], comm[64];
	long tid;
	int ret = 0;

	proc = opendir("/proc");
	if (!proc)
		return -errno;
	while (!ret && (p = readdir(proc))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", p->d_name);
		task = opendir(path);
		if (!task)
			continue;	/* exited meanwhile */
		while (!ret && (t = readdir(task))) {
			if (pf_parse_long(t->d_name, 1, INT32_MAX, &tid) < 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%s/task/%s/comm", p->d_name, t->d_name);
			if (pf_read_file(path, comm, sizeof(comm)) > 0)
				ret = rec_comm_set(c, (int)tid, comm, now_ns);
		}
		closedir(task);
	}
	closedir(proc);
	return ret;
}

/* rec_comm_read_saved - the kernel's saved_cmdlines ("pid comm" lines), stamped 0 */
int rec_comm_read_saved(struct rec_comms *c, const char *tracing_dir)
{
	char path[PATH_MAX], line[128], comm[64];
	int pid, ret = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracing_dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (!ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "%d %63[^\n]", &pid, comm) == 2 && strcmp(comm, "<...>"))
			ret = rec_comm_set(c, pid, comm, 0);
	fclose(f);
	return ret;
}

/* rec_comm_write - the table in saved_cmdlines format, for libtracecmd to copy */
int rec_comm_write(const struct rec_comms *c, const char *path)
{
	FILE *f = fopen(path, "we");
	size_t i;
	int ret = 0;

	if (!f)
		return -errno;
	for (i = 0; i < c->size; i++)
		if (c->slot[i].pid)
			fprintf(f, "%d %s\n", c->slot[i].pid, c->slot[i].comm);
	if (ferror(f))
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
