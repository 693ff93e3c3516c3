/*
 * rec_stream.c - moving raw ring-buffer pages from the kernel to disk.
 *
 * One thread per CPU blocks in libtracefs (tracefs_cpu_write: select() on
 * trace_pipe_raw until the instance's buffer_percent watermark is reached,
 * then splice() of whole pages into the CPU's file), so memory stays bounded
 * however long the run. At the end tracefs_cpu_stop() wakes the threads,
 * which drain what is left, including the partly filled last page.
 *
 * The same files serve the flight recorder, which drains the frozen buffer
 * without threads (rec_drain).
 */
#define _GNU_SOURCE
#include "rec.h"
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

/* rec_cpu_files_open - open (truncate) one raw page file per CPU in the session's tmpdir */
int rec_cpu_files_open(struct rec_session *s, const char *tag)
{
	int cpu;

	if (!s->cpus) {
		s->cpus = calloc(s->ncpus, sizeof(*s->cpus));
		if (!s->cpus)
			return -ENOMEM;
		for (cpu = 0; cpu < s->ncpus; cpu++)
			s->cpus[cpu].fd = -1;
	}
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		c->s = s;
		c->cpu = cpu;
		c->bytes = 0;
		c->err = 0;
		if (c->fd >= 0)
			close(c->fd);
		snprintf(c->path, sizeof(c->path), "%s/%s.cpu%d", s->tmpdir, tag, cpu);
		c->fd = open(c->path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (c->fd < 0)
			return -errno;
	}
	return 0;
}

/* rec_cpu_files_close - close the per-CPU files (and the ring-buffer readers), removing the files if asked */
void rec_cpu_files_close(struct rec_session *s, bool remove)
{
	int cpu;

	for (cpu = 0; s->cpus && cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		if (c->tcpu)
			tracefs_cpu_close(c->tcpu);
		c->tcpu = NULL;
		if (c->fd >= 0)
			close(c->fd);
		c->fd = -1;
		if (remove && c->path[0])
			unlink(c->path);
	}
}

/* rec_cpu_open_reader - open the CPU's trace_pipe_raw through libtracefs */
static int rec_cpu_open_reader(struct rec_session *s, struct rec_cpu *c, bool nonblock)
{
	if (c->tcpu)
		return 0;
	c->tcpu = tracefs_cpu_open(s->inst, c->cpu, nonblock);
	if (!c->tcpu)
		return errno ? -errno : -EIO;
	s->subbuf_size = tracefs_cpu_read_size(c->tcpu);
	return 0;
}

/* rec_cpu_drain - move everything the buffer holds into the file, partial page included */
static int rec_cpu_drain(struct rec_cpu *c)
{
	int n;

	while ((n = tracefs_cpu_write(c->tcpu, c->fd, true)) > 0)
		c->bytes += n;
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return -errno;
	while ((n = tracefs_cpu_flush_write(c->tcpu, c->fd)) > 0)
		c->bytes += n;
	if (n < 0 && errno != EAGAIN)
		return -errno;
	return 0;
}

/* rec_stream_thread - one CPU: block until pages are ready, splice them to disk */
static void *rec_stream_thread(void *arg)
{
	struct rec_cpu *c = arg;
	struct rec_session *s = c->s;
	int n;

	c->tid = (int)gettid();
	while (!__atomic_load_n(&s->stop, __ATOMIC_ACQUIRE)) {
		n = tracefs_cpu_write(c->tcpu, c->fd, false);
		if (n > 0) {
			c->bytes += n;
		} else if (n < 0 && errno != EINTR && errno != EAGAIN) {
			c->err = -errno;
			break;
		}
	}
	if (!c->err)
		c->err = rec_cpu_drain(c);
	return NULL;
}

/* rec_stream_start - open every CPU's reader and start its stream thread */
int rec_stream_start(struct rec_session *s)
{
	int cpu, ret;

	__atomic_store_n(&s->stop, 0, __ATOMIC_RELEASE);
	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		if ((ret = rec_cpu_open_reader(s, c, false)) < 0) {
			if (cpu == 0)
				return ret;
			/* an offline CPU has no buffer to read: its file stays empty */
			pf_err("note: cpu%d: no ring buffer to read (%s); recording the others",
			       cpu, strerror(-ret));
			continue;
		}
		ret = pthread_create(&c->thread, NULL, rec_stream_thread, c);
		if (ret)
			return -ret;
		c->running = true;
	}
	return 0;
}

/* rec_stream_failed - a stream thread stopped on an error (a full disk): the recording must end */
bool rec_stream_failed(struct rec_session *s)
{
	int cpu;

	for (cpu = 0; s->cpus && cpu < s->ncpus; cpu++)
		if (s->cpus[cpu].running && __atomic_load_n(&s->cpus[cpu].err, __ATOMIC_ACQUIRE))
			return true;
	return false;
}

/*
 * rec_stream_stop - wake and join the stream threads after tracing was
 * switched off; each drains its CPU first; 0 or the first thread error
 */
int rec_stream_stop(struct rec_session *s)
{
	int cpu, ret = 0;

	__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	for (cpu = 0; s->cpus && cpu < s->ncpus; cpu++)
		if (s->cpus[cpu].running)
			tracefs_cpu_stop(s->cpus[cpu].tcpu);
	for (cpu = 0; s->cpus && cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		if (!c->running)
			continue;
		pthread_join(c->thread, NULL);
		c->running = false;
		if (c->err && !ret)
			ret = c->err;
	}
	return ret;
}

/* rec_drain - flight recorder: read the whole (frozen) buffer of every CPU into the files */
int rec_drain(struct rec_session *s)
{
	int cpu, ret;

	for (cpu = 0; cpu < s->ncpus; cpu++) {
		struct rec_cpu *c = &s->cpus[cpu];

		if ((ret = rec_cpu_open_reader(s, c, true)) < 0) {
			if (cpu == 0)
				return ret;
			continue;	/* offline CPU: nothing recorded there */
		}
		if ((ret = rec_cpu_drain(c)) < 0)
			return ret;
	}
	return 0;
}
