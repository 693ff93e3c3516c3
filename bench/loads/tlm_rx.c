/*
 * tlm_rx.c - the telemetry receiver of the ground station (tlm_rx.h) and the
 * 'telemetry' load, a receiver alone: `preflight load telemetry
 * bind=127.0.0.1:5203` listens where the app's [telemetry] dest points and
 * reports the stream's delivery.
 */
#define _GNU_SOURCE
#include "tlm_rx.h"
#include "load.h"
#include "common.h"
#include "app/fsw/fsw_tlm.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>


/* tlm_rx_socket - the bound, non-blocking, stamping socket; fd or -errno with why */
static int tlm_rx_socket(const char *addr, char *why, size_t why_size)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char err[300];
	int fd, ret;

	if (fsw_tlm_parse_dest(addr, &sa, &len, err, sizeof(err))) {
		snprintf(why, why_size, "telemetry receiver: %s", err);
		return -EINVAL;
	}
	fd = socket(sa.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &(int){ 1 }, sizeof(int)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &(int){ 1 << 20 }, sizeof(int)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, len) < 0) {
		ret = -errno;
		close(fd);
		errno = -ret;
		goto fail;
	}
	return fd;
fail:
	ret = -errno;
	snprintf(why, why_size, "telemetry receiver %s: %s", addr, strerror(errno));
	return ret;
}

int tlm_rx_init(struct tlm_rx *rx, const char *addr, int64_t late_ns)
{
	memset(rx, 0, sizeof(*rx));
	rx->fd = -1;
	rx->late_ns = late_ns;
	snprintf(rx->addr, sizeof(rx->addr), "%s", addr);
	pf_hist_init(&rx->delay);
	rx->hist_ok = true;
	return 0;
}

int tlm_rx_open(struct tlm_rx *rx, const char *netns_path, const char *addr, int64_t late_ns,
		   char *why, size_t why_size)
{
	int self = -1, ns = -1, ret;

	ret = tlm_rx_init(rx, addr, late_ns);
	if (ret < 0) {
		snprintf(why, why_size, "telemetry receiver: %s", strerror(-ret));
		return ret;
	}
	if (netns_path) {	/* this thread steps into the namespace for socket() + bind() only */
		self = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
		ns = open(netns_path, O_RDONLY | O_CLOEXEC);
		if (self < 0 || ns < 0 || setns(ns, CLONE_NEWNET) < 0) {
			ret = -errno;
			snprintf(why, why_size, "telemetry receiver: namespace %s: %s", netns_path, strerror(errno));
			goto out;
		}
	}
	ret = tlm_rx_socket(addr, why, why_size);
	if (ret >= 0) {
		rx->fd = ret;
		ret = 0;
	}
	if (netns_path && setns(self, CLONE_NEWNET) < 0 && !ret) {
		ret = -errno;
		snprintf(why, why_size, "telemetry receiver: back from %s: %s", netns_path, strerror(errno));
	}
out:
	if (self >= 0)
		close(self);
	if (ns >= 0)
		close(ns);
	if (ret < 0)
		tlm_rx_close(rx);
	return ret;
}

/* tlm_rx_seen - test and set the bit of seq (within the window below max_seq) */
static bool tlm_rx_seen(struct tlm_rx *rx, uint32_t seq)
{
	uint32_t i = seq % TLM_RX_WINDOW;
	uint64_t bit = 1ull << (i % 64);
	bool was = rx->seen[i / 64] & bit;

	rx->seen[i / 64] |= bit;
	return was;
}

