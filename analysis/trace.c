/*
 * trace.c - streaming a trace-cmd .dat file (v6 or v7, compressed or not,
 * with every buffer instance it holds) in time order, decoding only the
 * fields the analysis needs and handing them to sched.c (scheduler, IRQ,
 * timer events), tasks.c (the app's markers) and timerlat.c (the timerlat
 * tracer's samples and osnoise events).
 *
 * libtracecmd opens the file (headers, formats, options). Its records come
 * from the direct page decoder (traces/rec_pages.c: a v6 file's pages,
 * every CPU of every buffer merged, no allocation per record) or, with
 * --decoder=libtracecmd and for a file the decoder does not know, from
 * tracecmd_iterate_events_multi: the same records in the same order. Each
 * is dispatched by its event id through a table built once, and fields are
 * read at offsets looked up once per event format. Lost events: the
 * per-CPU statistics stored in the file (overrun, dropped events) and each
 * record's missed_events.
 */
#define _GNU_SOURCE
#include "trace.h"
#include "sched.h"
#include "cyclictest_wakeups.h"
#include "tasks.h"
#include "results.h"
#include "rt.h"
#include "timerlat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <fcntl.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#include "traces/rec_cut.h"
#include "traces/rec_pages.h"
#include "traces/rec_read.h"
#include "proc.h"

enum an_ev {
	AN_EV_NONE, AN_EV_SWITCH, AN_EV_WAKING, AN_EV_WAKEUP, AN_EV_MIGRATE,
	AN_EV_IRQ_ENTRY, AN_EV_IRQ_EXIT, AN_EV_SOFTIRQ_ENTRY, AN_EV_SOFTIRQ_EXIT,
	AN_EV_HRTIMER_ENTRY, AN_EV_HRTIMER_EXIT, AN_EV_PRINT, AN_EV_RAW, AN_EV_HRTIMER_START,
	AN_EV_WAKEUP_NEW, AN_EV_VEC_ENTRY, AN_EV_VEC_EXIT, AN_EV_EXIT, AN_EV_PI_SETPRIO,
	AN_EV_TIMERLAT, AN_EV_IRQ_NOISE, AN_EV_SOFTIRQ_NOISE, AN_EV_THREAD_NOISE,
	AN_EV_COUNT,
	AN_EV_UNKNOWN = 0xff	/* an id without a format: corrupt data */
};

static const struct { const char *sys, *name; } an_ev_names[AN_EV_COUNT] = {
	[AN_EV_SWITCH]        = { "sched", "sched_switch" },
	[AN_EV_WAKING]        = { "sched", "sched_waking" },
	[AN_EV_WAKEUP]        = { "sched", "sched_wakeup" },
	[AN_EV_MIGRATE]       = { "sched", "sched_migrate_task" },
	[AN_EV_IRQ_ENTRY]     = { "irq", "irq_handler_entry" },
	[AN_EV_IRQ_EXIT]      = { "irq", "irq_handler_exit" },
	[AN_EV_SOFTIRQ_ENTRY] = { "irq", "softirq_entry" },
	[AN_EV_SOFTIRQ_EXIT]  = { "irq", "softirq_exit" },
	[AN_EV_HRTIMER_ENTRY] = { "timer", "hrtimer_expire_entry" },
	[AN_EV_HRTIMER_EXIT]  = { "timer", "hrtimer_expire_exit" },
	[AN_EV_PRINT]         = { "ftrace", "print" },
	[AN_EV_RAW]           = { "ftrace", "raw_data" },
	[AN_EV_HRTIMER_START] = { "timer", "hrtimer_start" },
	[AN_EV_WAKEUP_NEW]    = { "sched", "sched_wakeup_new" },
	/* the first of an_vec_names, the field offsets of the others' common class */
	[AN_EV_VEC_ENTRY]     = { "irq_vectors", "local_timer_entry" },
	[AN_EV_VEC_EXIT]      = { "irq_vectors", "local_timer_exit" },
	[AN_EV_EXIT]          = { "sched", "sched_process_exit" },
	[AN_EV_PI_SETPRIO]    = { "sched", "sched_pi_setprio" },	/* priority inheritance (rt.c) */
	/* the timerlat tracer's samples and its osnoise accounting (timerlat.c) */
	[AN_EV_TIMERLAT]      = { "ftrace", "timerlat" },
	[AN_EV_IRQ_NOISE]     = { "osnoise", "irq_noise" },
	[AN_EV_SOFTIRQ_NOISE] = { "osnoise", "softirq_noise" },
	[AN_EV_THREAD_NOISE]  = { "osnoise", "thread_noise" },
};

/*
 * x86's system interrupts, which bypass irq_handler_entry / exit: each
 * NAME_entry / NAME_exit pair of irq_vectors is a hard IRQ (AN_EV_VEC_ENTRY,
 * AN_EV_VEC_EXIT), named NAME, its number the vector's negated (sched.c)
 */
static const char *const an_vec_names[] = {
	"local_timer", "reschedule", "call_function", "call_function_single", "irq_work",
	"x86_platform_ipi", "thermal_apic", "error_apic", "spurious_apic",
};
#define AN_NVEC PF_ARRAY_SIZE(an_vec_names)

