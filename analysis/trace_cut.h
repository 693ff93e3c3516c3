/*
 * trace_cut.h - a trace-cmd file cut short (a recording ended by power loss
 * or a full disk before its CPU data was all written): what analyze reads
 * of it instead of refusing it whole (analysis/trace_cut.c).
 */
#ifndef AN_TRACE_CUT_H
#define AN_TRACE_CUT_H

#include <stddef.h>
#include <stdint.h>

/*
 * an_trace_cut_copy - for a v6 file whose per-CPU data runs past its end: a
 * private copy (an unnamed temporary file, nothing is left behind) in which
 * each CPU's data is what the file holds, in whole pages. Its path
 * (/proc/self/fd/N) goes to copy_path, the file's size and the size its
 * headers declare to *have and *declared. The fd (close it when done), or
 * -errno (-EINVAL: not such a file)
 */
int an_trace_cut_copy(const char *path, int ncpus, char *copy_path, size_t size,
		      int64_t *have, int64_t *declared);

/*
 * an_trace_cut_v7 - a v7 (compressed) file cut short: its chain of options
 * sections, which trace-cmd writes last with the index of the CPU data
 * (option BUFFER), leads past its end. 1 with the file's size in *have and
 * the first byte of the chain it lacks in *missing, 0 when the file is no
 * such file (another fault), or -errno
 */
int an_trace_cut_v7(const char *path, int64_t *have, int64_t *missing);

#endif