void tlm_rx_frame(struct tlm_rx *rx, const uint8_t *buf, size_t len, int64_t rx_ns)
{
	struct fsw_tlm_frame f;
	int64_t delay;
	int rc;

	rx->datagrams++;
	rc = fsw_tlm_decode(buf, len, &f);
	if (rc) {
		rx->rejected++;
		if (-rc < (int)PF_ARRAY_SIZE(rx->rej))
			rx->rej[-rc]++;
		return;
	}
	if (!rx->have_seq || f.seq > rx->max_seq) {
		uint32_t s;

		if (!rx->have_seq || f.seq - rx->max_seq >= TLM_RX_WINDOW)
			memset(rx->seen, 0, sizeof(rx->seen));
		else
			for (s = rx->max_seq + 1; s != f.seq; s++)	/* gaps: not seen (yet) */
				rx->seen[(s % TLM_RX_WINDOW) / 64] &= ~(1ull << (s % 64));
		rx->have_seq = true;
		rx->max_seq = f.seq;
		tlm_rx_seen(rx, f.seq);
	} else if (rx->max_seq - f.seq >= TLM_RX_WINDOW) {
		rx->reordered++;		/* too old to tell: taken as a late arrival */
	} else if (tlm_rx_seen(rx, f.seq)) {
		rx->duplicates++;
		return;
	} else {
		rx->reordered++;
	}
	rx->received++;
	delay = rx_ns - f.send_ns;
	if (delay > rx->late_ns)
		rx->late++;
	if (rx->hist_ok && pf_hist_add(&rx->delay, delay, rx_ns, f.seq) < 0)
		rx->hist_ok = false;
}

void tlm_rx_poll(struct tlm_rx *rx)
{
	uint8_t buf[512];
	union { struct cmsghdr align; char b[CMSG_SPACE(sizeof(struct timespec))]; } ctl;
	int n;

	if (rx->fd < 0)
		return;
	for (n = 0; n < 100000; n++) {
		struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
		struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.b,
				      .msg_controllen = sizeof(ctl.b) };
		struct cmsghdr *c;
		ssize_t r = recvmsg(rx->fd, &msg, MSG_DONTWAIT);
		int64_t rx_ns = pf_now_ns();

		if (r < 0)
			break;
		for (c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c))
			if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
				struct timespec ts;

				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
				rx_ns = fsw_realtime_to_mono_ns(pf_ts_to_ns(&ts));
			}
		tlm_rx_frame(rx, buf, (msg.msg_flags & MSG_TRUNC) ? sizeof(buf) + 1 : (size_t)r, rx_ns);
	}
}

/* tlm_rx_app_sent - the app's "telemetry": {"sent": N} from its stats JSON, -1 when unknown */
static json_int_t tlm_rx_app_sent(const char *app_stats)
{
	json_t *root = app_stats && app_stats[0] ? json_load_file(app_stats, 0, NULL) : NULL;
	json_t *sent = json_object_get(json_object_get(root, "telemetry"), "sent");
	json_int_t n = json_is_integer(sent) ? json_integer_value(sent) : -1;

	json_decref(root);
	return n;
}

json_t *tlm_rx_json(struct tlm_rx *rx, const char *app_stats)
{
	json_int_t sent = tlm_rx_app_sent(app_stats);
	uint64_t expected = rx->have_seq ? (uint64_t)rx->max_seq + 1 : 0;
	json_t *rej = json_object(), *o;
	int i;

	for (i = 1; i < FSW_TLM_REJ_COUNT; i++)
		json_object_set_new(rej, fsw_tlm_rej_name(i), json_integer((json_int_t)rx->rej[i]));
	o = json_pack("{s:s, s:I, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o}",
		      "receiver", rx->addr, "late_bound_ns", (json_int_t)rx->late_ns,
		      "sent", sent >= 0 ? json_integer(sent) : json_null(),
		      "received", (json_int_t)rx->received,
		      "lost", (json_int_t)(expected > rx->received ? expected - rx->received : 0),
		      "duplicates", (json_int_t)rx->duplicates, "reordered", (json_int_t)rx->reordered,
		      "late", (json_int_t)rx->late, "rejected", (json_int_t)rx->rejected,
		      "rejected_by", rej,
		      "delay_ns", rx->hist_ok ? pf_hist_json(&rx->delay, "ns") : json_null());
	if (o) {
		json_object_set_new(o, "highest_seq", rx->have_seq ? json_integer(rx->max_seq) : json_null());
		/* frames the app sent that never arrived (the tail after the last one received included) */
		json_object_set_new(o, "not_received", sent >= 0 ? json_integer(sent > (json_int_t)rx->received ?
						sent - (json_int_t)rx->received : 0) : json_null());
	}
	return o;
}