/* Fields read, by role; not every event has every role. */
enum an_fld {
	F_PID, F_COMM, F_PRIO, F_CPU,			/* waking, wakeup, migrate (CPU = dest) */
	F_PREV_PID, F_PREV_COMM, F_PREV_PRIO, F_PREV_STATE,
	F_NEXT_PID, F_NEXT_COMM, F_NEXT_PRIO,
	F_IRQ, F_NAME, F_VEC, F_BUF, F_ID, F_NOW,
	F_EXPIRES,					/* hrtimer_start */
	F_OLDPRIO, F_NEWPRIO,				/* sched_pi_setprio (and F_PID) */
	F_SEQ, F_CONTEXT, F_LATENCY,			/* timerlat */
	F_START, F_DURATION,				/* osnoise (and F_NAME, F_VEC, F_COMM, F_PID) */
	F_COUNT
};

struct an_field {
	int  offset, size;
	bool dynamic, relative, present;
};

struct an_evfmt {
	struct an_field f[F_COUNT];
};

/* an_reader - the per-file state of one pass */
struct an_reader {
	struct an_run *r;
	const char *path;
	struct tep_handle *tep;
	int nids;
	uint8_t *kind;			/* event id -> enum an_ev */
	struct an_evfmt fmt[AN_EV_COUNT];
	int64_t *cpu_last_ns;		/* last record per CPU, for lost windows */
	int err;			/* exit code when a record stopped the pass */
	bool swap;			/* file byte order differs from ours */
	bool window;			/* a flight-recorder window (docs/recorder.md) */
	bool mono;			/* the trace clock is CLOCK_MONOTONIC, hrtimer 'now's clock */
	unsigned long long last_offset;	/* file offset of the last record read */
	const char *step;		/* what reads the records, for the report of a fault (pf_isolate) */
	dev_t dev;			/* the file, to find libtracecmd's mappings of it */
	const char *base;		/* its name without directories */
	ino_t ino;
	/* by enum an_ev: the record size from which every field is read directly, 0 never (an_fast_setup) */
	int fast_min[AN_EV_COUNT];
	int vec_id[AN_NVEC];		/* by an_vec_names: the entry event's id, -1 none */
};

/* What reads the records, for the report of a fault in it (pf_isolate). */
#define AN_STEP_ITERATE "libtracecmd (tracecmd_iterate_events_multi, kbuffer) reading the CPU data"
#define AN_STEP_PAGES "the direct page decoder (traces/rec_pages.c) reading the CPU data"

#define AN_TRIM_EVENTS (1 << 20)	/* records between two trims of the file mappings */
#define AN_SWEEP_EVENTS (1 << 16)	/* records between two sweeps of the dead threads (an_threads_sweep) */

/*
 * an_trim_maps - keep memory independent of the trace length: libtracecmd
 * maps the CPU data in large chunks and keeps them mapped, so the pages it
 * read stay resident. Dropping them (MADV_DONTNEED on a read-only file
 * mapping) is safe - a page still in use is faulted back from the page
 * cache, with the same content - and bounds the resident set to what was
 * read since the last trim.
 */
static void an_trim_maps(struct an_reader *rd)
{
	char line[512];
	unsigned long lo, hi, off;	/* addresses: the width of a pointer */
	unsigned long long ino;		/* 64 bits on a 32-bit target too */
	unsigned maj, min;
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, rd->base) ||
		    sscanf(line, "%lx-%lx %*s %lx %x:%x %llu", &lo, &hi, &off, &maj, &min, &ino) != 6)
			continue;
		if (ino == rd->ino && makedev(maj, min) == rd->dev)
			madvise((void *)lo, hi - lo, MADV_DONTNEED);
	}
	fclose(f);
}

/* an_field_set - find one field of an event format */
static void an_field_set(struct tep_event *ev, struct an_field *f, const char *name)
{
	struct tep_format_field *ff = tep_find_field(ev, name);

	if (!ff)
		return;
	f->present = true;
	f->offset = ff->offset;
	f->size = ff->size;
	f->dynamic = ff->flags & TEP_FIELD_IS_DYNAMIC;
#ifdef TEP_FIELD_IS_RELATIVE
	f->relative = ff->flags & TEP_FIELD_IS_RELATIVE;
#endif
}

/* an_fast_field - the end of a field read directly: a number of 'size' bytes, or a comm[16]; -1 when it is not such a field */
static int an_fast_field(const struct an_field *f, int size)
{
	if (!f->present || f->dynamic || f->size != size)
		return -1;
	return f->offset + size;
}

/*
 * an_fast_setup - sched_switch, sched_waking and sched_wakeup in the
 * kernel's usual layout (file in our byte order, 32-bit pids and
 * priorities, comm[16], an 8- or 4-byte prev_state) are read without a
 * check per field once the record holds them all: the same values as
 * an_num / an_sign / an_comm give, fewer branches on the per-event path
 */
static void an_fast_setup(struct an_reader *rd)
{
	static const struct { int fld, size; } sw[] = {
		{ F_PREV_PID, 4 }, { F_PREV_COMM, 16 }, { F_PREV_PRIO, 4 }, { F_NEXT_PID, 4 },
		{ F_NEXT_COMM, 16 }, { F_NEXT_PRIO, 4 },
	}, wk[] = { { F_PID, 4 }, { F_COMM, 16 }, { F_PRIO, 4 } };
	const struct an_field *f;
	int ev, end, min;
	size_t k;

	if (rd->swap)
		return;
	f = rd->fmt[AN_EV_SWITCH].f;
	min = an_fast_field(&f[F_PREV_STATE], 8) >= 0 ? an_fast_field(&f[F_PREV_STATE], 8) :
	      an_fast_field(&f[F_PREV_STATE], 4);
	for (k = 0; k < PF_ARRAY_SIZE(sw) && min >= 0; k++) {
		end = an_fast_field(&f[sw[k].fld], sw[k].size);
		min = end < 0 ? -1 : end > min ? end : min;
	}
	rd->fast_min[AN_EV_SWITCH] = min > 0 ? min : 0;
	for (ev = AN_EV_WAKING; ev <= AN_EV_WAKEUP; ev++) {
		f = rd->fmt[ev].f;
		for (k = 0, min = 0; k < PF_ARRAY_SIZE(wk) && min >= 0; k++) {
			end = an_fast_field(&f[wk[k].fld], wk[k].size);
			min = end < 0 ? -1 : end > min ? end : min;
		}
		rd->fast_min[ev] = min > 0 ? min : 0;
	}
}

