/*
 * rec_read.h - what other components read from a recorded .dat file without
 * knowing how the recorder works: the lost-event counts and the recorder's
 * own thread ids (the observer).
 *
 * preflight record stores the per-CPU ring-buffer statistics (the kernel's
 * per_cpu/cpuN/stats text) as trace-cmd CPUSTAT options, exactly like
 * trace-cmd record and trace-cmd extract do, so the same reader works on
 * files from any of the three. See docs/recorder.md.
 */
#ifndef REC_READ_H
#define REC_READ_H

#include <stdbool.h>
#include <stdint.h>

#define REC_MAX_CPUS 256
/*
 * In the CPUSTAT "Buffer:" line of a file whose recording ended early: what
 * 'preflight record --recover' made of a killed recorder's pages, or what a
 * full disk cut; the text after it says why and where it ends
 */
#define REC_INCOMPLETE_TAG "INCOMPLETE: "

struct rec_lost_cpu {
	int cpu;			/* CPU number as the stats text says */
	uint64_t entries;		/* events still in the buffer when stats were read */
	uint64_t overrun;		/* events overwritten before they were read */
	uint64_t commit_overrun;	/* events lost inside a nested commit */
	uint64_t dropped;		/* events dropped (buffer full, overwrite off) */
	uint64_t read;			/* events read by the recorder */
};

struct rec_lost {
	int ncpus;			/* CPUs with statistics in the file */
	bool window;			/* flight-recorder snapshot: overrun is older than the window */
	bool rt_wakeups;		/* wakeups recorded of realtime threads only (record --wakeups rt) */
	bool rt_switches;		/* switches recorded to or from realtime threads and idle only (--switches rt) */
	uint64_t lost;			/* events lost inside the recorded span (0: complete) */
	char incomplete[200];		/* why the recording ends early (REC_INCOMPLETE_TAG), or "" */
	struct rec_lost_cpu cpu[REC_MAX_CPUS];
};

/*
 * rec_read_lost_events - the lost-event counts stored in a .dat file (v6 or
 * v7): 0, -ENODATA when the file carries no CPU statistics (loss unknown),
 * or -errno when it cannot be opened as a trace-cmd file
 */
int rec_read_lost_events(const char *path, struct rec_lost *out)
	__attribute__((warn_unused_result));

/* the words of the CPUSTAT buffer line that say wakeups were filtered (docs/recorder.md) */
#define REC_RT_WAKEUPS_TEXT "wakeups of realtime threads only"
/* ... and that switches were */
#define REC_RT_SWITCHES_TEXT "switches of realtime threads and idle only"

/*
 * rec_parse_cpustats - parse CPUSTAT text ("CPU: 0\nentries: ...\noverrun: ...")
 * into 'out'; 0 or -ENODATA when no CPU block is found
 */
int rec_parse_cpustats(const char *text, struct rec_lost *out);

/*
 * rec_parse_observers - the thread ids of the "Observer pids:" lines of
 * CPUSTAT text (the recorder's own threads and those of the processes it was
 * told are preflight's, docs/recorder.md) into pids[0..max-1]: how many
 * (more than max: only max stored), or -ENODATA when the text has no such line
 */
int rec_parse_observers(const char *text, int *pids, int max);

#endif
