/*
 * rec_scan.c - reading the recorder's own raw per-CPU page files before they
 * become a .dat: counting events and missed events, collecting pid -> comm
 * from the sched events' comm fields (threads that exited during the run
 * are named this way), finding a trigger marker, and giving the flight
 * recorder each page's time span.
 *
 * Pages are decoded with libtraceevent's kbuffer, configured from the
 * instance's own header_page through tep_kbuffer().
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <kbuffer.h>
#include <tracefs.h>

/* the sched events that carry comm/pid pairs */
struct rec_comm_field {
	const char *event;
	const char *pid;
	const char *comm;
};

static const struct rec_comm_field rec_comm_fields[] = {
	{ "sched_switch", "prev_pid", "prev_comm" },
	{ "sched_switch", "next_pid", "next_comm" },
	{ "sched_waking", "pid", "comm" },
	{ "sched_wakeup", "pid", "comm" },
	{ "sched_wakeup_new", "pid", "comm" },
	{ "sched_migrate_task", "pid", "comm" },
	{ "sched_process_exit", "pid", "comm" },
	{ "sched_process_fork", "child_pid", "child_comm" },
	{ "sched_process_fork", "parent_pid", "parent_comm" },
};

/* a resolved rec_comm_field */
struct rec_comm_src {
	int type;
	struct tep_format_field *pid, *comm;
};

struct rec_scan {
	struct rec_session *s;
	struct rec_comm_src src[PF_ARRAY_SIZE(rec_comm_fields)];
	int nsrc;
	int print_type, print_buf_off;	/* ftrace:print and its buf field */
	const char *marker;		/* rec_find_marker: text looked for */
	uint64_t marker_ts;
};

/* rec_scan_load_tep - parse the instance's header page and the formats that the scan reads */
int rec_scan_load_tep(struct rec_session *s)
{
	const char *systems[] = { "sched", "ftrace", NULL };
	char dir[PATH_MAX];

	if (s->tep)
		return 0;
	rec_events_dir(s, dir, sizeof(dir));
	s->tep = tracefs_local_events_system(dir, systems);
	return s->tep ? 0 : -EIO;
}

/* rec_scan_init - resolve the event ids and fields the scan uses */
static void rec_scan_init(struct rec_scan *sc, struct rec_session *s)
{
	struct tep_event *ev;
	size_t i;

	memset(sc, 0, sizeof(*sc));
	sc->s = s;
	sc->print_type = -1;
	for (i = 0; i < PF_ARRAY_SIZE(rec_comm_fields); i++) {
		struct rec_comm_src *src = &sc->src[sc->nsrc];

		ev = tep_find_event_by_name(s->tep, "sched", rec_comm_fields[i].event);
		if (!ev)
			continue;
		src->type = ev->id;
		src->pid = tep_find_field(ev, rec_comm_fields[i].pid);
		src->comm = tep_find_field(ev, rec_comm_fields[i].comm);
		if (src->pid && src->comm)
			sc->nsrc++;
	}
	ev = tep_find_event_by_name(s->tep, "ftrace", "print");
	if (ev && tep_find_field(ev, "buf")) {
		sc->print_type = ev->id;
		sc->print_buf_off = tep_find_field(ev, "buf")->offset;
	}
}

/* rec_scan_event - one event: comms, markers */
static int rec_scan_event(struct rec_scan *sc, void *data, int size, uint64_t ts)
{
	struct tep_record rec = { .ts = ts, .data = data, .size = size };
	int type = tep_data_type(sc->s->tep, &rec);
	unsigned long long pid;
	char comm[REC_COMM_LEN + 1];
	int i, ret;

	for (i = 0; i < sc->nsrc; i++) {
		const struct rec_comm_src *src = &sc->src[i];

		if (src->type != type)
			continue;
		if (src->comm->offset + src->comm->size > size ||
		    tep_read_number_field(src->pid, data, &pid) < 0)
			continue;
		snprintf(comm, sizeof(comm), "%.*s", src->comm->size < REC_COMM_LEN ?
			 src->comm->size : REC_COMM_LEN, (char *)data + src->comm->offset);
		if ((ret = rec_comm_set(&sc->s->comms, (int)pid, comm, (int64_t)ts)) < 0)
			return ret;
	}
	if (sc->marker && type == sc->print_type && !sc->marker_ts &&
	    sc->print_buf_off < size &&
	    memmem((char *)data + sc->print_buf_off, size - sc->print_buf_off,
		   sc->marker, strlen(sc->marker)))
		sc->marker_ts = ts;
	return 0;
}

