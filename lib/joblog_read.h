/*
 * joblog_read.h - the reader of the app's job log (docs/joblog.md): one row
 * at a time, its '#' metadata lines handed to the caller as they come. It
 * knows the file's format only, nothing of tasks or of the trace. Errors
 * (format version, columns, a row that cannot be) are said here, as
 * "FILE:LINE: why", and come back as -exit code.
 */
#ifndef PF_JOBLOG_READ_H
#define PF_JOBLOG_READ_H

#include <stdint.h>

/* pf_jlrow - one job-log row */
struct pf_jlrow {
	char     task[32];
	uint32_t seq;
	int64_t  release_ns, start_ns, end_ns, cpu_ns;
	int      cpu;
	unsigned flags;
	uint64_t missed;
};

#define PF_JL_OVERRUN  0x1
#define PF_JL_DEADLINE 0x2
#define PF_JL_NORT     0x4

struct pf_joblog;

/* pf_jl_meta_fn - one '#' metadata line ("# key=value\n"); 0, or an exit code that stops the reading */
typedef int pf_jl_meta_fn(void *ctx, const char *line);

/* pf_joblog_open - open path (0, or an exit code, said); the metadata lines before the first row go to head (before any row is read) */
int  pf_joblog_open(const char *path, pf_jl_meta_fn *head, void *ctx, struct pf_joblog **out);
/* pf_joblog_next - the next row: 1 row in *row, 0 end of file, or -exit code; metadata lines met on the way go to meta */
int  pf_joblog_next(struct pf_joblog *jl, pf_jl_meta_fn *meta, void *ctx, struct pf_jlrow **row);
void pf_joblog_close(struct pf_joblog *jl);
/*
 * the number of the file's last line when it ends without a newline (cut
 * short by a full disk or a crash): that line was skipped, not read; else 0
 */
long pf_joblog_cut_line(const struct pf_joblog *jl);
/* the file's path and the number of the line read last (the one a metadata callback is given) */
const char *pf_joblog_path(const struct pf_joblog *jl);
long pf_joblog_lineno(const struct pf_joblog *jl);

#endif
