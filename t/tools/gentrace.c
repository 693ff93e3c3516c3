/*
 * gentrace.c - the analysis' test and benchmark tool (build/t/gentrace):
 *
 *   gentrace basic OUT.dat [JOBLOG]   a small trace with known answers
 *   gentrace lost OUT.dat [JOBLOG]    the same with lost events (missed_events, CPU stats)
 *   gentrace lostgap OUT.dat [JOBLOG] 'lost', and CPU 1's events of slot 6 lost too (ctl100's
 *                                        job 6 is in the job log, not in the trace): g_lose_slot
 *   gentrace markers OUT.dat [JOBLOG] the same, the app's markers only (no kernel events)
 *   gentrace observer OUT.dat [JOBLOG] 'basic' with preflight's own threads delaying ctl100
 *   gentrace window OUT.dat FROM TO [JOBLOG]  the 'basic' events from T0 + FROM to T0 + TO
 *                                        (µs): a flight-recorder snapshot of it, without the
 *                                        declarations written before T0 (the job log has them)
 *   gentrace chain OUT.dat            a task released by another late task (g_chain)
 *   gentrace chained OUT.dat          every wakeup fast, io running long before it releases
 *                                        ctl100 (g_chained)
 *   gentrace silent OUT.dat           'chained' with a timer held off by a CPU with no event
 *   gentrace inferback OUT.dat        a switch inferred back to a wakeup, an interrupt after it
 *                                        (g_inferback); 'early': a start marker before its release;
 *                                        'ipi': its interrupts call_function_single's (vector 251),
 *                                        one more on the idle CPU 1 at r+1 .. r+6
 *   gentrace exits OUT.dat            a thread exits, its pid comes back as another (g_exits)
 *   gentrace rt OUT.dat               a PREEMPT_RT kernel's layout and semantics: a threaded IRQ,
 *                                        ktimers/rcuc, priority inheritance, an inversion (g_rt)
 *   gentrace storm OUT.dat N          about N events of a busy 2-CPU system, for the benchmark
 *   gentrace floor FILE.dat           read a trace decoding only event ids: the floor of
 *                                        reading a file with libtracecmd (prints events, seconds)
 *
 * Two environment variables vary how the pages are written, not what they
 * hold (t/0529, both decoders of analyze): GENTRACE_LONG=4 the page header of
 * a 32-bit kernel (a 4-byte commit word, events from byte 12);
 * GENTRACE_STAMPS=1 an absolute time stamp where a time extend would be and
 * before some events, and before every other event but a page's first a
 * padding event (a discarded event) carrying its time delta.
 *
 * The trace files are trace-cmd version 6 .dat files written here byte by
 * byte (libtracecmd 3.1 has no public API to write events that were not
 * recorded from a kernel): the header, event formats shaped like the
 * kernel's, options (trace clock, per-CPU stats), and ring-buffer pages
 * exactly as the kernel fills them - compressed event headers, time extends,
 * and the missed-events flags of a page. They are read back by libtracecmd
 * like any recording, so the analysis is tested on exactly what it reads in
 * the field, with answers fixed by construction.
 *
 * The 'basic' scenario (times relative to each 10 ms release r_k; slots
 * k = 0..11 from T0 = 1000 s; CPU 0 and CPU 1):
 *   io      (pid 101, task 0, FIFO 90, 10 ms, raw markers) on CPU 0: timer at r+5 µs wakes it
 *           at r+6, switch-in r+10, start r+12, end r+1012, switch-out r+1015; in slot 7 the
 *           switch-in is missing from the trace (inferred at the start marker, r+12).
 *   Both tasks' declarations are written at T0-1000 µs by their threads (running until
 *   they sleep at T0-900 µs: those switch-ins are inferred too).
 *   ctl100  (pid 100, task 1, FIFO 80, 10 ms, text markers) on CPU 1, the same timing but a
 *           2000 µs job (end r+2012, switch-out r+2015), except:
 *     k=3   hog (pid 200, FIFO 95) runs on CPU 1 from r-50 to r+150: ctl100 is woken at r+6
 *           (timer r+5), runs at r+150, starts at r+152 (latency 152 µs, hog 150 µs)
 *     k=5   ctl100 is woken for CPU 0 and runs there when io sleeps at r+1015 (start r+1017,
 *           latency 1017: io 1005, idle 10): a migration there and one back in k=6
 *     k=6   ksoftirqd/1 (pid 300) runs from r+2; NET_RX softirq r+3..r+103 with IRQ 24
 *           (virtio0-input) r+20..r+40 inside it; ctl100 woken r+6, runs r+110, starts
 *           r+112 (latency 112: softirq 80, irq 20, ksoftirqd 8, idle 2, itself 2)
 *     k=8   a 12 ms job: ends r+12012 (overrun, deadline miss, slot overrun); job 9 starts
 *           right after at r+10000+2013 without a switch (latency 2013 µs) and ends 2000 µs later
 *     k=10  no ctl100 job (missed activation): seq 10 is released at r_11
 *   The job log has every job; its start is the marker's + 1 µs for ctl100 (agreement diff
 *   exactly 1000 ns), and cpu_ns equals the job's execution time.
 *
 * The 'observer' scenario is 'basic' with a recorder's CPU statistics header listing the
 * observer's thread ids ("Observer pids: 400 401", docs/recorder.md), and on CPU 1:
 *     k=2   a thread named "preflight" that is not in that list (pid 402: a load's process)
 *           runs from r-10 to r+50; ctl100 woken r+6, runs r+50, starts r+52: no observer time
 *     k=4   the recorder's stream thread (pid 401, "preflight") runs from r-20 to r+90 with
 *           IRQ 24 r+30..r+40 inside it; ctl100 woken r+6, runs r+90, starts r+92: observer
 *           time exactly 80 µs (r..r+90 less the IRQ), latency 92 µs
 *   ctl100's observer_ns: 11 jobs, max 80000 (job 4), one job non-zero; io's: all zero.
 *
 * The 'irqs' scenario is 'basic' with interrupts around and inside ctl100's job 1 (CPU 1):
 *     r+4..r+9       x86 local timer (irq_vectors, vector 236) around the hrtimer that wakes it,
 *                    on the idle CPU: 5 us of its latency (r+12) are "local_timer interrupt"
 *     r+500..r+520   IRQ 24 (virtio0-input)
 *     r+800..r+809   local timer, then softirq TIMER r+809..r+812
 *     r+1000..r+1010 softirq NET_RX with IRQ 24 r+1002..r+1004 inside it
 *   42 us of interrupts inside the job: its execution time is 1958 us (2000 on the CPU), its
 *   job log cpu_ns stays 2000 (a kernel without IRQ time accounting charges them to it).
 *   And in job 2 a SCHED_OTHER thread, worker (pid 500), runs on CPU 1 from r-100; the timer
 *   wakes ctl100 at r+6/r+7 in its context, the switch to ctl100 is missing, ctl100 starts at
 *   r+52: the realtime thread preempted worker at its wakeup, so worker delayed it 7 us.
 */
#define _GNU_SOURCE
#include "common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

#define G_PAGE      4096
#define G_PAGE_HDR  (8 + g_long)		/* the page header: time stamp, commit word */
#define G_NCPUS     2
#define G_T0        (1000LL * PF_NS_PER_SEC)
#define G_US        1000LL
#define G_SLOT      (10 * PF_NS_PER_MS)

enum { ID_PRINT = 5, ID_RAW = 19, ID_SWITCH = 316, ID_EXIT = 317, ID_WAKEUP = 318, ID_WAKING = 319, ID_MIGRATE = 315,
       ID_IRQ_ENTRY = 200, ID_IRQ_EXIT = 199, ID_SOFTIRQ_ENTRY = 198, ID_SOFTIRQ_EXIT = 197,
       ID_HRT_ENTRY = 400, ID_HRT_EXIT = 401, ID_VEC_ENTRY = 500, ID_VEC_EXIT = 499,
       ID_IPI_ENTRY = 502, ID_IPI_EXIT = 501, ID_PI_SETPRIO = 320 };

#define G_COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char g_fmt_print[] =
	"name: print\nID: 5\nformat:\n" G_COMMON
	"\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"%ps: %s\", (void *)REC->ip, REC->buf\n";
static const char g_fmt_raw[] =
	"name: raw_data\nID: 19\nformat:\n" G_COMMON
	"\tfield:unsigned int id;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:char buf[];\toffset:12;\tsize:0;\tsigned:0;\n\n"
	"print fmt: \"id:%04x %08x\", REC->id, (int)REC->buf[0]\n";
static const char g_fmt_switch[] =
	"name: sched_switch\nID: 316\nformat:\n" G_COMMON
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> next_comm=%s next_pid=%d next_prio=%d\", "
	"REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio\n";
#define G_FMT_WAKE(NAME, ID) \
	"name: " NAME "\nID: " ID "\nformat:\n" G_COMMON \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:int target_cpu;\toffset:32;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"comm=%s pid=%d prio=%d target_cpu=%03d\", REC->comm, REC->pid, REC->prio, REC->target_cpu\n"
static const char g_fmt_waking[] = G_FMT_WAKE("sched_waking", "319");
static const char g_fmt_exit[] =
	"name: sched_process_exit\nID: 317\nformat:\n" G_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d\", REC->comm, REC->pid, REC->prio\n";
static const char g_fmt_wakeup[] = G_FMT_WAKE("sched_wakeup", "318");
static const char g_fmt_pi_setprio[] =
	"name: sched_pi_setprio\nID: 320\nformat:\n" G_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int oldprio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int newprio;\toffset:32;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d oldprio=%d newprio=%d\", REC->comm, REC->pid, REC->oldprio, REC->newprio\n";
static const char g_fmt_migrate[] =
	"name: sched_migrate_task\nID: 315\nformat:\n" G_COMMON
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:int orig_cpu;\toffset:32;\tsize:4;\tsigned:1;\n"
	"\tfield:int dest_cpu;\toffset:36;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d orig_cpu=%d dest_cpu=%d\", REC->comm, REC->pid, REC->prio, REC->orig_cpu, REC->dest_cpu\n";