/* an_i32 - a 32-bit signed number at p (our byte order) */
static inline int an_i32(const void *p)
{
	int32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * an_vec_setup - every irq_vectors pair of an_vec_names whose 'vector' field
 * lies where local_timer's does (the class the kernel declares them with)
 */
static void an_vec_setup(struct an_reader *rd)
{
	const struct an_field *want = &rd->fmt[AN_EV_VEC_ENTRY].f[F_VEC];
	struct tep_format_field *ff;
	struct tep_event *ev;
	char name[48];
	size_t k;
	int side;

	for (k = 0; k < AN_NVEC; k++) {
		rd->vec_id[k] = -1;
		for (side = 0; side < 2 && want->present; side++) {
			snprintf(name, sizeof(name), "%s_%s", an_vec_names[k], side ? "exit" : "entry");
			ev = tep_find_event_by_name(rd->tep, "irq_vectors", name);
			ff = ev ? tep_find_field(ev, "vector") : NULL;
			if (!ff || ff->offset != want->offset || ff->size != want->size || !rd->fmt[AN_EV_VEC_EXIT].f[F_VEC].present)
				break;
			rd->kind[ev->id] = side ? AN_EV_VEC_EXIT : AN_EV_VEC_ENTRY;
			if (!side)
				rd->vec_id[k] = ev->id;
		}
	}
}

/* an_vec_name - the name of irq_vectors entry event 'id' */
static const char *an_vec_name(const struct an_reader *rd, int id)
{
	size_t k;

	for (k = 0; k < AN_NVEC; k++)
		if (rd->vec_id[k] == id)
			return an_vec_names[k];
	return "vector";
}

/* an_reader_setup - the dispatch table and field offsets for this file's formats */
static int an_reader_setup(struct an_reader *rd)
{
	static const struct { int ev; int fld; const char *name; } map[] = {
		{ AN_EV_SWITCH, F_PREV_PID, "prev_pid" }, { AN_EV_SWITCH, F_PREV_COMM, "prev_comm" },
		{ AN_EV_SWITCH, F_PREV_PRIO, "prev_prio" }, { AN_EV_SWITCH, F_PREV_STATE, "prev_state" },
		{ AN_EV_SWITCH, F_NEXT_PID, "next_pid" }, { AN_EV_SWITCH, F_NEXT_COMM, "next_comm" },
		{ AN_EV_SWITCH, F_NEXT_PRIO, "next_prio" },
		{ AN_EV_WAKING, F_PID, "pid" }, { AN_EV_WAKING, F_COMM, "comm" }, { AN_EV_WAKING, F_PRIO, "prio" },
		{ AN_EV_WAKEUP, F_PID, "pid" }, { AN_EV_WAKEUP, F_COMM, "comm" }, { AN_EV_WAKEUP, F_PRIO, "prio" },
		{ AN_EV_MIGRATE, F_PID, "pid" }, { AN_EV_MIGRATE, F_CPU, "dest_cpu" },
		{ AN_EV_IRQ_ENTRY, F_IRQ, "irq" }, { AN_EV_IRQ_ENTRY, F_NAME, "name" },
		{ AN_EV_IRQ_EXIT, F_IRQ, "irq" },
		{ AN_EV_SOFTIRQ_ENTRY, F_VEC, "vec" }, { AN_EV_SOFTIRQ_EXIT, F_VEC, "vec" },
		{ AN_EV_HRTIMER_ENTRY, F_NOW, "now" },
		{ AN_EV_PRINT, F_BUF, "buf" },
		{ AN_EV_RAW, F_ID, "id" }, { AN_EV_RAW, F_BUF, "buf" },
		{ AN_EV_HRTIMER_START, F_EXPIRES, "expires" },
		{ AN_EV_WAKEUP_NEW, F_PID, "pid" }, { AN_EV_WAKEUP_NEW, F_COMM, "comm" },
		{ AN_EV_VEC_ENTRY, F_VEC, "vector" }, { AN_EV_VEC_EXIT, F_VEC, "vector" },
		{ AN_EV_PI_SETPRIO, F_PID, "pid" }, { AN_EV_PI_SETPRIO, F_OLDPRIO, "oldprio" },
		{ AN_EV_PI_SETPRIO, F_NEWPRIO, "newprio" },
		{ AN_EV_TIMERLAT, F_SEQ, "seqnum" }, { AN_EV_TIMERLAT, F_CONTEXT, "context" },
		{ AN_EV_TIMERLAT, F_LATENCY, "timer_latency" },
		{ AN_EV_IRQ_NOISE, F_NAME, "desc" }, { AN_EV_IRQ_NOISE, F_VEC, "vector" },
		{ AN_EV_IRQ_NOISE, F_START, "start" }, { AN_EV_IRQ_NOISE, F_DURATION, "duration" },
		{ AN_EV_SOFTIRQ_NOISE, F_VEC, "vector" }, { AN_EV_SOFTIRQ_NOISE, F_START, "start" },
		{ AN_EV_SOFTIRQ_NOISE, F_DURATION, "duration" },
		{ AN_EV_THREAD_NOISE, F_COMM, "comm" }, { AN_EV_THREAD_NOISE, F_PID, "pid" },
		{ AN_EV_THREAD_NOISE, F_START, "start" }, { AN_EV_THREAD_NOISE, F_DURATION, "duration" },
	};
	struct tep_event *ev, **all = tep_list_events(rd->tep, TEP_EVENT_SORT_ID);
	int i, maxid = 0;
	size_t k;
	int ids[AN_EV_COUNT] = { 0 };

	for (k = 0; all && all[k]; k++)
		if (all[k]->id > maxid)
			maxid = all[k]->id;
	rd->nids = maxid + 1;
	rd->kind = malloc(rd->nids);
	if (!rd->kind)
		return -ENOMEM;
	memset(rd->kind, AN_EV_UNKNOWN, rd->nids);
	for (k = 0; all && all[k]; k++)
		rd->kind[all[k]->id] = AN_EV_NONE;
	for (i = 1; i < AN_EV_COUNT; i++) {
		ev = tep_find_event_by_name(rd->tep, an_ev_names[i].sys, an_ev_names[i].name);
		ids[i] = ev ? ev->id : -1;
		for (k = 0; ev && k < PF_ARRAY_SIZE(map); k++)
			if (map[k].ev == i)
				an_field_set(ev, &rd->fmt[i].f[map[k].fld], map[k].name);
	}
	for (i = 1; i < AN_EV_COUNT; i++)
		if (ids[i] >= 0)
			rd->kind[ids[i]] = (uint8_t)i;
	an_vec_setup(rd);
	an_fast_setup(rd);
	/* an event whose needed fields are missing is not dispatched */
	if (ids[AN_EV_SWITCH] >= 0 && !(rd->fmt[AN_EV_SWITCH].f[F_PREV_PID].present &&
					rd->fmt[AN_EV_SWITCH].f[F_NEXT_PID].present &&
					rd->fmt[AN_EV_SWITCH].f[F_PREV_STATE].present))
		rd->kind[ids[AN_EV_SWITCH]] = AN_EV_NONE;
	return 0;
}

/* an_read - a number of 'size' bytes at p, in the file's byte order */
static inline unsigned long long an_read(struct an_reader *rd, const void *p, int size)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	if (rd->swap)
		return tep_read_number(rd->tep, p, size);
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: memcpy(&v2, p, 2); return v2;
	case 4: memcpy(&v4, p, 4); return v4;
	case 8: memcpy(&v8, p, 8); return v8;
	default: return tep_read_number(rd->tep, p, size);
	}
}

