/*
 * rec_cut.h - opening a trace-cmd .dat file for reading its events, and when
 * it was cut short (a recording ended by power loss or a full disk, an
 * archived copy cut by a full disk or a killed copy) what it holds instead of
 * refusing it whole: 'preflight analyze' and 'preflight record --summary'
 * read through it (traces/rec_cut.c, docs/recorder.md "A file cut short").
 */
#ifndef REC_CUT_H
#define REC_CUT_H

#include <stdint.h>

#include <trace-cmd/trace-cmd.h>

enum rec_open_result {
	REC_OPEN_OK,		/* opened: the whole file, or what a cut file holds (note says so) */
	REC_OPEN_BAD_HEADERS,	/* libtracecmd cannot read its headers, and it was not cut short */
	REC_OPEN_CUT_HEADERS,	/* cut short inside its headers: nothing to read (note says why) */
	REC_OPEN_BAD_DATA,	/* its CPU data cannot be set up, and it was not cut short */
};

struct rec_cut {
	int fd;			/* the private copy read instead of the file (unnamed), or -1 */
	int64_t have;		/* the file's size, bytes */
	int64_t declared;	/* bytes its headers declare (for v7: at least), 0: not cut */
	char note[320];		/* "truncated: the file ends at byte N of ..." (or, with
				   REC_OPEN_CUT_HEADERS, why nothing can be read), or "" */
};

/*
 * rec_cut_open - open 'path' with libtracecmd (tracecmd_open_head with
 * 'flags', then tracecmd_init_data) into *h. A v6 file whose CPU data runs
 * past its end is read in whole pages as far as it goes; a v7 (compressed)
 * one cut anywhere after its headers in every whole compressed chunk before
 * the cut; cut->note then says where it ends. A result; close *h, then
 * rec_cut_close(cut), when done. On failure *h is NULL, no copy is left, and
 * a failed handle is left open on purpose: libtracecmd 3.1 faults when
 * closing a handle whose data failed to initialise.
 */
enum rec_open_result rec_cut_open(const char *path, int flags, struct tracecmd_input **h,
				  struct rec_cut *cut) __attribute__((warn_unused_result));

/* rec_cut_close - drop the private copy rec_cut_open read from, if any */
void rec_cut_close(struct rec_cut *cut);

#endif