static const char g_fmt_irq_entry[] =
	"name: irq_handler_entry\nID: 200\nformat:\n" G_COMMON
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)\n";
static const char g_fmt_irq_exit[] =
	"name: irq_handler_exit\nID: 199\nformat:\n" G_COMMON
	"\tfield:int irq;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int ret;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"irq=%d ret=%s\", REC->irq, REC->ret ? \"handled\" : \"unhandled\"\n";
/* an event of one 4-byte field: softirq's vec, irq_vectors' vector */
#define G_FMT_INT(NAME, ID, TYPE, FIELD, SIGNED, CONV) \
	"name: " NAME "\nID: " ID "\nformat:\n" G_COMMON \
	"\tfield:" TYPE " " FIELD ";\toffset:8;\tsize:4;\tsigned:" SIGNED ";\n\n" \
	"print fmt: \"" FIELD "=" CONV "\", REC->" FIELD "\n"
static const char g_fmt_softirq_entry[] = G_FMT_INT("softirq_entry", "198", "unsigned int", "vec", "0", "%u");
static const char g_fmt_softirq_exit[] = G_FMT_INT("softirq_exit", "197", "unsigned int", "vec", "0", "%u");
static const char g_fmt_hrt_entry[] =
	"name: hrtimer_expire_entry\nID: 400\nformat:\n" G_COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 now;\toffset:16;\tsize:8;\tsigned:1;\n"
	"\tfield:void * function;\toffset:24;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p now=%llu\", REC->hrtimer, (unsigned long long) REC->now\n";
static const char g_fmt_hrt_exit[] =
	"name: hrtimer_expire_exit\nID: 401\nformat:\n" G_COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"hrtimer=%p\", REC->hrtimer\n";

static const char g_fmt_vec_entry[] = G_FMT_INT("local_timer_entry", "500", "int", "vector", "1", "%d");
static const char g_fmt_vec_exit[] = G_FMT_INT("local_timer_exit", "499", "int", "vector", "1", "%d");
/* x86's IPI of smp_call_function_single (vector 251): only in a trace with g_ipi set */
static const char g_fmt_ipi_entry[] = G_FMT_INT("call_function_single_entry", "502", "int", "vector", "1", "%d");
static const char g_fmt_ipi_exit[] = G_FMT_INT("call_function_single_exit", "501", "int", "vector", "1", "%d");
static bool g_ipi;

static int g_long = 8;		/* the kernel's long: the commit word's bytes (GENTRACE_LONG) */
static bool g_stamps;		/* absolute time stamps and padding events (GENTRACE_STAMPS) */
static const char g_header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char g_header_page32[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:12;\tsize:4084;\tsigned:0;\n";
static const char g_header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

/* g_event - one event before it is written */
struct g_event {
	int64_t ts;
	int     cpu;
	int     len;
	int     lost;			/* missed events before it (starts a new page); -1 unknown */
	unsigned char data[128];
};

/* g_cpu - the page being filled for one CPU */
struct g_cpu {
	unsigned char page[G_PAGE];
	int     used;			/* bytes of event data in the page */
	int64_t page_ts, last_ts;
	int64_t lost;			/* missed-events flag of the page */
	bool    open;
	FILE   *f;
	uint64_t bytes;
};

/* ---- ring-buffer pages ---- */

static void g_put32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }
static void g_put64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

/* g_page_flush - finish the current page of a CPU */
static int g_page_flush(struct g_cpu *c)
{
	uint64_t commit = (uint64_t)c->used;

	if (!c->open)
		return 0;
	if (c->lost) {
		commit |= 1ULL << 31;		/* RB_MISSED_EVENTS */
		if (c->lost > 0) {
			commit |= 1ULL << 30;	/* RB_MISSED_STORED: count after the data */
			if (g_long == 4)
				g_put32(c->page + G_PAGE_HDR + c->used, (uint32_t)c->lost);
			else
				g_put64(c->page + G_PAGE_HDR + c->used, (uint64_t)c->lost);
		}
	}
	g_put64(c->page, (uint64_t)c->page_ts);
	if (g_long == 4)
		g_put32(c->page + 8, (uint32_t)commit);
	else
		g_put64(c->page + 8, commit);
	if (fwrite(c->page, G_PAGE, 1, c->f) != 1)
		return -EIO;
	c->bytes += G_PAGE;
	c->open = false;
	return 0;
}

/* g_page_put - append one event (data already padded to 4 bytes) to its CPU's pages */
static int g_page_put(struct g_cpu *c, int64_t ts, const unsigned char *data, int len, int lost)
{
	int need = 4 + len + (len > 112 ? 4 : 0) + 8 + (g_stamps ? 8 : 0);	/* header, array, time extend, padding */
	uint64_t delta;
	unsigned char *p;
	int ret;

	if (c->open && (lost || c->used + need > G_PAGE - G_PAGE_HDR - 8)) {
		ret = g_page_flush(c);
		if (ret)
			return ret;
	}
	if (!c->open) {
		memset(c->page, 0, G_PAGE);
		c->open = true;
		c->used = 0;
		c->page_ts = ts;
		c->last_ts = ts;
		c->lost = lost;
	}
	delta = (uint64_t)(ts - c->last_ts);
	p = c->page + G_PAGE_HDR + c->used;
	if (g_stamps && (delta >= (1u << 27) || c->used % 3 == 1)) {	/* an absolute time stamp: its low 59 bits */
		g_put32(p, 31 | (uint32_t)(((uint64_t)ts & ((1u << 27) - 1)) << 5));
		g_put32(p + 4, (uint32_t)(((uint64_t)ts >> 27) & 0xffffffffu));
		p += 8;
		c->used += 8;
		delta = 0;
	} else if (delta >= (1u << 27)) {
		g_put32(p, 30 | (uint32_t)((delta & ((1u << 27) - 1)) << 5));
		g_put32(p + 4, (uint32_t)(delta >> 27));
		p += 8;
		c->used += 8;
		delta = 0;
	} else if (g_stamps && c->used) {	/* a discarded event of 4 bytes holds the delta */
		g_put32(p, 29 | (uint32_t)(delta << 5));
		g_put32(p + 4, 4);
		p += 8;
		c->used += 8;
		delta = 0;
	}
	if (len <= 112) {
		g_put32(p, (uint32_t)(len / 4) | (uint32_t)(delta << 5));
		p += 4;
		c->used += 4;
	} else {
		g_put32(p, (uint32_t)(delta << 5));
		g_put32(p + 4, (uint32_t)len + 4);
		p += 8;
		c->used += 8;
	}
	memcpy(p, data, len);
	c->used += len;
	c->last_ts = ts;
	return 0;
}

/* ---- events ---- */

struct g_list {
	struct g_event *ev;
	size_t n, cap;
};

/* g_new - a new event with its common fields */
static struct g_event *g_new(struct g_list *l, int cpu, int64_t ts, int id, int pid, int len)
{
	struct g_event *e;

	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		l->ev = realloc(l->ev, l->cap * sizeof(*l->ev));
		if (!l->ev) {
			perror("gentrace");
			exit(PF_EXIT_INTERNAL);
		}
	}
	e = &l->ev[l->n++];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->cpu = cpu;
	e->len = (len + 3) & ~3;
	e->data[0] = id & 0xff;
	e->data[1] = id >> 8;
	g_put32(e->data + 4, (uint32_t)pid);
	return e;
}

/* g_comm - a 16-byte comm field, NUL-padded as the kernel writes it */
static void g_comm(unsigned char *p, const char *comm)
{
	strncpy((char *)p, comm, 16);
}

/* kernel priority of a FIFO priority, or 120 for SCHED_OTHER (fifo 0) */
static int g_kprio(int fifo) { return fifo ? 99 - fifo : 120; }

struct g_thread { int pid; const char *comm; int fifo; };

static const struct g_thread G_IDLE = { 0, "swapper", 0 };
static const struct g_thread G_CTL = { 100, "ctl100", 80 };
static const struct g_thread G_IO = { 101, "io", 90 };
static const struct g_thread G_HOG = { 200, "hog", 95 };
static const struct g_thread G_KSOFT = { 300, "ksoftirqd/1", 0 };
static const struct g_thread G_REC = { 401, "preflight", 0 };	/* observer: in the list */
static const struct g_thread G_LOADPF = { 402, "preflight", 0 };	/* same name, not listed */
static const struct g_thread G_WORKER = { 500, "worker", 0 };	/* 'irqs': a SCHED_OTHER thread */

#define G_RUNNING  0L
#define G_SLEEPING 1L
#define G_PREEMPT  0x100L
#define G_DEAD     0x10L	/* EXIT_DEAD, "X": a thread's last switch-out */

/* g_switch - a sched_switch record: prev (in 'state') leaves the CPU to next */
static void g_switch(struct g_list *l, int cpu, int64_t ts, const struct g_thread *prev, long state,
		     const struct g_thread *next)
{
	struct g_event *e = g_new(l, cpu, ts, ID_SWITCH, prev->pid, 64);

	g_comm(e->data + 8, prev->comm);
	g_put32(e->data + 24, (uint32_t)prev->pid);
	g_put32(e->data + 28, (uint32_t)g_kprio(prev->fifo));
	g_put64(e->data + 32, (uint64_t)state);
	g_comm(e->data + 40, next->comm);
	g_put32(e->data + 56, (uint32_t)next->pid);
	g_put32(e->data + 60, (uint32_t)g_kprio(next->fifo));
}

/* g_wake - a sched_waking or sched_wakeup record (event id 'id') of t, by waker, for CPU target */
static void g_wake(struct g_list *l, int cpu, int64_t ts, int waker, const struct g_thread *t, int target, int id)
{
	struct g_event *e = g_new(l, cpu, ts, id, waker, 36);

	g_comm(e->data + 8, t->comm);
	g_put32(e->data + 24, (uint32_t)t->pid);
	g_put32(e->data + 28, (uint32_t)g_kprio(t->fifo));
	g_put32(e->data + 32, (uint32_t)target);
}

/* g_exit - a sched_process_exit record: t, on its way out, traces its own exit */
static void g_exit(struct g_list *l, int cpu, int64_t ts, const struct g_thread *t)
{
	struct g_event *e = g_new(l, cpu, ts, ID_EXIT, t->pid, 32);

	g_comm(e->data + 8, t->comm);
	g_put32(e->data + 24, (uint32_t)t->pid);
	g_put32(e->data + 28, (uint32_t)g_kprio(t->fifo));
}