/* an_num - a numeric field of a record, 0 when absent or out of bounds */
static inline long long an_num(struct an_reader *rd, const struct an_field *f, struct tep_record *rec)
{
	if (!f->present || f->offset + f->size > rec->size)
		return 0;
	return (long long)an_read(rd, (char *)rec->data + f->offset, f->size);
}

/* an_sign - sign-extend a field read as unsigned */
static inline long long an_sign(long long v, int size)
{
	if (size == 4)
		return (int32_t)v;
	if (size == 2)
		return (int16_t)v;
	if (size == 1)
		return (int8_t)v;
	return v;
}

/* an_str - a char[] or __data_loc string field: pointer and length within the record */
static const char *an_str(struct an_reader *rd, const struct an_field *f, struct tep_record *rec, int *len)
{
	unsigned long long loc;
	int off, n;

	*len = 0;
	if (!f->present || f->offset > rec->size)
		return NULL;
	if (f->dynamic) {
		if (f->offset + 4 > rec->size)
			return NULL;
		loc = an_read(rd, (char *)rec->data + f->offset, 4);
		off = loc & 0xffff;
		n = (loc >> 16) & 0xffff;
		if (f->relative)
			off += f->offset + f->size;
	} else {
		off = f->offset;
		n = f->size ? f->size : rec->size - off;
	}
	if (off < 0 || n < 0 || off + n > rec->size)
		return NULL;
	*len = (int)strnlen((char *)rec->data + off, n);
	return (char *)rec->data + off;
}

/* an_comm - a fixed comm[16] field, "" when absent (may lack its NUL: readers bound it to 16) */
static inline const char *an_comm(struct an_reader *rd, const struct an_field *f, struct tep_record *rec)
{
	if (!f->present || f->dynamic || f->size < 16 || f->offset + 16 > rec->size)
		return "";
	return (const char *)rec->data + f->offset;
}

/* an_raw_marker - decode a PFM1 binary marker (docs/markers.md) */
static int an_raw_marker(struct an_reader *rd, struct tep_record *rec, int pid)
{
	const struct an_evfmt *fm = &rd->fmt[AN_EV_RAW];
	const unsigned char *b;
	int len, kind, task_id;
	unsigned flags;
	uint32_t seq;
	int64_t release_ns;

	if (an_num(rd, &fm->f[F_ID], rec) != 0x50464d31)
		return 0;
	b = (const unsigned char *)rec->data + fm->f[F_BUF].offset;
	len = rec->size - fm->f[F_BUF].offset;
	if (len < 20)
		return 0;
	kind = b[0];
	task_id = b[1];
	flags = (unsigned)tep_read_number(rd->tep, b + 2, 2);
	seq = (uint32_t)tep_read_number(rd->tep, b + 4, 4);
	release_ns = (int64_t)tep_read_number(rd->tep, b + 12, 8);
	rd->r->n_markers++;
	if (kind == 'S' || kind == 'E') {
		int ret = an_marker_order(rd->path, rec->offset, (char)kind, task_id, seq, (int64_t)rec->ts, release_ns);

		if (ret)
			return ret;
	}
	if (kind == 'S')
		return an_on_marker_start(rd->r, rec->cpu, (int64_t)rec->ts, pid, task_id, seq, release_ns);
	if (kind == 'E')
		return an_on_marker_end(rd->r, rec->cpu, (int64_t)rec->ts, pid, task_id, seq, release_ns, flags);
	return 0;
}

