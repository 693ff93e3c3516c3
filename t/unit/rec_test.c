/*
 * rec_test.c - unit tests of the recorder's pure logic: parsing the per-CPU
 * statistics into lost-event counts (the interface analysis reads), event-set
 * expansion, the pid -> comm table, and rec_read_lost_events on the
 * committed reference traces (run from the top of the tree, as prove does).
 */
#include "common.h"
#include "traces/rec.h"
#include "traces/rec_read.h"
#include "tap.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char rec_stats_lossy[] =
	"\nBuffer: preflight-1 (preflight record, streaming)\n\n"
	"CPU: 0\nentries: 10\noverrun: 289\ncommit overrun: 1\nbytes: 4000\n"
	"oldest event ts:  1190.208715\nnow ts:  1191.212426\ndropped events: 0\nread events: 5\n"
	"CPU: 1\nentries: 3\noverrun: 203\ncommit overrun: 0\nbytes: 100\n"
	"dropped events: 7\nread events: 0\n";

/* test_cpustats - stats text -> lost counts, streaming and flight window */
static void test_cpustats(void)
{
	struct rec_lost lost;
	char *window;

	check_int(rec_parse_cpustats(rec_stats_lossy, &lost), ==, 0, "rec-1.1 lossy stats parse");
	check_int(lost.ncpus, ==, 2, "rec-1.2 two CPU blocks");
	check_int(lost.cpu[0].overrun, ==, 289, "rec-1.3 cpu0 overrun");
	check_int(lost.cpu[0].commit_overrun, ==, 1, "rec-1.4 'commit overrun' is not 'overrun'");
	check_int(lost.cpu[1].dropped, ==, 7, "rec-1.5 cpu1 dropped events");
	check_int(lost.cpu[0].read, ==, 5, "rec-1.6 cpu0 read events");
	check_int(lost.lost, ==, 289 + 1 + 203 + 7, "rec-1.7 streaming: overrun + commit + dropped");
	check(!lost.window, "rec-1.8 streaming file is not a window");

	window = malloc(sizeof(rec_stats_lossy) + 32);
	snprintf(window, sizeof(rec_stats_lossy) + 32, "Buffer: x (preflight record, "
		 "flight-recorder window)\n%s", strstr(rec_stats_lossy, "CPU: 0"));
	check_int(rec_parse_cpustats(window, &lost), ==, 0, "rec-1.9 window stats parse");
	check(lost.window, "rec-1.10 flight window recognised");
	check_int(lost.lost, ==, 1 + 7, "rec-1.11 window: overrun is older than the window, not lost");
	free(window);

	check_int(rec_parse_cpustats("", &lost), ==, -ENODATA, "rec-1.12 empty text: no data");
	check_int(rec_parse_cpustats(NULL, &lost), ==, -ENODATA, "rec-1.13 NULL: no data");
	check_int(rec_parse_cpustats("overrun: 5\n", &lost), ==, -ENODATA,
		  "rec-1.14 counts outside a CPU block are ignored");
}

/* test_observers - rec-5.x: the "Observer pids:" line of the recorder's CPUSTAT header */
static void test_observers(void)
{
	const char *text = "\nBuffer: x (preflight record, streaming)\nObserver pids: 7 12 300\n\nCPU: 0\n"
			   "entries: 0\n";
	int pids[4] = { 0 };

	check_int(rec_parse_observers(text, pids, 4), ==, 3, "rec-5.1 three observer thread ids");
	check_int(pids[0] * 10000 + pids[1] * 100 + pids[2], ==, 7 * 10000 + 12 * 100 + 300, "rec-5.2 ... in order");
	check_int(rec_parse_observers(text, pids, 2), ==, 3, "rec-5.3 more than max: the count, max stored");
	check_int(rec_parse_observers(text, NULL, 0), ==, 3, "rec-5.4 counting alone");
	check_int(rec_parse_observers("CPU: 0\nentries: 0\n", pids, 4), ==, -ENODATA,
		  "rec-5.5 stats without the line (trace-cmd record): observer unknown");
	check_int(rec_parse_observers("Observer pids:\n", pids, 4), ==, 0, "rec-5.6 an empty list is known and empty");
}