/* g_migrate - a sched_migrate_task record: t moves from CPU 'from' to 'to' */
static void g_migrate(struct g_list *l, int cpu, int64_t ts, const struct g_thread *t, int from, int to)
{
	struct g_event *e = g_new(l, cpu, ts, ID_MIGRATE, 0, 40);

	g_comm(e->data + 8, t->comm);
	g_put32(e->data + 24, (uint32_t)t->pid);
	g_put32(e->data + 28, (uint32_t)g_kprio(t->fifo));
	g_put32(e->data + 32, (uint32_t)from);
	g_put32(e->data + 36, (uint32_t)to);
}

/* g_hrtimer - an hrtimer_expire_entry (entry) or _exit record */
static void g_hrtimer(struct g_list *l, int cpu, int64_t ts, int pid, bool entry)
{
	struct g_event *e = g_new(l, cpu, ts, entry ? ID_HRT_ENTRY : ID_HRT_EXIT, pid, entry ? 32 : 16);

	g_put64(e->data + 8, 0xffff888000001000ULL);
	if (entry)
		g_put64(e->data + 16, (uint64_t)ts);
}

/* g_irq - an irq_handler_entry record (name given) or irq_handler_exit (name NULL) */
static void g_irq(struct g_list *l, int cpu, int64_t ts, int pid, int irq, const char *name)
{
	size_t n = name ? strlen(name) + 1 : 0;
	struct g_event *e = g_new(l, cpu, ts, name ? ID_IRQ_ENTRY : ID_IRQ_EXIT, pid, name ? 16 + (int)n : 16);

	g_put32(e->data + 8, (uint32_t)irq);
	if (name) {
		g_put32(e->data + 12, (uint32_t)(16 | (n << 16)));
		memcpy(e->data + 16, name, n);
	} else {
		g_put32(e->data + 12, 1);
	}
}

/* g_local_timer - an x86 local_timer_entry (entry) or _exit record (irq_vectors, vector 236) */
static void g_local_timer(struct g_list *l, int cpu, int64_t ts, int pid, bool entry)
{
	struct g_event *e = g_new(l, cpu, ts, entry ? ID_VEC_ENTRY : ID_VEC_EXIT, pid, 12);

	g_put32(e->data + 8, 236);
}

/* g_vector - a local timer interrupt's record (g_local_timer), or with ipi an IPI's (vector 251, g_ipi) */
static void g_vector(struct g_list *l, int cpu, int64_t ts, int pid, bool entry, bool ipi)
{
	struct g_event *e;

	if (!ipi) {
		g_local_timer(l, cpu, ts, pid, entry);
		return;
	}
	e = g_new(l, cpu, ts, entry ? ID_IPI_ENTRY : ID_IPI_EXIT, pid, 12);
	g_put32(e->data + 8, 251);
}

/* g_softirq - a softirq_entry (entry) or softirq_exit record of vector vec */
static void g_softirq(struct g_list *l, int cpu, int64_t ts, int pid, int vec, bool entry)
{
	struct g_event *e = g_new(l, cpu, ts, entry ? ID_SOFTIRQ_ENTRY : ID_SOFTIRQ_EXIT, pid, 12);

	g_put32(e->data + 8, (uint32_t)vec);
}

/* g_marker - a job marker: binary (raw_data, PFM1) or text (print "pf1 ...") */
static struct g_event *g_marker(struct g_list *l, int cpu, int64_t ts, int pid, bool raw, char kind, int task,
				uint32_t seq, int64_t release_ns, unsigned flags)
{
	struct g_event *e;
	char text[96];
	int n;

	if (raw) {
		e = g_new(l, cpu, ts, ID_RAW, pid, 32);
		g_put32(e->data + 8, 0x50464d31);
		e->data[12] = (unsigned char)kind;
		e->data[13] = (unsigned char)task;
		e->data[14] = flags & 0xff;
		e->data[15] = flags >> 8;
		g_put32(e->data + 16, seq);
		g_put64(e->data + 24, (uint64_t)release_ns);
		return e;
	}
	if (kind == 'S')
		n = snprintf(text, sizeof(text), "pf1 S %d %u %lld\n", task, seq, (long long)release_ns);
	else
		n = snprintf(text, sizeof(text), "pf1 E %d %u %lld %u\n", task, seq, (long long)release_ns, flags);
	e = g_new(l, cpu, ts, ID_PRINT, pid, 16 + n + 1);
	memcpy(e->data + 16, text, n + 1);
	return e;
}

/* g_text - an ftrace print record: a text marker as trace_marker writes it */
static void g_text(struct g_list *l, int cpu, int64_t ts, int pid, const char *text)
{
	int n = (int)strlen(text);
	struct g_event *e = g_new(l, cpu, ts, ID_PRINT, pid, 16 + n + 1);

	memcpy(e->data + 16, text, n + 1);
}

/* ---- the .dat file ---- */

struct g_buf {
	char  *p;
	size_t n, cap;
};

/* g_add - append n bytes to a growing buffer (exits on out of memory: a test tool) */
static void g_add(struct g_buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("gentrace");
			exit(PF_EXIT_INTERNAL);
		}
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void g_add32(struct g_buf *b, uint32_t v) { g_add(b, &v, 4); }
static void g_add64(struct g_buf *b, uint64_t v) { g_add(b, &v, 8); }
static void g_add16(struct g_buf *b, uint16_t v) { g_add(b, &v, 2); }
/*
 * g_rt_layout - the trace is written as a PREEMPT_RT 6.1 kernel writes it:
 * its common fields end with common_preempt_lazy_count (offset 8), so every
 * event's own fields are 4 bytes further on (sched_switch's prev_comm at 12)
 */
static bool g_rt_layout;

/* g_rt_fmt - a format in the RT layout: the lazy count added, the event's fields 4 bytes on; malloc'd */
static char *g_rt_fmt(const char *fmt)
{
	static const char lazy[] = "\tfield:unsigned char common_preempt_lazy_count;\toffset:8;\tsize:1;\tsigned:0;\n";
	const char *common_end = strstr(fmt, "common_pid;"), *p;
	char *out = malloc(strlen(fmt) * 2 + sizeof(lazy)), *o = out;
	int off, n;

	if (!out) {
		perror("gentrace");
		exit(PF_EXIT_INTERNAL);
	}
	if (!common_end)	/* the headers: no event */
		return strcpy(out, fmt);
	common_end = strchr(common_end, '\n') + 1;
	memcpy(o, fmt, (size_t)(common_end - fmt));
	o += common_end - fmt;
	memcpy(o, lazy, sizeof(lazy) - 1);
	o += sizeof(lazy) - 1;
	for (p = common_end; *p;) {
		if (!strncmp(p, "offset:", 7) && sscanf(p + 7, "%d;%n", &off, &n) == 1) {
			o += sprintf(o, "offset:%d;", off + 4);
			p += 7 + n;
		} else {
			*o++ = *p++;
		}
	}
	*o = '\0';
	return out;
}

/* g_addfmt - an event format as the .dat stores it: its length, then its text */
static void g_addfmt(struct g_buf *b, const char *fmt)
{
	char *rt = g_rt_layout ? g_rt_fmt(fmt) : NULL;

	if (rt)
		fmt = rt;
	g_add64(b, strlen(fmt));
	g_add(b, fmt, strlen(fmt));
	free(rt);
}

/* g_rt_event - an event's data in the RT layout: 4 bytes (the lazy count, padding) after common_pid */
static void g_rt_event(struct g_event *e)
{
	uint32_t loc;

	memmove(e->data + 12, e->data + 8, (size_t)e->len - 8);
	memset(e->data + 8, 0, 4);
	e->len += 4;
	if ((e->data[0] | e->data[1] << 8) == ID_IRQ_ENTRY) {	/* its name's __data_loc offset */
		memcpy(&loc, e->data + 16, 4);
		loc += 4;
		memcpy(e->data + 16, &loc, 4);
	}
}

/* g_header - everything before the CPU data, with room for the CPU offsets */
static void g_header(struct g_buf *b, const int64_t *dropped, bool observer, bool exits, bool pi)
{
	static const char obs_head[] = "\nBuffer: gentrace (preflight record, streaming)\n"
				       "Observer pids: 400 401\n\n";
	static const char obs_cmdlines[] = "100 ctl100\n101 io\n200 hog\n300 ksoftirqd/1\n"
					   "400 preflight\n401 preflight\n402 preflight\n";
	const char *sched[] = { g_fmt_switch, g_fmt_waking, g_fmt_wakeup, g_fmt_migrate, g_fmt_exit, NULL };
	int nsched = (int)PF_ARRAY_SIZE(sched) - 2 + exits;	/* sched_process_exit only in a trace that has one */
	static const char *const irq[] = { g_fmt_irq_entry, g_fmt_irq_exit, g_fmt_softirq_entry, g_fmt_softirq_exit };
	static const char *const timer[] = { g_fmt_hrt_entry, g_fmt_hrt_exit };
	static const char *const vec[] = { g_fmt_vec_entry, g_fmt_vec_exit, g_fmt_ipi_entry, g_fmt_ipi_exit };
	const int nvec = g_ipi ? 4 : 2;
	static const char clock[] = "local global counter uptime perf [mono] mono_raw boot\n";
	static const char cmdlines[] = "100 ctl100\n101 io\n200 hog\n300 ksoftirqd/1\n";
	char stats[256];
	unsigned char magic[] = { 0x17, 0x08, 0x44 };
	int i, n;

	g_add(b, magic, 3);
	g_add(b, "tracing6", 9);
	g_add(b, g_long == 4 ? "\0\x04" : "\0\x08", 2);	/* little endian, the long's bytes */
	g_add32(b, G_PAGE);
	g_add(b, "header_page", 12);
	g_addfmt(b, g_long == 4 ? g_header_page32 : g_header_page);
	g_add(b, "header_event", 13);
	g_addfmt(b, g_header_event);
	g_add32(b, 2);
	g_addfmt(b, g_fmt_print);
	g_addfmt(b, g_fmt_raw);
	g_add32(b, 4);
	if (pi)		/* ... and sched_pi_setprio */
		sched[nsched++] = g_fmt_pi_setprio;
	g_add(b, "sched", 6);
	g_add32(b, (uint32_t)nsched);
	for (i = 0; i < nsched; i++)
		g_addfmt(b, sched[i]);
	g_add(b, "irq", 4);
	g_add32(b, PF_ARRAY_SIZE(irq));
	for (i = 0; i < (int)PF_ARRAY_SIZE(irq); i++)
		g_addfmt(b, irq[i]);
	g_add(b, "timer", 6);
	g_add32(b, PF_ARRAY_SIZE(timer));
	for (i = 0; i < (int)PF_ARRAY_SIZE(timer); i++)
		g_addfmt(b, timer[i]);
	g_add(b, "irq_vectors", 12);
	g_add32(b, (uint32_t)nvec);
	for (i = 0; i < nvec; i++)
		g_addfmt(b, vec[i]);
	g_add32(b, 0);			/* kallsyms */
	g_add32(b, 0);			/* printk formats */
	if (observer) {
		g_add64(b, strlen(obs_cmdlines));
		g_add(b, obs_cmdlines, strlen(obs_cmdlines));
	} else {
		g_add64(b, strlen(cmdlines));
		g_add(b, cmdlines, strlen(cmdlines));
	}
	g_add32(b, G_NCPUS);
	g_add(b, "options  ", 10);
	g_add16(b, 4);			/* TRACECLOCK */
	g_add32(b, sizeof(clock));
	g_add(b, clock, sizeof(clock));
	if (observer) {
		g_add16(b, 2);		/* CPUSTAT: the recorder's header */
		g_add32(b, sizeof(obs_head));
		g_add(b, obs_head, sizeof(obs_head));
	}
	for (i = 0; i < G_NCPUS; i++) {
		n = snprintf(stats, sizeof(stats), "CPU: %d\nentries: 0\noverrun: 0\ncommit overrun: 0\n"
			     "bytes: 0\noldest event ts: 0.000000\nnow ts: 0.000000\ndropped events: %lld\n"
			     "read events: 0\n", i, (long long)dropped[i]);
		g_add16(b, 2);		/* CPUSTAT */
		g_add32(b, (uint32_t)n + 1);
		g_add(b, stats, (size_t)n + 1);
	}
	g_add16(b, 0);
	g_add(b, "flyrecord", 10);
	for (i = 0; i < G_NCPUS; i++) {
		g_add64(b, 0);
		g_add64(b, 0);
	}
}

