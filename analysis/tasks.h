/*
 * tasks.h - what tasks.c offers: the app's tasks from the trace's markers
 * and the job log's rows, matched job by job, and the per-task metrics and
 * culprits. Below it only sched.c, the job-log reader and the per-job table
 * (docs/ARCHITECTURE.md).
 */
#ifndef AN_TASKS_H
#define AN_TASKS_H

#include "types.h"
#include "joblog_read.h"

int  an_stat_init(struct an_stat *s, int64_t width, uint32_t nbins, const char *unit);
void an_stat_free(struct an_stat *s);
int  an_stat_add(struct an_stat *s, int64_t v, int64_t at, int64_t id);
json_t *an_stat_json(struct an_stat *s);
struct an_task *an_task_by_name(struct an_run *r, const char *name, bool create);
struct an_task *an_task_declare(struct an_run *r, const char *name, int id, const char *kv, bool from_trace);
void an_app_resolve(struct an_run *r);

/*
 * an_marker_order - 0, or the error of a start or end marker ('S', 'E') at
 * ts before its job's release (a negative latency or response time is a
 * corrupt input) of the trace file path at byte offset
 */
int  an_marker_order(const char *path, unsigned long long offset, char kind, int task_id, uint32_t seq,
		     int64_t ts, int64_t release_ns);
/* the marker callbacks, called by the trace reader with decoded fields */
/* a text marker (docs/markers.md) of the trace file path at byte offset (for an error) */
int  an_on_marker_text(struct an_run *r, int cpu, int64_t ts, int pid, const char *s, int len,
		       const char *path, unsigned long long offset);
int  an_on_marker_start(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq, int64_t release_ns);
int  an_on_marker_end(struct an_run *r, int cpu, int64_t ts, int pid, int task_id, uint32_t seq,
		      int64_t release_ns, unsigned flags);
void an_tasks_lost_window(struct an_run *r, int64_t start_ns, int64_t end_ns);
int  an_tasks_finish(struct an_run *r);
void an_tasks_free(struct an_run *r);
/* an_fmt_us - a duration for people: "188 µs", "3.4 µs" */
void an_fmt_us(char *buf, size_t size, int64_t ns);

void an_culprit_line(const struct an_run *r, const struct an_task *t, const struct an_culprit *c,
		     char *buf, size_t size);
/* an_culprit_parts_text - a culprit line's parts after its head (" — hog (pid 200) 150 µs, ... [100 % explained]") */
void an_culprit_parts_text(const struct an_run *r, const char *self, const struct an_culprit *c,
			   char *buf, size_t size);
/*
 * an_culprit_fill - what ran on 'cpu' between c->from_ns and c->start_ns
 * (th the victim), from the CPU's history: c's contributors, explained_ns,
 * history and complete. Called when the trace has reached c->start_ns.
 */
void an_culprit_fill(struct an_run *r, struct an_thread *th, int cpu, struct an_culprit *c);

/* the job log: its metadata, its rows matched with the trace's jobs, or alone */
int  an_tasks_joblog_open(struct an_run *r, const char *path);
int  an_jlrow_consume(struct an_run *r, struct an_task *t, const struct pf_jlrow *row, const struct an_job *job);
int  an_tasks_joblog_match(struct an_run *r, struct an_task *t, const struct an_job *job);
int  an_tasks_joblog_drain(struct an_run *r);
int  an_tasks_joblog_alone(struct an_run *r);
void an_tasks_joblog_close(struct an_run *r);

#endif