/* tlm_rx_close - close the receiver's socket and free what it holds */
void tlm_rx_close(struct tlm_rx *rx)
{
	if (rx->fd >= 0)
		close(rx->fd);
	rx->fd = -1;
	pf_hist_free(&rx->delay);
	rx->hist_ok = false;
}

/* ---- the 'telemetry' load: the receiver alone ---------------------------- */

struct tlm_load {
	char bind[80];
	int64_t late_ns;
	char app_stats[256];
	struct tlm_rx rx;
	bool open;
	json_t *result;		/* taken at stop: cleanup (closing) comes before the report */
};

static void tlm_load_defaults(struct load *l)
{
	struct tlm_load *t = l->priv;

	strcpy(t->bind, "127.0.0.1:5203");
	t->late_ns = 100 * PF_NS_PER_MS;
	t->rx.fd = -1;
}

static int tlm_load_set(struct load *l, const char *key, const char *value)
{
	struct tlm_load *t = l->priv;

	if (!strcmp(key, "bind"))
		return load_parse_str(value, t->bind, sizeof(t->bind));
	if (!strcmp(key, "late"))
		return load_parse_ns(value, &t->late_ns) || t->late_ns <= 0 ? -EINVAL : 0;
	if (!strcmp(key, "app_stats"))
		return load_parse_str(value, t->app_stats, sizeof(t->app_stats));
	return -ENOENT;
}

static int tlm_load_check(struct load *l)
{
	struct tlm_load *t = l->priv;
	struct sockaddr_storage sa;
	socklen_t len;
	char err[300];

	if (fsw_tlm_parse_dest(t->bind, &sa, &len, err, sizeof(err)))
		return load_why(l, EINVAL, "bind: %s", err);
	return 0;
}

static int tlm_load_start(struct load *l)
{
	struct tlm_load *t = l->priv;
	int ret = tlm_rx_open(&t->rx, NULL, t->bind, t->late_ns, l->why, sizeof(l->why));

	t->open = ret == 0;
	return ret;
}

static int tlm_load_poll(struct load *l)
{
	struct tlm_load *t = l->priv;

	tlm_rx_poll(&t->rx);
	return 0;
}

static void tlm_load_stop(struct load *l)
{
	struct tlm_load *t = l->priv;

	tlm_rx_poll(&t->rx);
	t->result = tlm_rx_json(&t->rx, t->app_stats);
}

static json_t *tlm_load_report(struct load *l)
{
	struct tlm_load *t = l->priv;
	json_t *o = t->result;

	t->result = NULL;
	if (!o)
		return json_pack("{s:s}", "error", "the receiver did not start");
	return json_pack("{s:o}", "telemetry", o);
}

static void tlm_load_cleanup(struct load *l)
{
	struct tlm_load *t = l->priv;

	if (t->open)
		tlm_rx_close(&t->rx);
	t->open = false;
}

const struct load_ops load_telemetry = {
	.name = "telemetry",
	.summary = "a ground-station receiver of the app's telemetry stream (no traffic of its own)",
	.params_help =
	"  bind=ADDR:PORT  where to listen: the app's [telemetry] dest (127.0.0.1:5203)\n"
	"  late=TIME       a frame whose one-way delay exceeds this is late (100ms)\n"
	"  app_stats=PATH  the flight software's stats JSON, for the frames sent (none)\n",
	.priv_size = sizeof(struct tlm_load),
	.defaults = tlm_load_defaults,
	.set = tlm_load_set,
	.check = tlm_load_check,
	.start = tlm_load_start,
	.poll = tlm_load_poll,
	.stop = tlm_load_stop,
	.report = tlm_load_report,
	.cleanup = tlm_load_cleanup,
};