/* an_record - one record: account, detect loss, dispatch */
static int an_record(struct tracecmd_input *h, struct tep_record *rec, int cpu_arg, void *data)
{
	struct an_reader *rd = data;
	struct an_run *r = rd->r;
	const struct an_field *f;
	int cpu = rec->cpu, type, pid, len;
	int64_t ts = (int64_t)rec->ts;
	const char *s;
	int ret = 0;

	pf_isolate_step(NULL, 0, 0);	/* our code from here to the return */
	if (cpu < 0 || cpu >= r->ncpus || rec->size < 8)
		goto out;
	if (!(r->events & (AN_SWEEP_EVENTS - 1)) && r->events) {
		an_threads_sweep(r);
		if (!(r->events & (AN_TRIM_EVENTS - 1)))
			an_trim_maps(rd);
	}
	if (!r->events++) {
		r->start_ns = ts;
		an_win_init(&r->app_w1s, PF_NS_PER_SEC, ts);
		an_win_init(&r->app_wslot, r->opt.slot_ns, ts);
	}
	if (ts > r->end_ns)
		r->end_ns = ts;
	/* in a flight-recorder window, what was overwritten before a CPU's first event is no gap */
	if (rec->missed_events && (rd->cpu_last_ns[cpu] || !rd->window)) {
		int64_t from_ns = rd->cpu_last_ns[cpu] ? rd->cpu_last_ns[cpu] : r->start_ns;

		/* a loss found late: the recent jobs it overlaps are flagged too */
		if (!an_lost_add(r, cpu, from_ns, ts, rec->missed_events > 0 ? rec->missed_events : -1))
			an_tasks_lost_window(r, from_ns, ts);
	}
	rd->cpu_last_ns[cpu] = ts;
	rd->last_offset = rec->offset;
	r->cpu[cpu].prev_ns = r->cpu[cpu].last_ns;
	r->cpu[cpu].last_ns = ts;

	type = (int)an_read(rd, rec->data, 2);
	if (type < 0 || type >= rd->nids || rd->kind[type] == AN_EV_UNKNOWN) {
		rd->err = pf_fail(PF_EXIT_USAGE, "%s: offset %llu: corrupt trace data: CPU %d record of unknown event id %d",
				  rd->path, rec->offset, cpu, type);
		return -1;
	}
	pid = (int)an_sign(an_read(rd, (char *)rec->data + 4, 4), 4);
	if (pid != r->cpu[cpu].curr && pid >= 0)
		an_on_running(r, cpu, ts, pid);
	switch (rd->kind[type]) {
	case AN_EV_SWITCH: {
		int prev_pid, prev_prio, next_pid;

		f = rd->fmt[AN_EV_SWITCH].f;
		if (rd->fast_min[AN_EV_SWITCH] && (int)rec->size >= rd->fast_min[AN_EV_SWITCH]) {
			const char *d = rec->data;
			uint64_t st8;
			uint32_t st4;

			if (f[F_PREV_STATE].size == 8) {
				memcpy(&st8, d + f[F_PREV_STATE].offset, 8);
			} else {
				memcpy(&st4, d + f[F_PREV_STATE].offset, 4);
				st8 = st4;
			}
			prev_pid = an_i32(d + f[F_PREV_PID].offset);
			prev_prio = an_i32(d + f[F_PREV_PRIO].offset);
			next_pid = an_i32(d + f[F_NEXT_PID].offset);
			an_on_switch(r, cpu, ts, prev_pid, d + f[F_PREV_COMM].offset, prev_prio, (long)st8, next_pid,
				     d + f[F_NEXT_COMM].offset, an_i32(d + f[F_NEXT_PRIO].offset));
		} else {
			prev_pid = (int)an_sign(an_num(rd, &f[F_PREV_PID], rec), f[F_PREV_PID].size);
			prev_prio = (int)an_sign(an_num(rd, &f[F_PREV_PRIO], rec), f[F_PREV_PRIO].size);
			next_pid = (int)an_sign(an_num(rd, &f[F_NEXT_PID], rec), f[F_NEXT_PID].size);
			an_on_switch(r, cpu, ts, prev_pid, an_comm(rd, &f[F_PREV_COMM], rec), prev_prio,
				     (long)an_num(rd, &f[F_PREV_STATE], rec), next_pid, an_comm(rd, &f[F_NEXT_COMM], rec),
				     (int)an_sign(an_num(rd, &f[F_NEXT_PRIO], rec), f[F_NEXT_PRIO].size));
		}
		ret = an_cw_on_switch(r, cpu, ts, prev_pid, prev_prio, next_pid);	/* cyclictest's wakeups */
		break;
	}
	case AN_EV_WAKING:
	case AN_EV_WAKEUP:
		f = rd->fmt[rd->kind[type]].f;
		if (rd->fast_min[rd->kind[type]] && (int)rec->size >= rd->fast_min[rd->kind[type]]) {
			const char *d = rec->data;

			an_on_waking(r, cpu, ts, an_i32(d + f[F_PID].offset), d + f[F_COMM].offset,
				     an_i32(d + f[F_PRIO].offset), rd->kind[type] == AN_EV_WAKING);
			if (rd->kind[type] == AN_EV_WAKING)
				an_rt_on_waking(r, cpu, ts, an_i32(d + f[F_PID].offset), an_i32(d + f[F_PRIO].offset),
						pid, ((const uint8_t *)rec->data)[2]);
			break;
		}
		an_on_waking(r, cpu, ts, (int)an_sign(an_num(rd, &f[F_PID], rec), f[F_PID].size),
			     an_comm(rd, &f[F_COMM], rec),
			     (int)an_sign(an_num(rd, &f[F_PRIO], rec), f[F_PRIO].size),
			     rd->kind[type] == AN_EV_WAKING);
		if (rd->kind[type] == AN_EV_WAKING)
			an_rt_on_waking(r, cpu, ts, (int)an_sign(an_num(rd, &f[F_PID], rec), f[F_PID].size),
					(int)an_sign(an_num(rd, &f[F_PRIO], rec), f[F_PRIO].size), pid,
					((const uint8_t *)rec->data)[2]);
		break;
	case AN_EV_PI_SETPRIO:
		f = rd->fmt[AN_EV_PI_SETPRIO].f;
		if (f[F_PID].present && f[F_OLDPRIO].present && f[F_NEWPRIO].present)
			an_rt_on_pi_setprio(r, ts, pid, (int)an_sign(an_num(rd, &f[F_PID], rec), f[F_PID].size),
					    (int)an_sign(an_num(rd, &f[F_OLDPRIO], rec), f[F_OLDPRIO].size),
					    (int)an_sign(an_num(rd, &f[F_NEWPRIO], rec), f[F_NEWPRIO].size));
		break;
	case AN_EV_MIGRATE:
		f = rd->fmt[AN_EV_MIGRATE].f;
		an_on_migrate(r, ts, (int)an_num(rd, &f[F_PID], rec), (int)an_num(rd, &f[F_CPU], rec));
		break;
	case AN_EV_IRQ_ENTRY:
		f = rd->fmt[AN_EV_IRQ_ENTRY].f;
		s = an_str(rd, &f[F_NAME], rec, &len);
		an_on_irq(r, cpu, ts, true, (int)an_num(rd, &f[F_IRQ], rec), s, len);
		break;
	case AN_EV_IRQ_EXIT:
		an_on_irq(r, cpu, ts, false, (int)an_num(rd, &rd->fmt[AN_EV_IRQ_EXIT].f[F_IRQ], rec), NULL, 0);
		break;
	case AN_EV_VEC_ENTRY:
		s = an_vec_name(rd, type);
		an_on_irq(r, cpu, ts, true, -(int)an_num(rd, &rd->fmt[AN_EV_VEC_ENTRY].f[F_VEC], rec), s, (int)strlen(s));
		break;
	case AN_EV_VEC_EXIT:
		an_on_irq(r, cpu, ts, false, 0, NULL, 0);
		break;
	case AN_EV_SOFTIRQ_ENTRY:
	case AN_EV_SOFTIRQ_EXIT:
		an_on_softirq(r, cpu, ts, rd->kind[type] == AN_EV_SOFTIRQ_ENTRY,
			      (int)an_num(rd, &rd->fmt[rd->kind[type]].f[F_VEC], rec));
		break;
	case AN_EV_HRTIMER_ENTRY:
		/* 'now' is a CLOCK_MONOTONIC time: of use in a trace of that clock only */
		an_on_hrtimer(r, cpu, ts, rd->mono ? an_num(rd, &rd->fmt[AN_EV_HRTIMER_ENTRY].f[F_NOW], rec) : 0,
			      true);
		break;
	case AN_EV_HRTIMER_EXIT:
		an_on_hrtimer(r, cpu, ts, 0, false);
		break;
	case AN_EV_HRTIMER_START:
		r->n_hrtimer_start++;
		f = rd->fmt[AN_EV_HRTIMER_START].f;
		if (f[F_EXPIRES].present)
			ret = an_cw_on_hrtimer_start(r, cpu, ts, pid, (int64_t)an_sign(an_num(rd, &f[F_EXPIRES], rec),
										f[F_EXPIRES].size));
		break;
	case AN_EV_WAKEUP_NEW:
		f = rd->fmt[AN_EV_WAKEUP_NEW].f;
		if (f[F_PID].present && f[F_COMM].present)
			ret = an_cw_on_new_thread(r, pid, (int)an_sign(an_num(rd, &f[F_PID], rec), f[F_PID].size),
						  an_comm(rd, &f[F_COMM], rec));
		break;
	case AN_EV_EXIT:
		an_on_exit(r, pid);	/* the exiting thread traces its own exit: common_pid is the one */
		break;
	case AN_EV_PRINT:
		s = an_str(rd, &rd->fmt[AN_EV_PRINT].f[F_BUF], rec, &len);
		if (s && len > 4 && !memcmp(s, "pf1 ", 4)) {
			r->n_markers++;
			ret = an_on_marker_text(r, cpu, ts, pid, s, len, rd->path, rec->offset);
		}
		break;
	case AN_EV_RAW:
		ret = an_raw_marker(rd, rec, pid);
		break;
	case AN_EV_TIMERLAT:
		f = rd->fmt[AN_EV_TIMERLAT].f;
		if (f[F_SEQ].present && f[F_CONTEXT].present && f[F_LATENCY].present)
			ret = an_tlat_on_sample(r, cpu, ts, pid, (uint32_t)an_num(rd, &f[F_SEQ], rec),
					      (int)an_sign(an_num(rd, &f[F_CONTEXT], rec), f[F_CONTEXT].size),
					      an_num(rd, &f[F_LATENCY], rec));
		break;
	case AN_EV_IRQ_NOISE:
	case AN_EV_SOFTIRQ_NOISE:
	case AN_EV_THREAD_NOISE: {
		static const enum an_tlat_noise kinds[] = { AN_TLAT_NOISE_IRQ, AN_TLAT_NOISE_SOFTIRQ, AN_TLAT_NOISE_THREAD };
		int k = rd->kind[type] - AN_EV_IRQ_NOISE;

		f = rd->fmt[rd->kind[type]].f;
		s = NULL;
		len = 0;
		if (kinds[k] == AN_TLAT_NOISE_IRQ)
			s = an_str(rd, &f[F_NAME], rec, &len);
		else if (kinds[k] == AN_TLAT_NOISE_THREAD)
			len = (int)strnlen(s = an_comm(rd, &f[F_COMM], rec), 16);
		an_tlat_on_noise(r, cpu, kinds[k], s, len,
			       (int)an_sign(an_num(rd, &f[kinds[k] == AN_TLAT_NOISE_THREAD ? F_PID : F_VEC], rec), 4),
			       an_num(rd, &f[F_START], rec), an_num(rd, &f[F_DURATION], rec));
		break;
	}
	default:
		break;
	}
	if (ret) {
		rd->err = ret;
		return -1;
	}
out:
	pf_isolate_step(rd->step, rd->last_offset, r->events);
	return 0;
}