/* g_writer - an output file being written CPU after CPU */
struct g_writer {
	FILE   *f;
	struct g_cpu cpu;
	size_t table;			/* file offset of the CPU offset table */
	uint64_t off[G_NCPUS], size[G_NCPUS];
	int    cur;
};

/* g_open - start the hand-built .dat: its headers (with the per-CPU dropped counts), padded to a page; 0 or -errno */
static int g_open(struct g_writer *w, const char *path, const int64_t *dropped, bool observer, bool exits, bool pi)
{
	struct g_buf b = { 0 };
	long pad;

	memset(w, 0, sizeof(*w));
	w->f = fopen(path, "w");
	if (!w->f)
		return -errno;
	g_header(&b, dropped, observer, exits, pi);
	w->table = b.n - G_NCPUS * 16;
	pad = (G_PAGE - (long)(b.n % G_PAGE)) % G_PAGE;
	while (pad--)
		g_add(&b, "", 1);
	fwrite(b.p, b.n, 1, w->f);
	free(b.p);
	w->cpu.f = w->f;
	w->cur = -1;
	return 0;
}

/* g_cpu_begin - the data of the next CPU starts (CPUs in order) */
static int g_cpu_begin(struct g_writer *w, int cpu)
{
	int ret = g_page_flush(&w->cpu);

	if (ret)
		return ret;
	if (w->cur >= 0)
		w->size[w->cur] = w->cpu.bytes;
	w->cur = cpu;
	w->off[cpu] = (uint64_t)ftell(w->f);
	w->cpu.bytes = 0;
	return 0;
}

/* g_close - flush the last page and fill in the per-CPU offset / size table; 0 or -errno */
static int g_close(struct g_writer *w)
{
	int i, ret = g_page_flush(&w->cpu);

	if (w->cur >= 0)
		w->size[w->cur] = w->cpu.bytes;
	for (i = 0; i < G_NCPUS; i++)
		if (!w->off[i])
			w->off[i] = (uint64_t)ftell(w->f);
	fseek(w->f, (long)w->table, SEEK_SET);
	for (i = 0; i < G_NCPUS; i++) {
		fwrite(&w->off[i], 8, 1, w->f);
		fwrite(&w->size[i], 8, 1, w->f);
	}
	if (fclose(w->f) || ret)
		return ret ? ret : -EIO;
	return 0;
}

/* g_cmp_event - events by CPU, then time (then insertion order), for qsort */
static int g_cmp_event(const void *a, const void *b)
{
	const struct g_event *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu - y->cpu;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x < y ? -1 : 1;
}

/* g_write_list - sort a scenario's events by CPU and time, and write them */
static int g_write_list(const char *path, struct g_list *l, const int64_t *dropped, bool observer)
{
	struct g_writer w;
	bool exits = false, pi = false;
	size_t i;
	int ret, cpu = -1;

	/* keep the order of events with equal time stamps: index as tie-break needs a stable sort */
	for (i = 0; i < l->n; i++)
		l->ev[i].ts = l->ev[i].ts * 1;
	qsort(l->ev, l->n, sizeof(*l->ev), g_cmp_event);
	for (i = 0; i < l->n; i++) {
		exits |= (l->ev[i].data[0] | l->ev[i].data[1] << 8) == ID_EXIT;
		pi |= (l->ev[i].data[0] | l->ev[i].data[1] << 8) == ID_PI_SETPRIO;
		if (g_rt_layout)
			g_rt_event(&l->ev[i]);
	}
	ret = g_open(&w, path, dropped, observer, exits, pi);
	if (ret)
		return ret;
	for (i = 0; i < l->n && !ret; i++) {
		if (l->ev[i].cpu != cpu) {
			cpu = l->ev[i].cpu;
			ret = g_cpu_begin(&w, cpu);
		}
		if (!ret)
			ret = g_page_put(&w.cpu, l->ev[i].ts, l->ev[i].data, l->ev[i].len, l->ev[i].lost);
	}
	if (ret) {
		fclose(w.f);
		return ret;
	}
	return g_close(&w);
}

/* g_window - keep the events from T0 + from_us to T0 + to_us only (a flight-recorder window) */
static void g_window(struct g_list *l, long from_us, long to_us)
{
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if (l->ev[i].ts >= G_T0 + from_us * G_US && l->ev[i].ts <= G_T0 + to_us * G_US)
			l->ev[n++] = l->ev[i];
	l->n = n;
}

/*
 * g_lose_slot - CPU 1's events of slot k lost: dropped, and the CPU's next
 * event starts a page that says 7 events were missed before it
 */
static void g_lose_slot(struct g_list *l, int k)
{
	int64_t from = G_T0 + k * G_SLOT, to = from + G_SLOT;
	struct g_event *next = NULL;
	size_t i, n = 0;

	for (i = 0; i < l->n; i++)
		if (l->ev[i].cpu != 1 || l->ev[i].ts < from || l->ev[i].ts >= to)
			l->ev[n++] = l->ev[i];
	l->n = n;
	for (i = 0; i < l->n; i++)
		if (l->ev[i].cpu == 1 && l->ev[i].ts >= to && (!next || l->ev[i].ts < next->ts))
			next = &l->ev[i];
	if (next)
		next->lost = 7;
}

/* ---- scenarios ---- */

struct g_job { const char *task; uint32_t seq; int64_t rel, start, end, cpu_ns; int cpu; unsigned flags; };

/* g_timer_wake - an hrtimer on 'cpu' wakes t at r+6 (expiry r+5) while 'curr' runs */
static void g_timer_wake(struct g_list *l, int cpu, int64_t r, const struct g_thread *curr,
			 const struct g_thread *t, int target)
{
	g_hrtimer(l, cpu, r + 5 * G_US, curr->pid, true);
	g_wake(l, cpu, r + 6 * G_US, curr->pid, t, target, ID_WAKING);
	g_wake(l, cpu, r + 7 * G_US, curr->pid, t, target, ID_WAKEUP);
	g_hrtimer(l, cpu, r + 8 * G_US, curr->pid, false);
}

/* g_declare_on - two tasks declared by their threads (t0 on CPU 0, t1 on CPU 1) at T0-1000 µs, both CPUs idle from T0-900 µs */
static void g_declare_on(struct g_list *l, const struct g_thread *t0, const char *decl0, const struct g_thread *t1,
			 const char *decl1)
{
	g_text(l, 0, G_T0 - 1000 * G_US, t0->pid, decl0);
	g_text(l, 1, G_T0 - 1000 * G_US, t1->pid, decl1);
	/* both CPUs idle at the start */
	g_switch(l, 0, G_T0 - 900 * G_US, t0, G_SLEEPING, &G_IDLE);
	g_switch(l, 1, G_T0 - 900 * G_US, t1, G_SLEEPING, &G_IDLE);
}

#define G_DECL_IO "pf1 T 0 io tid=101 period_ns=10000000 deadline_ns=10000000 prio=90 policy=fifo\n"

/* g_declare - io (CPU 0) and ctl100 (CPU 1) declared */
static void g_declare(struct g_list *l)
{
	g_declare_on(l, &G_IO, G_DECL_IO, &G_CTL,
		     "pf1 T 1 ctl100 tid=100 period_ns=10000000 deadline_ns=0 prio=80 policy=fifo\n");
}