/* test_events - event sets and lists */
static void test_events(void)
{
	struct rec_events ev;
	int i, sched_n, found = 0;

	check_int(rec_events_parse("sched", &ev), ==, 0, "rec-2.1 'sched' set");
	sched_n = ev.n;
	check_int(sched_n, ==, 7, "rec-2.2 sched set has the seven documented events");
	check_str(ev.ev[0].system, "sched", "rec-2.3 system split from event");
	check_str(ev.ev[0].event, "sched_switch", "rec-2.4 event name");
	for (i = 0; i < ev.n; i++)
		found += ev.ev[i].optional;
	check(found == 1 && !strcmp(ev.ev[6].event, "sched_pi_setprio") && ev.ev[6].optional,
	      "rec-2.4b ... sched_pi_setprio the one optional (a kernel without it still records)");
	found = 0;
	check_int(rec_events_parse("default,sched:sched_pi_setprio", &ev), ==, 0, "rec-2.4c a set's event named again");
	check(!ev.ev[6].optional, "rec-2.4d ... is required: named on its own, its absence is an error");
	check_int(rec_events_parse("default", &ev), ==, 0, "rec-2.5 'default' set");
	check_int(ev.n, ==, sched_n + 15, "rec-2.6 default = sched + irq/softirq/hrtimer + x86's irq_vectors");
	for (i = 0; i < ev.n; i++)
		found += !strcmp(ev.ev[i].system, "irq_vectors") && ev.ev[i].optional;
	check_int(found, ==, 8, "rec-2.6b ... the irq_vectors optional (absent on other architectures)");
	found = 0;
	for (i = 0; i < ev.n; i++)
		found += !strcmp(ev.ev[i].system, "irq_vectors") && ev.ev[i].filter && !strcmp(ev.ev[i].filter, "common_pid != 0");
	check_int(found, ==, 8, "rec-2.6c ... recorded only when they interrupt a thread (not the idle task)");
	found = 0;
	check_int(rec_events_parse("full", &ev), ==, 0, "rec-2.7 'full' set");
	for (i = 0; i < ev.n; i++)
		found += !strcmp(ev.ev[i].system, "irq_vectors") && !ev.ev[i].filter;
	check_int(found, ==, 10, "rec-2.7b ... with every irq_vectors event unfiltered");
	found = 0;
	for (i = 0; i < ev.n; i++)
		found += !strcmp(ev.ev[i].system, "workqueue") && ev.ev[i].optional;
	check(found >= 4, "rec-2.8 full adds workqueue events, optional per kernel");
	check_int(rec_events_parse("sched,irq:irq_handler_entry,workqueue,timer/timer_start",
				   &ev), ==, 0, "rec-2.9 mixed list");
	check_int(ev.n, ==, sched_n + 3, "rec-2.10 list items appended");
	check_str(ev.ev[sched_n + 1].event, "", "rec-2.11 a bare system enables the whole system");
	check_str(ev.ev[sched_n + 2].event, "timer_start", "rec-2.12 system/event form");
	check_int(rec_events_parse("sched,sched", &ev), ==, 0, "rec-2.13 duplicates accepted");
	check_int(ev.n, ==, sched_n, "rec-2.14 duplicates merged");
	check_int(rec_events_parse("", &ev), ==, -EINVAL, "rec-2.15 empty spec refused");
	check_int(rec_events_parse("sched;rm -rf", &ev), ==, -EINVAL, "rec-2.16 bad characters refused");
	check_int(rec_events_parse(":x", &ev), ==, -EINVAL, "rec-2.17 empty system refused");
}

/* test_comms - the pid -> comm table */
static void test_comms(void)
{
	struct rec_comms c = { 0 };
	char name[32];
	int pid, bad = 0;

	check_int(rec_comm_set(&c, 42, "old", 100), ==, 0, "rec-3.1 insert");
	rec_comm_set(&c, 42, "new", 200);
	check_str(rec_comm_get(&c, 42), "new", "rec-3.2 newer observation wins");
	rec_comm_set(&c, 42, "older", 50);
	check_str(rec_comm_get(&c, 42), "new", "rec-3.3 older observation ignored");
	rec_comm_set(&c, 7, "averyveryverylongthreadname", 1);
	check_int(strlen(rec_comm_get(&c, 7)), ==, REC_COMM_LEN, "rec-3.4 comm cut to 16 chars");
	check(rec_comm_get(&c, 8) == NULL, "rec-3.5 unknown pid");
	for (pid = 1000; pid < 21000; pid++) {
		snprintf(name, sizeof(name), "t%d", pid);
		rec_comm_set(&c, pid, name, pid);
	}
	for (pid = 1000; pid < 21000; pid++) {
		snprintf(name, sizeof(name), "t%d", pid);
		bad += !rec_comm_get(&c, pid) || strcmp(rec_comm_get(&c, pid), name);
	}
	check_int(bad, ==, 0, "rec-3.6 20000 threads kept through table growth");
	check_int(c.used, ==, 20002, "rec-3.7 entry count");
	rec_comm_set(&c, 0, "idle", 1);
	rec_comm_set(&c, 9, "", 1);
	check_int(c.used, ==, 20002, "rec-3.8 pid 0 and empty comm not stored");
	/* a flight recorder's snapshot forgets the threads last seen before its window */
	check_int(rec_comm_forget(&c, 20000), ==, 0, "rec-3.9 forget what was seen before 20000");
	bad = 0;
	for (pid = 1000; pid < 21000; pid++)
		bad += (rec_comm_get(&c, pid) != NULL) != (pid >= 20000);
	check_int(bad, ==, 0, "rec-3.10 the 1000 threads seen since are kept, the 19000 before are not");
	check(c.used == 1000 && c.size == 2048 && !strcmp(rec_comm_get(&c, 20999), "t20999"),
	      "rec-3.11 the table shrinks to fit what is kept (%zu entries in %zu slots)", c.used, c.size);
	rec_comm_free(&c);
}

/* test_ref_traces - the committed reference traces carry their CPU stats */
static void test_ref_traces(void)
{
	static const char *const refs[] = {
		"traces/ref/app-alone.dat", "traces/ref/app-cpuload.dat",
		"traces/ref/app-text-markers.dat", "traces/ref/cyclictest-tracemark.dat",
	};
	struct rec_lost lost;
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(refs); i++) {
		int ret = rec_read_lost_events(refs[i], &lost);

		check_int(ret, ==, 0, "rec-4.%zu %s has CPU stats", 2 * i + 1, refs[i]);
		check(ret == 0 && lost.ncpus >= 1 && lost.lost == 0,
		      "rec-4.%zu %s: %d CPUs, %llu lost", 2 * i + 2, refs[i], lost.ncpus,
		      (unsigned long long)lost.lost);
	}
	check(rec_read_lost_events("traces/ref/does-not-exist.dat", &lost) < 0,
	      "rec-4.9 missing file is an error");
	check(rec_read_lost_events("traces/README.md", &lost) < 0,
	      "rec-4.10 a text file is not a trace");
}

int main(void)
{
	tap_plan(14 + 23 + 8 + 13 + 6);
	test_cpustats();
	test_observers();
	test_events();
	test_comms();
	test_ref_traces();
	return tap_done();
}