/*
 * an_cpustats_observers - the recorder's list of preflight's own threads
 * (the "Observer pids:" line of its CPUSTAT header, docs/recorder.md); a
 * trace without it leaves the observer unknown
 */
static void an_cpustats_observers(struct an_run *r, const char *text)
{
	int n = rec_parse_observers(text, NULL, 0), *pids;

	if (n < 0)
		return;
	pids = calloc((size_t)n + 1, sizeof(*pids));
	if (!pids || an_observers_set(r, pids, rec_parse_observers(text, pids, n)) < 0)
		pf_err("observer threads: out of memory (not counted)");
	free(pids);
}

/*
 * an_cpustats - the lost events the recorder stored per CPU (CPUSTAT
 * options, parsed by the recorder's reader, docs/recorder.md): dropped and
 * commit overruns always; overruns unless the file is a flight-recorder
 * window, where they are events older than the window, not a gap in it
 */
static void an_cpustats(struct an_run *r, struct an_reader *rd, struct tracecmd_input *h)
{
	const char *s = tracecmd_get_cpustats(h);
	struct rec_lost *l;
	int64_t v;
	int i;

	if (!s || !(l = calloc(1, sizeof(*l))))
		return;
	an_cpustats_observers(r, s);
	rec_parse_cpustats(s, l);
	/* the recorder's note that the file ends early (recovered, disk full) */
	if (l->incomplete[0])	/* after a cut (rec_cut_open), if any */
		snprintf(r->trace_incomplete + strlen(r->trace_incomplete),
			 sizeof(r->trace_incomplete) - strlen(r->trace_incomplete), "%s%s",
			 r->trace_incomplete[0] ? "; and " : "", l->incomplete);
	if (l->ncpus) {
		rd->window = l->window;
		r->rt_wakeups = l->rt_wakeups;
		r->rt_switches = l->rt_switches;
		for (i = 0; i < l->ncpus; i++) {
			v = (int64_t)(l->cpu[i].dropped + l->cpu[i].commit_overrun +
				      (l->window ? 0 : l->cpu[i].overrun));
			if (v <= 0 || l->cpu[i].cpu < 0 || l->cpu[i].cpu >= r->ncpus)
				continue;
			/* the same losses the records' missed_events place: an_lost_reconcile */
			r->cpu[l->cpu[i].cpu].lost_stats += v;
			r->lost_stats += v;
		}
	}
	free(l);
}