/* g_basic - the scenario described at the top of this file */
static int g_basic(struct g_list *l, struct g_job *jobs, int *njobs, bool lost, bool observer, bool irqs)
{
	int64_t r, s, e;
	uint32_t seq = 0;
	int k, n = 0;

	g_declare(l);
	for (k = 0; k < 12; k++) {
		r = G_T0 + k * G_SLOT;
		/* io on CPU 0 */
		g_timer_wake(l, 0, r, &G_IDLE, &G_IO, 0);
		if (k != 7)	/* 7: the switch is not traced (as this VM's CPU 1 never does from idle) */
			g_switch(l, 0, r + 10 * G_US, &G_IDLE, G_RUNNING, &G_IO);
		g_marker(l, 0, r + 12 * G_US, G_IO.pid, true, 'S', 0, (uint32_t)k, r, 0);
		g_marker(l, 0, r + 1012 * G_US, G_IO.pid, true, 'E', 0, (uint32_t)k, r, 0);
		g_switch(l, 0, r + 1015 * G_US, &G_IO, G_SLEEPING, k == 5 ? &G_CTL : &G_IDLE);
		jobs[n++] = (struct g_job){ "io", (uint32_t)k, r, r + 12 * G_US, r + 1012 * G_US, 1000 * G_US, 0, 0 };

		/* ctl100 */
		if (k == 10 || k == 9)
			continue;	/* 9: runs on from job 8; 10: missed activation */
		if (k == 11)
			seq = 10;
		else
			seq = (uint32_t)k;
		if (k == 3) {
			g_switch(l, 1, r - 50 * G_US, &G_IDLE, G_RUNNING, &G_HOG);
			g_timer_wake(l, 1, r, &G_HOG, &G_CTL, 1);
			g_switch(l, 1, r + 150 * G_US, &G_HOG, G_SLEEPING, &G_CTL);
			s = r + 152 * G_US;
		} else if (k == 5) {
			g_timer_wake(l, 1, r, &G_IDLE, &G_CTL, 0);
			g_migrate(l, 1, r + 7 * G_US, &G_CTL, 1, 0);
			s = r + 1017 * G_US;	/* switched in when io sleeps, above */
		} else if (observer && (k == 2 || k == 4)) {
			const struct g_thread *pf = k == 4 ? &G_REC : &G_LOADPF;
			int64_t until = (k == 4 ? 90 : 50) * G_US;

			g_switch(l, 1, r - (k == 4 ? 20 : 10) * G_US, &G_IDLE, G_RUNNING, pf);
			g_timer_wake(l, 1, r, pf, &G_CTL, 1);
			if (k == 4) {
				g_irq(l, 1, r + 30 * G_US, pf->pid, 24, "virtio0-input");
				g_irq(l, 1, r + 40 * G_US, pf->pid, 24, NULL);
			}
			g_switch(l, 1, r + until, pf, G_PREEMPT, &G_CTL);
			s = r + until + 2 * G_US;
		} else if (k == 6) {
			g_switch(l, 1, r + 2 * G_US, &G_IDLE, G_RUNNING, &G_KSOFT);
			g_softirq(l, 1, r + 3 * G_US, G_KSOFT.pid, 3, true);
			g_timer_wake(l, 1, r, &G_KSOFT, &G_CTL, 1);
			g_irq(l, 1, r + 20 * G_US, G_KSOFT.pid, 24, "virtio0-input");
			g_irq(l, 1, r + 40 * G_US, G_KSOFT.pid, 24, NULL);
			g_softirq(l, 1, r + 103 * G_US, G_KSOFT.pid, 3, false);
			g_switch(l, 1, r + 110 * G_US, &G_KSOFT, G_PREEMPT, &G_CTL);
			s = r + 112 * G_US;
		} else if (irqs && k == 2) {
			/* the switch from worker to ctl100 is not in the trace (this VM loses some) */
			g_switch(l, 1, r - 100 * G_US, &G_IDLE, G_RUNNING, &G_WORKER);
			g_timer_wake(l, 1, r, &G_WORKER, &G_CTL, 1);
			s = r + 52 * G_US;
		} else if (irqs && k == 1) {
			g_local_timer(l, 1, r + 4 * G_US, G_IDLE.pid, true);
			g_timer_wake(l, 1, r, &G_IDLE, &G_CTL, 1);
			g_local_timer(l, 1, r + 9 * G_US, G_IDLE.pid, false);
			g_switch(l, 1, r + 10 * G_US, &G_IDLE, G_RUNNING, &G_CTL);
			s = r + 12 * G_US;
			/* inside the job: 42 us of interrupts, none of it the job's execution time */
			g_irq(l, 1, r + 500 * G_US, G_CTL.pid, 24, "virtio0-input");
			g_irq(l, 1, r + 520 * G_US, G_CTL.pid, 24, NULL);
			g_local_timer(l, 1, r + 800 * G_US, G_CTL.pid, true);
			g_local_timer(l, 1, r + 809 * G_US, G_CTL.pid, false);
			g_softirq(l, 1, r + 809 * G_US, G_CTL.pid, 1, true);
			g_softirq(l, 1, r + 812 * G_US, G_CTL.pid, 1, false);
			g_softirq(l, 1, r + 1000 * G_US, G_CTL.pid, 3, true);
			g_irq(l, 1, r + 1002 * G_US, G_CTL.pid, 24, "virtio0-input");
			g_irq(l, 1, r + 1004 * G_US, G_CTL.pid, 24, NULL);
			g_softirq(l, 1, r + 1010 * G_US, G_CTL.pid, 3, false);
		} else {
			g_timer_wake(l, 1, r, &G_IDLE, &G_CTL, 1);
			g_switch(l, 1, r + 10 * G_US, &G_IDLE, G_RUNNING, &G_CTL);
			s = r + 12 * G_US;
		}
		int cpu = k == 5 ? 0 : 1;
		g_marker(l, cpu, s, G_CTL.pid, false, 'S', 1, seq, r, 0);
		if (k == 8) {
			/* 12 ms job; job 9 follows without sleeping */
			int64_t r9 = r + G_SLOT;

			e = s + 12000 * G_US;
			g_marker(l, cpu, e, G_CTL.pid, false, 'E', 1, seq, r, 3);
			jobs[n++] = (struct g_job){ "ctl100", seq, r, s + G_US, e, e - s, cpu, 3 };
			g_timer_wake(l, 1, r9, &G_CTL, &G_CTL, 1);	/* ignored: ctl100 is running */
			s = e + G_US;
			g_marker(l, cpu, s, G_CTL.pid, false, 'S', 1, 9, r9, 0);
			e = s + 2000 * G_US;
			g_marker(l, cpu, e, G_CTL.pid, false, 'E', 1, 9, r9, 0);
			g_switch(l, cpu, e + 3 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
			jobs[n++] = (struct g_job){ "ctl100", 9, r9, s + G_US, e, e - s, cpu, 0 };
			continue;
		}
		e = s + 2000 * G_US;
		if (lost && k == 3)
			g_marker(l, cpu, e, G_CTL.pid, false, 'E', 1, seq, r, 0)->lost = 5;
		else
			g_marker(l, cpu, e, G_CTL.pid, false, 'E', 1, seq, r, 0);
		g_switch(l, cpu, e + 3 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
		jobs[n++] = (struct g_job){ "ctl100", seq, r, s + G_US, e, e - s, cpu, 0 };
	}
	*njobs = n;
	return 0;
}

/*
 * g_chain - the 'chain' scenario: a task released by another late task.
 * r = T0; CPU 0: hog (pid 200, FIFO 95) runs from r-50 to r+3281 µs; io's
 * timer wakes it at r+6 (expiry r+5); io switches in at r+3281 and starts at
 * r+3283 (3283 µs late); at r+3290 io wakes ctl100 (sched_waking in io's
 * context) for CPU 1, where twelve hackbench threads (pids 400..411) run
 * 10 µs each from r+3290 to r+3410; ctl100 switches in at r+3410 and starts
 * at r+3412 (3412 µs late: 3290 µs waiting for io, 120 µs hackbench, 2 µs to
 * its start marker). Both jobs end 500 µs after their start.
 */
static int g_chain(struct g_list *l)
{
	static const struct g_thread hack[12] = {
		{ 400, "hackbench", 0 }, { 401, "hackbench", 0 }, { 402, "hackbench", 0 }, { 403, "hackbench", 0 },
		{ 404, "hackbench", 0 }, { 405, "hackbench", 0 }, { 406, "hackbench", 0 }, { 407, "hackbench", 0 },
		{ 408, "hackbench", 0 }, { 409, "hackbench", 0 }, { 410, "hackbench", 0 }, { 411, "hackbench", 0 },
	};
	int64_t r = G_T0, t;
	int i;

	g_declare(l);
	g_switch(l, 0, r - 50 * G_US, &G_IDLE, G_RUNNING, &G_HOG);
	g_timer_wake(l, 0, r, &G_HOG, &G_IO, 0);
	g_switch(l, 0, r + 3281 * G_US, &G_HOG, G_SLEEPING, &G_IO);
	g_marker(l, 0, r + 3283 * G_US, G_IO.pid, true, 'S', 0, 0, r, 0);
	g_wake(l, 0, r + 3290 * G_US, G_IO.pid, &G_CTL, 1, ID_WAKING);
	g_wake(l, 0, r + 3291 * G_US, G_IO.pid, &G_CTL, 1, ID_WAKEUP);
	g_marker(l, 0, r + 3783 * G_US, G_IO.pid, true, 'E', 0, 0, r, 0);
	g_switch(l, 0, r + 3785 * G_US, &G_IO, G_SLEEPING, &G_IDLE);
	for (i = 0, t = r + 3290 * G_US; i < 12; i++, t += 10 * G_US)
		g_switch(l, 1, t, i ? &hack[i - 1] : &G_IDLE, i ? G_SLEEPING : G_RUNNING, &hack[i]);
	g_switch(l, 1, t, &hack[11], G_SLEEPING, &G_CTL);
	g_marker(l, 1, r + 3412 * G_US, G_CTL.pid, false, 'S', 1, 0, r, 0);
	g_marker(l, 1, r + 3912 * G_US, G_CTL.pid, false, 'E', 1, 0, r, 0);
	g_switch(l, 1, r + 3915 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
	return 0;
}

/* g_flags - the common_flags of the event written last (G_HARDIRQ, G_SOFTIRQ: where it ran) */
#define G_HARDIRQ 0x08
#define G_SOFTIRQ 0x10
static void g_flags(struct g_list *l, unsigned flags) { l->ev[l->n - 1].data[2] = (unsigned char)flags; }

/*
 * g_inferback - the 'inferback' scenario: a switch inferred back to a wakeup
 * takes the interrupts after it along. On CPU 1 (r = T0): ctl100 runs from
 * r+10, starts at r+12; it wakes io for CPU 1 at r+50 (io's FIFO 90 over its
 * 80), the local timer interrupt is r+100 .. r+400 in ctl100's context; io's
 * switch-in is not in the trace: its start marker r+500 is its first event,
 * so CPU 1 is io's from r+50 and the interrupt is io's time. io ends at r+600
 * and sleeps at r+610; ctl100 ends at r+700, sleeps at r+710. Execution
 * times: ctl100 38 + 90 = 128 us (it was 128 - 300 = -172 us), io 100 us.
 * With 'early' (gentrace early), io's start marker says it was released at
 * r+550, after it: a corrupt marker.
 */
static int g_inferback(struct g_list *l, bool early)
{
	int64_t r = G_T0;

	g_declare(l);
	if (g_ipi) {	/* one on the idle CPU 1 before ctl100 runs: a part of its latency */
		g_vector(l, 1, r + 1 * G_US, 0, true, true);
		g_flags(l, G_HARDIRQ);
		g_vector(l, 1, r + 6 * G_US, 0, false, true);
		g_flags(l, G_HARDIRQ);
	}
	g_switch(l, 1, r + 10 * G_US, &G_IDLE, G_RUNNING, &G_CTL);
	g_marker(l, 1, r + 12 * G_US, G_CTL.pid, false, 'S', 1, 0, r, 0);
	g_wake(l, 1, r + 50 * G_US, G_CTL.pid, &G_IO, 1, ID_WAKING);
	g_vector(l, 1, r + 100 * G_US, G_CTL.pid, true, g_ipi);
	g_flags(l, G_HARDIRQ);
	g_vector(l, 1, r + 400 * G_US, G_CTL.pid, false, g_ipi);
	g_flags(l, G_HARDIRQ);
	g_marker(l, 1, r + 500 * G_US, G_IO.pid, true, 'S', 0, 0, early ? r + 550 * G_US : r, 0);
	g_marker(l, 1, r + 600 * G_US, G_IO.pid, true, 'E', 0, 0, r, 0);
	g_switch(l, 1, r + 610 * G_US, &G_IO, G_SLEEPING, &G_CTL);
	g_marker(l, 1, r + 700 * G_US, G_CTL.pid, false, 'E', 1, 0, r, 0);
	g_switch(l, 1, r + 710 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
	return 0;
}

/*
 * g_chained - the 'chained' scenario: every wakeup is fast, but io runs long
 * and releases ctl100 late in the slot (docs/results.md: wakeup_latency_ns).
 * Slot k = 0 (r = T0 + k * 10 ms): io's timer on the idle CPU 0 wakes
 * it at r+6 (expiry r+5), it runs at r+10, starts at r+12; at r+3012 it wakes
 * ctl100 (in its context) for the idle CPU 1, and ends at r+3512 (switch-out
 * r+3515); ctl100 runs at r+3020, starts at r+3022 (activation latency 3022
 * us, wakeup latency 10 us: chained, its root io's job) and ends at r+3522.
 * Slot 2: as the tick does, io wakes ctl100 for its own CPU 0 at r+11, before
 * its start marker; ctl100 waits behind io (FIFO 90 over its 80) and runs when
 * io sleeps at r+3515, starts at r+3517 (activation latency 3517 us, wakeup
 * latency 2 us: 3506 us less io's 3504 us on its CPU; its root io's job 2).
 * Slot 1 is as slot 0; with 'silent' (gentrace silent), it is a timer held
 * off by a CPU that shows no event: stress-ng-cpu (pid 600, SCHED_OTHER) runs on CPU 0 from
 * r-100; nothing happens there until the local timer interrupt r+3855 ..
 * r+3860, whose hrtimer (expiry r+3856) wakes io at r+3857; io preempts
 * stress-ng at r+3862 and starts at r+3864 (3864 us late: 3855 us silent,
 * no event on CPU 0 for 3955 us; local timer 5 us, stress-ng 2 us, 2 us to
 * the start marker), wakes ctl100 at r+3900 (CPU 1 idle: runs r+3905, starts
 * r+3907, wakeup latency 7 us, root io's job 1), ends at r+3964.
 */
/* g_chained_ctl - ctl100's job k on the idle CPU 1: switch-in at r + in_us, start 2 us later, 500 us of work */
static void g_chained_ctl(struct g_list *l, int64_t r, int64_t in_us, int k)
{
	int64_t in = r + in_us * G_US;

	g_switch(l, 1, in, &G_IDLE, G_RUNNING, &G_CTL);
	g_marker(l, 1, in + 2 * G_US, G_CTL.pid, false, 'S', 1, k, r, 0);
	g_marker(l, 1, in + 502 * G_US, G_CTL.pid, false, 'E', 1, k, r, 0);
	g_switch(l, 1, in + 505 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
}

/*
 * g_chained_io - io's job k: it preempts 'prev' (left in 'state', and back on
 * CPU 0 after io) at r + in_us, starts 2 us later, wakes ctl100 wake_us after
 * its start and ends work_us after it; ctl100 runs ctl_us after the waking
 */
static void g_chained_io(struct g_list *l, int64_t r, int k, int64_t in_us, const struct g_thread *prev, long state,
			 int64_t wake_us, int64_t work_us, int64_t ctl_us)
{
	int64_t s = r + (in_us + 2) * G_US;

	g_switch(l, 0, s - 2 * G_US, prev, state, &G_IO);
	g_marker(l, 0, s, G_IO.pid, true, 'S', 0, k, r, 0);
	g_wake(l, 0, s + wake_us * G_US, G_IO.pid, &G_CTL, 1, ID_WAKING);
	g_wake(l, 0, s + (wake_us + 1) * G_US, G_IO.pid, &G_CTL, 1, ID_WAKEUP);
	g_marker(l, 0, s + work_us * G_US, G_IO.pid, true, 'E', 0, k, r, 0);
	g_switch(l, 0, s + (work_us + 3) * G_US, &G_IO, G_SLEEPING, prev);
	g_chained_ctl(l, r, in_us + 2 + wake_us + ctl_us, k);
}

static int g_chained(struct g_list *l, bool silent)
{
	static const struct g_thread stress = { 600, "stress-ng-cpu", 0 };
	int64_t r;
	int k;

	g_declare(l);
	for (k = 0; k < 3; k++) {
		r = G_T0 + k * G_SLOT;
		if (k == 1 && silent) {
			g_switch(l, 0, r - 100 * G_US, &G_IDLE, G_RUNNING, &stress);
			g_local_timer(l, 0, r + 3855 * G_US, stress.pid, true);
			g_flags(l, G_HARDIRQ);
			g_hrtimer(l, 0, r + 3856 * G_US, stress.pid, true);
			g_flags(l, G_HARDIRQ);
			g_wake(l, 0, r + 3857 * G_US, stress.pid, &G_IO, 0, ID_WAKING);
			g_flags(l, G_HARDIRQ);
			g_wake(l, 0, r + 3858 * G_US, stress.pid, &G_IO, 0, ID_WAKEUP);
			g_flags(l, G_HARDIRQ);
			g_hrtimer(l, 0, r + 3859 * G_US, stress.pid, false);
			g_flags(l, G_HARDIRQ);
			g_local_timer(l, 0, r + 3860 * G_US, stress.pid, false);
			g_flags(l, G_HARDIRQ);
			g_chained_io(l, r, k, 3862, &stress, G_RUNNING, 36, 100, 5);
			g_switch(l, 0, r + 4000 * G_US, &stress, G_SLEEPING, &G_IDLE);
			continue;
		}
		g_timer_wake(l, 0, r, &G_IDLE, &G_IO, 0);
		if (k == 2) {
			/* the tick's order: it wakes ctl100 for its own CPU before its start marker */
			g_switch(l, 0, r + 10 * G_US, &G_IDLE, G_RUNNING, &G_IO);
			g_wake(l, 0, r + 11 * G_US, G_IO.pid, &G_CTL, 0, ID_WAKING);
			g_marker(l, 0, r + 12 * G_US, G_IO.pid, true, 'S', 0, k, r, 0);
			g_marker(l, 0, r + 3512 * G_US, G_IO.pid, true, 'E', 0, k, r, 0);
			g_switch(l, 0, r + 3515 * G_US, &G_IO, G_SLEEPING, &G_CTL);
			g_marker(l, 0, r + 3517 * G_US, G_CTL.pid, false, 'S', 1, k, r, 0);
			g_marker(l, 0, r + 4017 * G_US, G_CTL.pid, false, 'E', 1, k, r, 0);
			g_switch(l, 0, r + 4020 * G_US, &G_CTL, G_SLEEPING, &G_IDLE);
			continue;
		}
		g_chained_io(l, r, k, 10, &G_IDLE, G_RUNNING, 3000, 3500, 8);
	}
	return 0;
}

/* g_pi_setprio - a sched_pi_setprio record in ctx's context: t's priority oldprio -> newprio (kernel priorities) */
static void g_pi_setprio(struct g_list *l, int cpu, int64_t ts, int ctx, const struct g_thread *t, int oldprio,
			 int newprio)
{
	struct g_event *e = g_new(l, cpu, ts, ID_PI_SETPRIO, ctx, 36);

	g_comm(e->data + 8, t->comm);
	g_put32(e->data + 24, (uint32_t)t->pid);
	g_put32(e->data + 28, (uint32_t)oldprio);
	g_put32(e->data + 32, (uint32_t)newprio);
}

/* g_hard_timer_wake - a hard hrtimer expiring at 'at' on 'cpu' (in a hard IRQ, over curr) wakes t 1 us later */
static void g_hard_timer_wake(struct g_list *l, int cpu, int64_t at, int curr, const struct g_thread *t)
{
	g_hrtimer(l, cpu, at, curr, true);
	g_flags(l, G_HARDIRQ);
	g_wake(l, cpu, at + G_US, curr, t, cpu, ID_WAKING);
	g_flags(l, G_HARDIRQ);
	g_hrtimer(l, cpu, at + 3 * G_US, curr, false);
	g_flags(l, G_HARDIRQ);
}

/* g_switch_prio - g_switch with the priorities the kernel reports (a boosted thread's) */
static void g_switch_prio(struct g_list *l, int cpu, int64_t ts, const struct g_thread *prev, int prev_prio,
			  long state, const struct g_thread *next, int next_prio)
{
	g_switch(l, cpu, ts, prev, state, next);
	g_put32(l->ev[l->n - 1].data + 28, (uint32_t)prev_prio);
	g_put32(l->ev[l->n - 1].data + 60, (uint32_t)next_prio);
}

/*
 * g_rt - a PREEMPT_RT 6.1 kernel's trace (g_rt_layout), 2 CPUs, T0 = 1000 s:
 *   nav (pid 102, task 2, FIFO 40) on CPU 0, job 0 released at T0 = r:
 *     r+2..r+4   IRQ 45 (spi0), its hard part, on the idle CPU: wakes irq/45-spi0 (pid 150, FIFO 50)
 *     r+4        irq/45-spi0 runs, to r+124; the hrtimer at r+5 wakes nav at r+6 (hard IRQ)
 *     r+124      nav runs, starts r+126: 126 us late - irq/45-spi0 (IRQ 45) 120 us, irq 45 2 us,
 *                idle 2 us, switch-in to start 2 us
 *   io (pid 101, task 0, FIFO 90) on CPU 1, jobs 0..2 released at r = T0 + k * 10 ms:
 *     k=0  rcuc/1 (pid 20, FIFO 1) runs from r-100; the hard IRQ at r+5 wakes ktimers/1 (pid 17,
 *          FIFO 1), which runs only when rcuc/1 sleeps at r+6900; its HRTIMER softirq
 *          r+6902..r+6906 expires io's timer (now r+6903) and wakes io at r+6904; io runs at
 *          r+6910, starts r+6912: woken by ktimers/1 after 6904 us, which waited behind rcuc/1
 *          6900 us; from the waking: HRTIMER softirq 2 us, ktimers/1 4 us, switch-in 2 us.
 *          ktimers/1 (RT 1) woke io (RT 90): an inversion by the rtapp rules (a timerfd on RT).
 *     k=1  lowprio (pid 600, SCHED_OTHER) runs from r-200 holding a PI lock; the timer wakes
 *          io at r+6, it runs at r+10, starts r+12, blocks on the lock at r+20 (boosting lowprio
 *          to prio 9, RT 90) and sleeps at r+22; lowprio runs boosted to r+822, deboosts, wakes
 *          io at r+823 (no inversion: the PI holder); io runs r+825, ends r+1012.
 *          pi: holder 600, boost_prio 9, boosted_ns 800000, blocked_ns 801000
 *     k=2  the same with a non-PI lock: io sleeps at r+22; medhog (pid 601, FIFO 50) preempts
 *          lowprio r+100..r+600; lowprio unlocks and wakes io at r+700: an inversion, 678 us
 *          blocked; io runs r+702, ends r+1012.
 */
static int g_rt(struct g_list *l)
{
	static const struct g_thread nav = { 102, "nav", 40 }, irqt = { 150, "irq/45-spi0", 50 },
		ktimers = { 17, "ktimers/1", 1 }, rcuc = { 20, "rcuc/1", 1 }, low = { 600, "lowprio", 0 },
		med = { 601, "medhog", 50 };
	int64_t r = G_T0;
	int k;

	g_rt_layout = true;
	g_declare_on(l, &nav, "pf1 T 2 nav tid=102 period_ns=10000000 deadline_ns=0 prio=40 policy=fifo\n", &G_IO,
		     G_DECL_IO);

	/* nav: a threaded IRQ handler above it */
	g_irq(l, 0, r + 2 * G_US, 0, 45, "spi0");
	g_flags(l, G_HARDIRQ);
	g_wake(l, 0, r + 3 * G_US, 0, &irqt, 0, ID_WAKING);
	g_flags(l, G_HARDIRQ);
	g_irq(l, 0, r + 4 * G_US, 0, 45, NULL);
	g_flags(l, G_HARDIRQ);
	g_switch(l, 0, r + 4 * G_US, &G_IDLE, G_RUNNING, &irqt);
	g_hard_timer_wake(l, 0, r + 5 * G_US, irqt.pid, &nav);
	g_switch(l, 0, r + 124 * G_US, &irqt, G_SLEEPING, &nav);
	g_marker(l, 0, r + 126 * G_US, nav.pid, true, 'S', 2, 0, r, 0);
	g_marker(l, 0, r + 500 * G_US, nav.pid, true, 'E', 2, 0, r, 0);
	g_switch(l, 0, r + 502 * G_US, &nav, G_SLEEPING, &G_IDLE);

	/* io job 0: its timer expires in ktimers/1, which rcuc/1 keeps waiting */
	g_switch(l, 1, r - 100 * G_US, &G_IDLE, G_RUNNING, &rcuc);
	g_wake(l, 1, r + 5 * G_US, rcuc.pid, &ktimers, 1, ID_WAKING);
	g_flags(l, G_HARDIRQ);
	g_switch(l, 1, r + 6900 * G_US, &rcuc, G_SLEEPING, &ktimers);
	g_softirq(l, 1, r + 6902 * G_US, ktimers.pid, 8, true);
	g_flags(l, G_SOFTIRQ);
	g_hrtimer(l, 1, r + 6903 * G_US, ktimers.pid, true);
	g_flags(l, G_SOFTIRQ);
	g_wake(l, 1, r + 6904 * G_US, ktimers.pid, &G_IO, 1, ID_WAKING);
	g_flags(l, G_SOFTIRQ);
	g_hrtimer(l, 1, r + 6905 * G_US, ktimers.pid, false);
	g_flags(l, G_SOFTIRQ);
	g_softirq(l, 1, r + 6906 * G_US, ktimers.pid, 8, false);
	g_flags(l, G_SOFTIRQ);
	g_switch(l, 1, r + 6910 * G_US, &ktimers, G_PREEMPT, &G_IO);
	g_marker(l, 1, r + 6912 * G_US, G_IO.pid, true, 'S', 0, 0, r, 0);
	g_marker(l, 1, r + 7000 * G_US, G_IO.pid, true, 'E', 0, 0, r, 0);
	g_switch(l, 1, r + 7002 * G_US, &G_IO, G_SLEEPING, &ktimers);
	g_switch(l, 1, r + 7004 * G_US, &ktimers, G_SLEEPING, &G_IDLE);

	/* io jobs 1 and 2: a lock held by lowprio, with priority inheritance, then without */
	for (k = 1; k <= 2; k++) {
		r = G_T0 + k * G_SLOT;
		g_switch(l, 1, r - 200 * G_US, &G_IDLE, G_RUNNING, &low);
		g_hard_timer_wake(l, 1, r + 5 * G_US, low.pid, &G_IO);
		g_switch(l, 1, r + 10 * G_US, &low, G_PREEMPT, &G_IO);
		g_marker(l, 1, r + 12 * G_US, G_IO.pid, true, 'S', 0, (uint32_t)k, r, 0);
		if (k == 1) {
			g_pi_setprio(l, 1, r + 20 * G_US, G_IO.pid, &low, 120, 9);
			g_switch_prio(l, 1, r + 22 * G_US, &G_IO, 9, 2 /* D */, &low, 9);
			g_pi_setprio(l, 1, r + 822 * G_US, low.pid, &low, 9, 120);
			g_wake(l, 1, r + 823 * G_US, low.pid, &G_IO, 1, ID_WAKING);
			g_switch(l, 1, r + 825 * G_US, &low, G_PREEMPT, &G_IO);
		} else {
			g_switch(l, 1, r + 22 * G_US, &G_IO, G_SLEEPING, &low);
			g_hard_timer_wake(l, 1, r + 96 * G_US, low.pid, &med);
			g_switch(l, 1, r + 100 * G_US, &low, G_PREEMPT, &med);
			g_switch(l, 1, r + 600 * G_US, &med, G_SLEEPING, &low);
			g_wake(l, 1, r + 700 * G_US, low.pid, &G_IO, 1, ID_WAKING);
			g_switch(l, 1, r + 702 * G_US, &low, G_PREEMPT, &G_IO);
		}
		g_marker(l, 1, r + 1012 * G_US, G_IO.pid, true, 'E', 0, (uint32_t)k, r, 0);
		g_switch(l, 1, r + 1015 * G_US, &G_IO, G_SLEEPING, &low);
		g_switch(l, 1, r + 1100 * G_US, &low, G_SLEEPING, &G_IDLE);
	}
	return 0;
}

/*
 * g_exits - a realtime thread woken three times (10, 20, 30 us from its
 * sched_waking, 1 us less from its sched_wakeup) exits after its third run;
 * its pid comes back as another realtime thread, woken once (50 us). The
 * analysis must list two threads of pid 600, each with its own latencies.
 */
static int g_exits(struct g_list *l)
{
	static const struct g_thread first = { 600, "shortlived", 50 }, again = { 600, "reborn", 40 };
	int64_t w;
	int k;

	for (k = 0; k < 3; k++) {
		w = G_T0 + k * 1000 * G_US;
		g_wake(l, 0, w, 0, &first, 0, ID_WAKING);
		g_wake(l, 0, w + G_US, 0, &first, 0, ID_WAKEUP);
		g_switch(l, 0, w + (k + 1) * 10 * G_US, &G_IDLE, G_RUNNING, &first);
		if (k == 2)
			g_exit(l, 0, w + 90 * G_US, &first);
		g_switch(l, 0, w + 100 * G_US, &first, k == 2 ? G_DEAD : G_SLEEPING, &G_IDLE);
	}
	w = G_T0 + 4000 * G_US;
	g_wake(l, 1, w, 0, &again, 1, ID_WAKING);
	g_wake(l, 1, w + G_US, 0, &again, 1, ID_WAKEUP);
	g_switch(l, 1, w + 50 * G_US, &G_IDLE, G_RUNNING, &again);
	g_switch(l, 1, w + 150 * G_US, &again, G_SLEEPING, &G_IDLE);
	return 0;
}

/* g_only_markers - keep the app's markers only (a trace of ftrace:print / raw_data alone) */
static void g_only_markers(struct g_list *l)
{
	size_t i, n = 0;
	int id;

	for (i = 0; i < l->n; i++) {
		id = l->ev[i].data[0] | l->ev[i].data[1] << 8;
		if (id == ID_PRINT || id == ID_RAW)
			l->ev[n++] = l->ev[i];
	}
	l->n = n;
}

/* g_write_joblog - the job log of a scenario (docs/joblog.md) */
static int g_write_joblog(const char *path, const struct g_job *jobs, int n)
{
	FILE *f = fopen(path, "w");
	int i;

	if (!f)
		return -errno;
	fprintf(f, "# preflight-joblog v1\n# slot_ns=10000000\n# profile=synthetic\n"
		"# start_mono_ns=%lld\n"
		"# task.io=id=0 kind=tick period_ns=10000000 deadline_ns=10000000 policy=fifo prio=90\n"
		"# task.ctl100=id=1 kind=periodic period_ns=10000000 deadline_ns=10000000 policy=fifo prio=80\n"
		"task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed\n", (long long)G_T0);
	for (i = 0; i < n; i++)
		fprintf(f, "%s,%u,%lld,%lld,%lld,%lld,%d,%u,%d\n", jobs[i].task, jobs[i].seq,
			(long long)jobs[i].rel, (long long)jobs[i].start, (long long)jobs[i].end,
			(long long)jobs[i].cpu_ns, jobs[i].cpu, jobs[i].flags,
			!strcmp(jobs[i].task, "ctl100") && jobs[i].seq == 10);
	fprintf(f, "# end_mono_ns=%lld\n# missed_after_last.ctl100=0\n# dropped.io=0\n",
		(long long)(G_T0 + 12 * G_SLOT));
	return fclose(f) ? -EIO : 0;
}

/*
 * g_storm - about n events of a busy 2-CPU system, generated CPU by CPU
 * straight into the file: 64 threads per CPU switching, waking, IRQs,
 * softirqs, timers, and the app's io / ctl100 jobs with raw markers on CPU 0
 */
static int g_storm(const char *path, long n)
{
	static const int64_t none[G_NCPUS] = { 0 };
	struct g_list l = { 0 };
	struct g_writer w;
	struct g_thread th[64];
	char names[64][16];
	uint64_t rnd = 42;
	long per_cpu = n / G_NCPUS, done;
	int64_t ts, next_job;
	uint32_t seq;
	int cpu, i, curr, next, ret;
	size_t k;

	ret = g_open(&w, path, none, false, false, false);
	if (ret)
		return ret;
	for (cpu = 0; cpu < G_NCPUS && !ret; cpu++) {
		ret = g_cpu_begin(&w, cpu);
		for (i = 0; i < 64; i++) {
			snprintf(names[i], sizeof(names[i]), "worker%d/%d", i, cpu);
			th[i] = (struct g_thread){ 1000 + cpu * 100 + i, names[i], i < 8 ? 50 + i : 0 };
		}
		ts = G_T0;
		next_job = G_T0;
		seq = 0;
		curr = 0;
		done = 0;
		while (done < per_cpu && !ret) {
			l.n = 0;
			rnd = rnd * 6364136223846793005ULL + 1442695040888963407ULL;
			next = (int)((rnd >> 33) % 64);
			ts += 2 * G_US + (int64_t)((rnd >> 20) % 4000);
			if (cpu == 0 && ts >= next_job) {
				g_timer_wake(&l, 0, ts, &th[curr], &G_IO, 0);
				g_switch(&l, 0, ts + 10 * G_US, &th[curr], G_PREEMPT, &G_IO);
				g_marker(&l, 0, ts + 12 * G_US, G_IO.pid, true, 'S', 0, seq, next_job, 0);
				g_marker(&l, 0, ts + 100 * G_US, G_IO.pid, true, 'E', 0, seq, next_job, 0);
				g_switch(&l, 0, ts + 102 * G_US, &G_IO, G_SLEEPING, &th[curr]);
				ts += 110 * G_US;
				seq++;
				next_job += G_SLOT;
			}
			g_wake(&l, cpu, ts, th[curr].pid, &th[next], cpu, ID_WAKING);
			g_wake(&l, cpu, ts + 1000, th[curr].pid, &th[next], cpu, ID_WAKEUP);
			if ((rnd >> 40) % 4 == 0) {
				g_irq(&l, cpu, ts + 1500, th[curr].pid, 24, "virtio0-input");
				g_irq(&l, cpu, ts + 2500, th[curr].pid, 24, NULL);
				g_softirq(&l, cpu, ts + 2600, th[curr].pid, 3, true);
				g_softirq(&l, cpu, ts + 3600, th[curr].pid, 3, false);
			}
			g_hrtimer(&l, cpu, ts + 3700, th[curr].pid, true);
			g_hrtimer(&l, cpu, ts + 3800, th[curr].pid, false);
			g_switch(&l, cpu, ts + 4000, &th[curr], (rnd >> 50) % 2 ? G_SLEEPING : G_PREEMPT, &th[next]);
			ts += 4000;
			curr = next;
			for (k = 0; k < l.n && !ret; k++)
				ret = g_page_put(&w.cpu, l.ev[k].ts, l.ev[k].data, l.ev[k].len, 0);
			done += (long)l.n;
		}
	}
	free(l.ev);
	if (ret) {
		fclose(w.f);
		return ret;
	}
	return g_close(&w);
}

/* g_floor_record - count one record by its event id, nothing more */
static int g_floor_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	uint64_t *counts = data;
	int type = tep_data_type(tracecmd_get_tep(h), rec);

	counts[type & 1023]++;
	counts[1024]++;
	return 0;
}

/* g_floor - read a trace decoding only event ids, the way analysis iterates */
static int g_floor(const char *path)
{
	struct tracecmd_input *hs[64], *h;
	uint64_t *counts = calloc(1025, sizeof(*counts));
	int64_t t0 = pf_now_ns();
	int i, n, nh = 0;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS | TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	if (!h || !counts) {
		fprintf(stderr, "gentrace: floor: %s: cannot open\n", path);
		return PF_EXIT_USAGE;
	}
	hs[nh++] = h;
	n = tracecmd_buffer_instances(h);
	for (i = 0; i < n && nh < 64; i++)
		if ((hs[nh] = tracecmd_buffer_instance_handle(h, i)))
			nh++;
	tracecmd_iterate_events_multi(hs, nh, g_floor_record, counts);
	printf("events %llu seconds %.3f\n", (unsigned long long)counts[1024], (double)(pf_now_ns() - t0) / 1e9);
	for (i = 1; i < nh; i++)
		tracecmd_close(hs[i]);
	tracecmd_close(h);
	free(counts);
	return 0;
}

int main(int argc, char **argv)
{
	static const int64_t none[G_NCPUS] = { 0 }, dropped[G_NCPUS] = { 2, 0 };
	struct g_list l = { 0 };
	struct g_job jobs[64];
	int njobs = 0, ret;
	long n;
	bool lost, observer;

	pf_set_prog("gentrace");
	if (getenv("GENTRACE_LONG") && !strcmp(getenv("GENTRACE_LONG"), "4"))
		g_long = 4;
	g_stamps = getenv("GENTRACE_STAMPS") && !strcmp(getenv("GENTRACE_STAMPS"), "1");
	if (argc >= 3 && !strcmp(argv[1], "floor"))
		return g_floor(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "storm")) {
		if (pf_parse_long(argv[3], 1000, 1000000000L, &n))
			return pf_fail(PF_EXIT_USAGE, "storm: '%s' is not an event count", argv[3]);
		ret = g_storm(argv[2], n);
		return ret ? pf_fail(PF_EXIT_ENV, "%s: %s", argv[2], strerror(-ret)) : 0;
	}
	if (argc >= 3 && (!strcmp(argv[1], "basic") || !strcmp(argv[1], "lost") || !strcmp(argv[1], "markers") ||
			  !strcmp(argv[1], "observer") || !strcmp(argv[1], "irqs") || !strcmp(argv[1], "lostgap"))) {
		lost = !strcmp(argv[1], "lost") || !strcmp(argv[1], "lostgap");
		observer = !strcmp(argv[1], "observer");
		g_basic(&l, jobs, &njobs, lost, observer, !strcmp(argv[1], "irqs"));
		if (!strcmp(argv[1], "markers"))
			g_only_markers(&l);
		if (!strcmp(argv[1], "lostgap"))
			g_lose_slot(&l, 6);
		ret = g_write_list(argv[2], &l, lost ? dropped : none, observer);
		free(l.ev);
		if (!ret && argc >= 4)
			ret = g_write_joblog(argv[3], jobs, njobs);
		return ret ? pf_fail(PF_EXIT_ENV, "%s: %s", argv[2], strerror(-ret)) : 0;
	}
	if (argc >= 5 && !strcmp(argv[1], "window")) {
		long from, to;

		if (pf_parse_long(argv[3], 0, 1000000, &from) || pf_parse_long(argv[4], from, 1000000, &to))
			return pf_fail(PF_EXIT_USAGE, "window: '%s' '%s': not FROM <= TO in us after T0", argv[3],
				       argv[4]);
		g_basic(&l, jobs, &njobs, false, false, false);
		g_window(&l, from, to);
		ret = g_write_list(argv[2], &l, none, false);
		free(l.ev);
		if (!ret && argc >= 6)
			ret = g_write_joblog(argv[5], jobs, njobs);
		return ret ? pf_fail(PF_EXIT_ENV, "%s: %s", argv[2], strerror(-ret)) : 0;
	}
	if (argc == 3 && (!strcmp(argv[1], "chain") || !strcmp(argv[1], "exits") || !strcmp(argv[1], "rt") ||
			  !strcmp(argv[1], "chained") || !strcmp(argv[1], "silent") || !strcmp(argv[1], "inferback") ||
			  !strcmp(argv[1], "early") || !strcmp(argv[1], "ipi"))) {
		g_ipi = !strcmp(argv[1], "ipi");
		if (!strcmp(argv[1], "inferback") || !strcmp(argv[1], "early") || g_ipi)
			g_inferback(&l, !strcmp(argv[1], "early"));
		else if (!strcmp(argv[1], "chain"))
			g_chain(&l);
		else if (!strcmp(argv[1], "chained") || !strcmp(argv[1], "silent"))
			g_chained(&l, !strcmp(argv[1], "silent"));
		else if (!strcmp(argv[1], "rt"))
			g_rt(&l);
		else
			g_exits(&l);
		ret = g_write_list(argv[2], &l, none, false);
		free(l.ev);
		return ret ? pf_fail(PF_EXIT_ENV, "%s: %s", argv[2], strerror(-ret)) : 0;
	}
	fprintf(stderr, "usage: gentrace basic|lost|lostgap|markers|observer|irqs OUT.dat [JOBLOG] | window OUT.dat FROM TO "
		"[JOBLOG] | chain|chained|silent|exits|rt|inferback|early|ipi OUT.dat | storm OUT.dat N | floor FILE.dat\n");
	return PF_EXIT_USAGE;
}
