/*
 * spi.c - the SPI load: an exerciser doing full-duplex transfers of a fixed
 * size (500 bytes, REQ-SPI-001) at a configured rate over the emulated SPI
 * link, timing every transfer into a lib/hist.h histogram and counting the
 * transfers over the limit (1 ms).
 *
 * The emulated link is a UNIX SOCK_SEQPACKET socket: one message from the
 * master is the bytes it clocks out, the one message back is the bytes the
 * slave clocked out during the same transfer (same length). With
 * link=PATH the exerciser connects to a slave listening at PATH (the
 * simulator's link); by default it runs its own echo peer, a child process
 * on the other end of a socket pair that answers each frame with its bitwise
 * complement, so every reply is also checked for length and content.
 */
#define _GNU_SOURCE
#include "load.h"
#include "common.h"
#include "hist.h"

#include <errno.h>
#include <math.h>
#include <jansson.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define SPI_MAX_BYTES 4096
#define SPI_HIST_NS   100000000		/* histogram preallocated for 0 .. 100 ms */

struct spi_load {
	uint32_t rate_hz;		/* transfers per second */
	uint32_t size;			/* bytes per transfer, both directions */
	uint32_t prio;			/* SCHED_FIFO priority of the exerciser, 0 = SCHED_OTHER */
	int64_t limit_ns;		/* a transfer longer than this counts as over */
	char link[108];			/* slave socket path, "" = own echo peer */
	int fd;				/* master end */
	struct pf_proc peer;		/* own echo peer */
	pthread_t thread;
	bool running;
	atomic_int stop;
	struct pf_hist hist;		/* transfer times */
	uint64_t over;			/* transfers over limit_ns */
	uint64_t errors;		/* short, failed or corrupt transfers */
	uint64_t skipped;		/* periods skipped because a transfer ran long */
	uint64_t bytes;			/* bytes moved, both directions */
	int last_errno;
	int64_t first_ns, last_ns;
};

static void spi_defaults(struct load *l)
{
	struct spi_load *s = l->priv;

	s->rate_hz = 1000;
	s->size = 500;
	s->limit_ns = PF_NS_PER_MS;
	s->fd = -1;
}

static int spi_set(struct load *l, const char *key, const char *value)
{
	struct spi_load *s = l->priv;

	if (!strcmp(key, "rate"))
		return load_parse_u32(value, 1, 100000, &s->rate_hz);
	if (!strcmp(key, "size"))
		return load_parse_u32(value, 1, SPI_MAX_BYTES, &s->size);
	if (!strcmp(key, "prio"))
		return load_parse_u32(value, 0, 99, &s->prio);
	if (!strcmp(key, "limit"))
		return load_parse_ns(value, &s->limit_ns);
	if (!strcmp(key, "link"))
		return load_parse_str(value, s->link, sizeof(s->link));
	return -ENOENT;
}