/* an_check_file - the file exists and is a regular readable file with a trace-cmd magic */
static int an_check_file(const char *path)
{
	unsigned char magic[10];
	struct stat st;
	int fd;
	ssize_t n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return pf_fail(PF_EXIT_USAGE, "%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pf_fail(PF_EXIT_USAGE, "%s: not a regular file", path);
	}
	n = read(fd, magic, sizeof(magic));
	close(fd);
	if (n < 10 || magic[0] != 0x17 || magic[1] != 0x08 || magic[2] != 0x44 || memcmp(magic + 3, "tracing", 7))
		return pf_fail(PF_EXIT_USAGE, "%s: offset 0: not a trace-cmd data file (bad magic)", path);
	return 0;
}

/* an_quiet_libs - libtracecmd / libtraceevent warnings are not ours to print */
static void an_quiet_libs(void)
{
	tracecmd_set_loglevel(TEP_LOG_NONE);
}

/*
 * an_pages_read - the records of hs[0..nh-1] decoded from the file's pages
 * (traces/rec_pages.c) when it can: 1 when it cannot (said once on stderr
 * unless quiet; nothing was read), else what tracecmd_iterate_events_multi
 * would return (< 0 also when the file changed under the reading)
 */
static int an_pages_read(struct an_reader *rd, const struct rec_cut *cut, struct tracecmd_input **hs,
			 const int *bufidx, int nh)
{
	static bool said;
	struct rec_pages *pg = NULL;
	char why[256] = "";
	int fd = cut->fd >= 0 ? cut->fd : open(rd->path, O_RDONLY | O_CLOEXEC);
	int ret;

	if (fd < 0) {
		snprintf(why, sizeof(why), "%s", strerror(errno));
		ret = -EOPNOTSUPP;
	} else {
		ret = rec_pages_open(&pg, fd, hs, bufidx, nh, why, sizeof(why));
	}
	if (fd >= 0 && fd != cut->fd)
		close(fd);
	if (ret == -ENOMEM)
		snprintf(why, sizeof(why), "out of memory");
	if (ret) {
		if (!rd->r->opt.quiet && !said)
			pf_err("%s: read through libtracecmd: the direct decoder does not read this file: %s", rd->path, why);
		said = true;
		return 1;
	}
	rd->step = AN_STEP_PAGES;
	pf_isolate_step(AN_STEP_PAGES, 0, 0);
	ret = rec_pages_iterate(pg, an_record, rd);
	rec_pages_close(pg);
	return ret;
}