/* rec_scan_file - walk one CPU file page by page, event by event */
static int rec_scan_file(struct rec_scan *sc, int cpu, struct rec_count *count,
			 rec_page_fn page_fn, void *ctx)
{
	struct rec_session *s = sc->s;
	struct kbuffer *kbuf;
	unsigned long long ts;
	long long off = 0;
	char *page;
	void *data;
	ssize_t n;
	int missed, ret = 0;

	kbuf = tep_kbuffer(s->tep);
	page = malloc(s->subbuf_size);
	if (!kbuf || !page) {
		ret = -ENOMEM;
		goto out;
	}
	while ((n = pread(s->cpus[cpu].fd, page, s->subbuf_size, off)) == s->subbuf_size) {
		uint64_t first_ns = 0, last_ns = 0;

		if (kbuffer_load_subbuffer(kbuf, page) < 0) {
			ret = -EINVAL;
			goto out;
		}
		missed = kbuffer_missed_events(kbuf);
		if (missed)	/* -1: events were lost but the page does not say how many */
			count->missed += missed > 0 ? missed : 1;
		for (data = kbuffer_read_event(kbuf, &ts); data;
		     data = kbuffer_next_event(kbuf, &ts)) {
			if (!first_ns)
				first_ns = ts;
			last_ns = ts;
			count->events++;
			if ((ret = rec_scan_event(sc, data, kbuffer_event_size(kbuf), ts)) < 0)
				goto out;
		}
		if (first_ns && (!count->first_ns || first_ns < count->first_ns))
			count->first_ns = first_ns;
		if (last_ns > count->last_ns)
			count->last_ns = last_ns;
		if (page_fn && (ret = page_fn(ctx, cpu, off, first_ns, last_ns)) < 0)
			goto out;
		off += s->subbuf_size;
	}
	if (n < 0)
		ret = -errno;
out:
	free(page);
	if (kbuf)
		kbuffer_free(kbuf);
	return ret;
}

/* rec_scan_cpu_file - scan one CPU's file: counts, comms, and page_fn per page */
int rec_scan_cpu_file(struct rec_session *s, int cpu, struct rec_count *count,
		      rec_page_fn page_fn, void *ctx)
{
	struct rec_scan sc;
	int ret;

	if ((ret = rec_scan_load_tep(s)) < 0)
		return ret;
	rec_scan_init(&sc, s);
	return rec_scan_file(&sc, cpu, count, page_fn, ctx);
}

/* rec_scan_all - scan every CPU's file into one count (and the comm table) */
int rec_scan_all(struct rec_session *s, struct rec_count *count)
{
	int cpu, ret;

	memset(count, 0, sizeof(*count));
	for (cpu = 0; cpu < s->ncpus; cpu++)
		if ((ret = rec_scan_cpu_file(s, cpu, count, NULL, NULL)) < 0)
			return ret;
	return 0;
}

/* rec_find_marker - time of the first ftrace:print holding 'text'; 0, or -ENOENT */
int rec_find_marker(struct rec_session *s, const char *text, uint64_t *ts_ns)
{
	struct rec_count count = { 0 };
	struct rec_scan sc;
	uint64_t best = 0;
	int cpu, ret;

	if ((ret = rec_scan_load_tep(s)) < 0)
		return ret;
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		rec_scan_init(&sc, s);
		sc.marker = text;
		if ((ret = rec_scan_file(&sc, cpu, &count, NULL, NULL)) < 0)
			return ret;
		if (sc.marker_ts && (!best || sc.marker_ts < best))
			best = sc.marker_ts;
	}
	*ts_ns = best;
	return best ? 0 : -ENOENT;
}
