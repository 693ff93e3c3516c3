/*
 * joblog.h - a reader of the app's job log (docs/joblog.md): one row at a
 * time, its '#' metadata lines handed to the caller as they come. It knows
 * the file's format only, nothing of tasks or of the trace.
 */
#ifndef AN_JOBLOG_H
#define AN_JOBLOG_H

#include <stdint.h>

/* an_jlrow - one job-log row */
struct an_jlrow {
	char     task[32];
	uint32_t seq;
	int64_t  release_ns, start_ns, end_ns, cpu_ns;
	int      cpu;
	unsigned flags;
	uint64_t missed;
};

#define AN_JL_OVERRUN  0x1
#define AN_JL_DEADLINE 0x2
#define AN_JL_NORT     0x4

struct an_joblog;

/* an_jl_meta_fn - one '#' metadata line ("# key=value\n"); 0, or an exit code that stops the reading */
typedef int an_jl_meta_fn(void *ctx, const char *line);

/* open path; the metadata lines before the first row go to head (before any row is read) */
int  an_joblog_open(const char *path, an_jl_meta_fn *head, void *ctx, struct an_joblog **out);
/* the next row: 1 row in *row, 0 end of file, or -exit code; metadata lines met on the way go to meta */
int  an_joblog_next(struct an_joblog *jl, an_jl_meta_fn *meta, void *ctx, struct an_jlrow **row);
void an_joblog_close(struct an_joblog *jl);
/*
 * the number of the file's last line when it ends without a newline (cut
 * short by a full disk or a crash): that line was skipped, not read; else 0
 */
long an_joblog_cut_line(const struct an_joblog *jl);
/* the file's path and the number of the line read last (the one a metadata callback is given) */
const char *an_joblog_path(const struct an_joblog *jl);
long an_joblog_lineno(const struct an_joblog *jl);

#endif