int an_trace_read(struct an_run *r, const char *path)
{
	struct tracecmd_input **hs = NULL, *h;
	struct an_reader rd = { .r = r, .path = path, .step = AN_STEP_ITERATE };
	int *bufidx = NULL;
	char *real = NULL;
	struct rec_cut cut;
	int ret, nbuf, i, nh = 0;
	off_t size;
	struct stat st;

	ret = an_check_file(path);
	if (ret)
		return ret;
	an_quiet_libs();
	pf_isolate_step("libtracecmd (tracecmd_open_head, libtraceevent tep_parse_event, tracecmd_init_data) "
			"reading the headers, event formats and CPU data sections", 0, 0);
	switch (rec_cut_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS, &h, &cut)) {
	case REC_OPEN_OK:
		break;
	case REC_OPEN_CUT_HEADERS:
		return pf_fail(PF_EXIT_USAGE, "%s: offset %lld: %s", path, (long long)cut.have, cut.note);
	case REC_OPEN_BAD_HEADERS:
		return pf_fail(PF_EXIT_USAGE, "%s: corrupt or truncated trace-cmd headers (libtracecmd cannot open it)", path);
	default:
		size = stat(path, &st) ? 0 : st.st_size;
		return pf_fail(PF_EXIT_USAGE, "%s: offset %lld: truncated or corrupt: the CPU data is not all in the file",
			       path, (long long)size);
	}
	/* cut short: where it ends, before the recorder's own note (an_cpustats) */
	snprintf(r->trace_incomplete, sizeof(r->trace_incomplete), "%s", cut.note);
	pf_isolate_step("libtracecmd reading the file's options and buffer instances", 0, 0);
	r->file_version = tracecmd_get_in_file_version(h);
	snprintf(r->clock, sizeof(r->clock), "%s",
		 tracecmd_get_trace_clock(h) ? tracecmd_get_trace_clock(h) : "unknown");
	rd.mono = !strcmp(r->clock, "mono");
	ret = an_sched_init(r, tracecmd_cpus(h) > 0 ? tracecmd_cpus(h) : 1);
	if (ret) {
		ret = pf_fail(PF_EXIT_INTERNAL, "%s: out of memory", path);
		goto out;
	}
	an_cpustats(r, &rd, h);
	rd.tep = tracecmd_get_tep(h);
	rd.swap = rd.tep && tep_is_file_bigendian(rd.tep) != tep_is_local_bigendian(rd.tep);
	rd.cpu_last_ns = calloc(r->ncpus, sizeof(*rd.cpu_last_ns));
	nbuf = tracecmd_buffer_instances(h);
	hs = calloc(nbuf + 1, sizeof(*hs));
	bufidx = calloc(nbuf + 1, sizeof(*bufidx));
	if (!rd.tep || !rd.cpu_last_ns || !hs || !bufidx || an_reader_setup(&rd)) {
		ret = pf_fail(PF_EXIT_INTERNAL, "%s: out of memory", path);
		goto out;
	}
	hs[nh++] = h;
	for (i = 0; i < nbuf; i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (b) {
			bufidx[nh] = i;
			hs[nh++] = b;
		}
	}
	if (!stat(path, &st)) {
		rd.dev = st.st_dev;
		rd.ino = st.st_ino;
	}
	real = realpath(path, NULL);	/* /proc/self/maps names the file by its real path */
	rd.base = real ? strrchr(real, '/') + 1 : path;
	ret = r->opt.libtracecmd ? 1 : an_pages_read(&rd, &cut, hs, bufidx, nh);
	if (ret == 1) {
		pf_isolate_step(AN_STEP_ITERATE, 0, 0);
		ret = tracecmd_iterate_events_multi(hs, nh, an_record, &rd);
	}
	pf_isolate_step(NULL, 0, 0);
	if (rd.err) {
		ret = rd.err;
		goto out;
	}
	if (ret < 0) {
		ret = pf_fail(PF_EXIT_USAGE, "%s: offset %llu: the trace data cannot be read past here (%llu events read)",
			      path, rd.last_offset, (unsigned long long)r->events);
		goto out;
	}
	ret = 0;
	an_sched_finish(r);
out:
	for (i = 1; i < nh; i++)
		tracecmd_close(hs[i]);
	if (h)
		tracecmd_close(h);
	rec_cut_close(&cut);
	free(hs);
	free(bufidx);
	free(real);
	free(rd.kind);
	free(rd.cpu_last_ns);
	return ret;
}