/* spi_echo - the own echo peer: answer every frame with its complement until EOF */
static void __attribute__((noreturn)) spi_echo(int fd)
{
	unsigned char buf[SPI_MAX_BYTES];
	ssize_t n, i;

	for (;;) {
		n = recv(fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			_exit(0);
		for (i = 0; i < n; i++)
			buf[i] = (unsigned char)~buf[i];
		if (send(fd, buf, (size_t)n, MSG_NOSIGNAL) != n)
			_exit(0);
	}
}

/* spi_open - connect to the slave at 'link', or start the own echo peer */
static int spi_open(struct load *l)
{
	struct spi_load *s = l->priv;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int sv[2];
	pid_t pid;
	int ret;

	if (s->link[0]) {
		s->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
		if (s->fd < 0)
			return load_why(l, errno, "socket: %s", strerror(errno));
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", s->link);
		if (connect(s->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			return load_why(l, errno, "link '%s': %s", s->link, strerror(errno));
		return 0;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return load_why(l, errno, "socketpair: %s", strerror(errno));
	ret = load_work_begin(l);	/* the echo peer stands for hardware, as the exerciser */
	if (ret < 0) {
		close(sv[0]);
		close(sv[1]);
		return ret;
	}
	pid = pf_proc_fork(&s->peer, "spi-echo", 0, SIGKILL);
	if (pid != 0)
		load_work_end(l);
	if (pid < 0) {
		close(sv[0]);
		close(sv[1]);
		return load_why(l, (int)-pid, "fork: %s", strerror((int)-pid));
	}
	if (pid == 0) {
		close(sv[0]);
		prctl(PR_SET_NAME, "pf-spi-echo");
		if (s->prio) {	/* the peer stands for hardware: as prompt as the exerciser */
			struct sched_param sp = { .sched_priority = (int)s->prio };

			if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
				_exit(1);
		}
		spi_echo(sv[1]);
	}
	close(sv[1]);
	s->fd = sv[0];
	return 0;
}

/* spi_transfer - one full-duplex transfer; 0 or -errno (-EBADMSG for a bad reply) */
static int spi_transfer(struct spi_load *s, const unsigned char *tx, unsigned char *rx)
{
	ssize_t n;
	uint32_t i;

	if (send(s->fd, tx, s->size, MSG_NOSIGNAL) != (ssize_t)s->size)
		return -errno;
	do
		n = recv(s->fd, rx, SPI_MAX_BYTES, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n != (ssize_t)s->size)
		return -EBADMSG;
	if (!s->link[0])
		for (i = 0; i < s->size; i++)
			if (rx[i] != (unsigned char)~tx[i])
				return -EBADMSG;
	return 0;
}

/* spi_main - the exerciser: a transfer every period, each one timed */
static void *spi_main(void *arg)
{
	struct spi_load *s = arg;
	unsigned char tx[SPI_MAX_BYTES], rx[SPI_MAX_BYTES];
	int64_t period_ns = PF_NS_PER_SEC / s->rate_hz, next, t0, dt, behind;
	struct timespec ts;
	uint64_t seq = 0;
	uint32_t i;
	int ret;

	next = pf_now_ns();
	s->first_ns = next;
	while (!atomic_load_explicit(&s->stop, memory_order_relaxed)) {
		for (i = 0; i < s->size; i++)
			tx[i] = (unsigned char)(seq + i);
		t0 = pf_now_ns();
		ret = spi_transfer(s, tx, rx);
		dt = pf_now_ns() - t0;
		if (ret < 0) {
			s->errors++;
			s->last_errno = -ret;
			if (ret != -EBADMSG)
				break;	/* the link is gone */
		} else {
			__atomic_fetch_add(&s->bytes, 2 * (uint64_t)s->size, __ATOMIC_RELAXED);	/* sampled */
			if (pf_hist_add(&s->hist, dt, t0, (int64_t)seq) < 0)
				s->errors++;
			if (dt > s->limit_ns)
				s->over++;
		}
		seq++;
		s->last_ns = pf_now_ns();
		next += period_ns;
		behind = s->last_ns - next;
		if (behind > 0) {
			s->skipped += behind / period_ns + 1;
			next += (behind / period_ns + 1) * period_ns;
		}
		ts = pf_ns_to_ts(next);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return NULL;
}

static int spi_check(struct load *l)
{
	struct spi_load *s = l->priv;

	if (s->prio && geteuid() != 0)
		return load_why(l, EPERM, "prio=%u (SCHED_FIFO) needs root", s->prio);
	return 0;
}

static int spi_start(struct load *l)
{
	struct spi_load *s = l->priv;
	struct sched_param sp = { .sched_priority = (int)s->prio };
	pthread_attr_t attr;
	int ret;

	ret = spi_check(l);
	if (ret < 0)
		return ret;
	/* the exerciser may run SCHED_FIFO: every range it needs now, none allocated while it runs */
	ret = pf_hist_init_range(&s->hist, 0, SPI_HIST_NS);
	if (ret < 0)
		return load_why(l, ret, "histogram: %s", strerror(-ret));
	ret = spi_open(l);
	if (ret < 0)
		return ret;
	pthread_attr_init(&attr);
	if (s->prio) {
		pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
		pthread_attr_setschedparam(&attr, &sp);
	}
	ret = load_work_begin(l);	/* the exerciser stands for a driver: where the load was started */
	if (ret < 0) {
		pthread_attr_destroy(&attr);
		return ret;
	}
	ret = -pthread_create(&s->thread, &attr, spi_main, s);
	load_work_end(l);
	pthread_attr_destroy(&attr);
	if (ret == 0)
		pthread_setname_np(s->thread, "pf-spi-xfer");
	if (ret < 0)
		return load_why(l, ret, "exerciser thread%s: %s",
				   s->prio ? " (SCHED_FIFO)" : "", strerror(-ret));
	s->running = true;
	return 0;
}

static int spi_poll(struct load *l)
{
	struct spi_load *s = l->priv;

	if (s->peer.pid && !pf_proc_alive(&s->peer))
		return load_why(l, EPIPE, "the echo peer exited");
	if (s->last_errno && s->last_errno != EBADMSG)
		return load_why(l, s->last_errno, "link: %s", strerror(s->last_errno));
	return 0;
}

static void spi_stop(struct load *l)
{
	struct spi_load *s = l->priv;

	if (!s->running)
		return;
	atomic_store(&s->stop, 1);
	pthread_join(s->thread, NULL);
	s->running = false;
}

static json_t *spi_report(struct load *l)
{
	struct spi_load *s = l->priv;
	double run_s = s->last_ns > s->first_ns ? (double)(s->last_ns - s->first_ns) / PF_NS_PER_SEC : 0;
	struct pf_stats st;

	pf_hist_stats(&s->hist, &st);
	return json_pack("{s:s, s:i, s:i, s:i, s:I, s:I, s:f, s:f, s:o, s:I, s:I, s:I, s:I}",
			 "link", s->link[0] ? s->link : "own echo peer (socketpair)",
			 "size_bytes", (int)s->size, "rate_hz", (int)s->rate_hz, "prio", (int)s->prio,
			 "limit_ns", (json_int_t)s->limit_ns,
			 "transfers", (json_int_t)st.count,
			 "transfers_per_s", run_s > 0 ? st.count / run_s : 0.0,
			 "bytes_per_s", run_s > 0 ? s->bytes / run_s : 0.0,
			 "transfer_time_ns", pf_hist_json(&s->hist, "ns"),
			 "over_limit", (json_int_t)s->over,
			 "errors", (json_int_t)s->errors,
			 "skipped_periods", (json_int_t)s->skipped,
			 "max_ns", (json_int_t)(st.count ? st.max : 0));
}

static void spi_cleanup(struct load *l)
{
	struct spi_load *s = l->priv;

	spi_stop(l);
	if (s->fd >= 0)
		close(s->fd);	/* the echo peer sees EOF and exits */
	s->fd = -1;
	pf_proc_stop(&s->peer, SIGTERM, PF_NS_PER_SEC, false);
}

/* spi_sample - transfers done against rate */
static int spi_sample(struct load *l, double *count, double *target_per_s)
{
	struct spi_load *s = l->priv;

	*count = (double)(__atomic_load_n(&s->bytes, __ATOMIC_RELAXED) / (2 * (uint64_t)s->size));
	*target_per_s = s->rate_hz;
	return 0;
}

const struct load_ops load_spi = {
	.name = "spi",
	.summary = "timed full-duplex transfers over the emulated SPI link (REQ-SPI-001)",
	.params_help =
	"  rate=HZ      transfers per second (1000)\n"
	"  size=BYTES   bytes per transfer, each direction (500)\n"
	"  prio=P       SCHED_FIFO priority of the exerciser, 0 = SCHED_OTHER (0)\n"
	"  limit=TIME   a transfer longer than this counts as over the limit (1ms)\n"
	"  link=PATH    UNIX seqpacket socket of the SPI slave; empty = own echo peer ()\n",
	.priv_size = sizeof(struct spi_load),
	.defaults = spi_defaults,
	.set = spi_set,
	.check = spi_check,
	.start = spi_start,
	.poll = spi_poll,
	.stop = spi_stop,
	.sample = spi_sample,
	.sample_unit = "transfers/s",
	.report = spi_report,
	.cleanup = spi_cleanup,
};
