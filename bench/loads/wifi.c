/*
 * wifi.c - the WiFi load: bulk traffic through the kernel's network stack to
 * a "ground station". By default the ground station is a network namespace
 * reached over a veth pair, both ends shaped by a tbf qdisc to a WiFi-like
 * rate; iperf3 servers run inside the namespace, the clients outside, one
 * UDP stream at a set rate and one TCP bulk stream that takes what is left.
 * On a target, server=ADDR names a real ground-station iperf3 server
 * instead and nothing is created.
 *
 * The clients run in chunks (default 10 s) so that every finished chunk
 * brings the receiver's figures (bytes received, UDP loss, jitter); a chunk
 * cut short by the stop contributes its sender figures only. Reported: the
 * configured rates, achieved sent / received throughput, UDP loss and TCP
 * retransmits (REQ-NET-001), and the delivery of the app's telemetry
 * stream: a receiver (tlm_rx.h) bound to the namespace's address, port
 * tlm_port, counts the frames the app sends there over the same shaped link
 * (received, lost, duplicates, reordered, late, one-way delay); tlm_dest_out
 * tells the runner where to point the app ([telemetry] dest), app_stats
 * where to read what the app sent.
 *
 * Everything stays on this machine: the addresses are 10.213.<n>.1/30 (host
 * end) and .2 (namespace end) on the veth pair this load creates. Names:
 * namespace pfw<pid>, links pfw<pid>h / pfw<pid>g; wifi_cleanup_stale
 * removes those of a dead pid.
 */
#include "load.h"
#include "common.h"
#include "tlm_rx.h"

#include <dirent.h>
#include <arpa/inet.h>
#include <errno.h>
#include <math.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WIFI_PREFIX "pfw"

enum { WIFI_UDP, WIFI_TCP, WIFI_NSTREAMS };
static const char *const wifi_stream_name[] = { "udp", "tcp" };

struct wifi_stream {
	bool enabled;
	struct pf_proc client;
	char out[300];			/* client JSON of the current chunk */
	char server_out[300];		/* the server's JSON, one object per test */
	int64_t chunk_start_ns;
	uint32_t chunks;		/* complete chunks */
	uint32_t retries;		/* failed chunk starts in a row */
	double sent_bytes, recv_bytes;	/* complete chunks: both sides */
	double recv_seconds;		/* complete chunks' length */
	double partial_sent_bytes;	/* a chunk cut short by the stop: sender side */
	double seconds;			/* all chunks, complete or not */
	int64_t packets, lost_packets, retransmits;
	int server_tests;		/* tests the server reported (0: receiver figures from the clients) */
	double jitter_ms_max;
};

struct wifi_load {
	uint64_t rate_bps;		/* tbf rate of the link */
	uint64_t udp_bps;		/* UDP stream target, 0 = no UDP stream */
	bool tcp;			/* TCP bulk stream */
	int64_t chunk_ns;
	uint32_t port;			/* UDP server port; TCP uses port + 1 */
	char server[64];		/* remote ground station, "" = own namespace */
	uint32_t tlm_port;		/* telemetry receiver's port in the namespace, 0 = port + 2 */
	int64_t tlm_late_ns;		/* a telemetry frame later than this is late */
	char tlm_dest_out[256];		/* file to write the receiver's "ADDR:PORT" to, "" = none */
	char app_stats[256];		/* the flight software's stats JSON (frames sent), "" = none */
	/* state */
	struct tlm_rx tlm;
	bool tlm_open;
	json_t *tlm_result;		/* taken at stop: cleanup comes before the report */
	char ns[32], host_if[16], ns_if[16], host_ip[20], ns_ip[20];
	bool ns_created, link_created;
	struct pf_proc server_proc[WIFI_NSTREAMS];
	struct wifi_stream st[WIFI_NSTREAMS];
};

static void wifi_defaults(struct load *l)
{
	struct wifi_load *w = l->priv;

	w->rate_bps = 20000000;
	w->udp_bps = 5000000;
	w->tcp = true;
	w->chunk_ns = 10 * PF_NS_PER_SEC;
	w->port = 5201;
	w->tlm_late_ns = 100 * PF_NS_PER_MS;
	w->tlm.fd = -1;
}

static int wifi_set(struct load *l, const char *key, const char *value)
{
	struct wifi_load *w = l->priv;

	if (!strcmp(key, "rate"))
		return load_parse_bps(value, &w->rate_bps) || w->rate_bps < 8000 ? -EINVAL : 0;
	if (!strcmp(key, "udp_rate"))
		return load_parse_bps(value, &w->udp_bps);
	if (!strcmp(key, "tcp")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return -EINVAL;
		w->tcp = !strcmp(value, "yes");
		return 0;
	}
	if (!strcmp(key, "chunk"))
		return load_parse_ns(value, &w->chunk_ns) || w->chunk_ns < PF_NS_PER_SEC ? -EINVAL : 0;
	if (!strcmp(key, "port"))
		return load_parse_u32(value, 1024, 65534, &w->port);
	if (!strcmp(key, "server"))
		return load_parse_str(value, w->server, sizeof(w->server));
	if (!strcmp(key, "tlm_port"))
		return load_parse_u32(value, 1024, 65535, &w->tlm_port);
	if (!strcmp(key, "tlm_late"))
		return load_parse_ns(value, &w->tlm_late_ns) || w->tlm_late_ns <= 0 ? -EINVAL : 0;
	if (!strcmp(key, "tlm_dest_out"))
		return load_parse_str(value, w->tlm_dest_out, sizeof(w->tlm_dest_out));
	if (!strcmp(key, "app_stats"))
		return load_parse_str(value, w->app_stats, sizeof(w->app_stats));
	return -ENOENT;
}

/* wifi_ip - run one "ip ..." (or "ip netns exec NS tc ...") command; 0 or -EIO with l->why */
#define wifi_ip(l, ...) wifi_cmd(l, (const char *[]){ __VA_ARGS__, NULL })
static int wifi_cmd(struct load *l, const char **argv)
{
	char err[300];
	int ret = pf_proc_run((char *const *)argv, err, sizeof(err));

	if (ret == 0)
		return 0;
	return load_why(l, EIO, "%s %s %s: %s", argv[0], argv[1], argv[2], err);
}

/* wifi_free_subnet - n of a 10.213.<n>.0/30 no interface here uses, from the pid on */
static int wifi_free_subnet(void)
{
	struct ifaddrs *ifa, *i;
	int n, tries;

	if (getifaddrs(&ifa) < 0)
		return getpid() % 200 + 20;
	for (n = getpid() % 200 + 20, tries = 0; tries < 200; tries++, n = n >= 219 ? 20 : n + 1) {
		for (i = ifa; i; i = i->ifa_next) {
			const struct sockaddr_in *sin = (const struct sockaddr_in *)i->ifa_addr;

			if (sin && sin->sin_family == AF_INET &&
			    (ntohl(sin->sin_addr.s_addr) & 0xffffff00u) == (0x0ad50000u | (uint32_t)n << 8))
				break;
		}
		if (!i)
			break;
	}
	freeifaddrs(ifa);
	return n;
}

/* wifi_make_link - namespace, veth pair, addresses, tbf on both ends */
static int wifi_make_link(struct load *l)
{
	struct wifi_load *w = l->priv;
	char rate[32], cidr_h[32], cidr_g[32];
	int subnet = wifi_free_subnet(), ret;

	snprintf(w->ns, sizeof(w->ns), WIFI_PREFIX "%d", getpid());
	snprintf(w->host_if, sizeof(w->host_if), WIFI_PREFIX "%dh", getpid());
	snprintf(w->ns_if, sizeof(w->ns_if), WIFI_PREFIX "%dg", getpid());
	snprintf(w->host_ip, sizeof(w->host_ip), "10.213.%d.1", subnet);
	snprintf(w->ns_ip, sizeof(w->ns_ip), "10.213.%d.2", subnet);
	snprintf(cidr_h, sizeof(cidr_h), "%s/30", w->host_ip);
	snprintf(cidr_g, sizeof(cidr_g), "%s/30", w->ns_ip);
	snprintf(rate, sizeof(rate), "%llubit", (unsigned long long)w->rate_bps);

	ret = wifi_ip(l, "ip", "netns", "add", w->ns);
	if (ret < 0)
		return ret;
	w->ns_created = true;
	ret = wifi_ip(l, "ip", "link", "add", w->host_if, "type", "veth", "peer", "name", w->ns_if);
	if (ret < 0)
		return ret;
	w->link_created = true;
	if ((ret = wifi_ip(l, "ip", "link", "set", w->ns_if, "netns", w->ns)) ||
	    (ret = wifi_ip(l, "ip", "addr", "add", cidr_h, "dev", w->host_if)) ||
	    (ret = wifi_ip(l, "ip", "link", "set", w->host_if, "up")) ||
	    (ret = wifi_ip(l, "ip", "-n", w->ns, "addr", "add", cidr_g, "dev", w->ns_if)) ||
	    (ret = wifi_ip(l, "ip", "-n", w->ns, "link", "set", w->ns_if, "up")) ||
	    (ret = wifi_ip(l, "ip", "-n", w->ns, "link", "set", "lo", "up")) ||
	    (ret = wifi_ip(l, "tc", "qdisc", "add", "dev", w->host_if, "root", "tbf", "rate", rate,
			      "burst", "32kb", "latency", "50ms")) ||
	    (ret = wifi_ip(l, "ip", "netns", "exec", w->ns, "tc", "qdisc", "add", "dev", w->ns_if,
			      "root", "tbf", "rate", rate, "burst", "32kb", "latency", "50ms")))
		return ret;
	return 0;
}

/* wifi_start_server - one iperf3 server inside the namespace */
static int wifi_start_server(struct load *l, int i)
{
	struct wifi_load *w = l->priv;
	char port[16];
	char *argv[] = { "ip", "netns", "exec", w->ns, "iperf3", "-s", "-J", "-B", w->ns_ip, "-p", port, NULL };
	int ret;

	snprintf(port, sizeof(port), "%u", w->port + i);
	snprintf(w->st[i].server_out, sizeof(w->st[i].server_out), "%s/wifi-%s-server-%d.json", l->work_dir,
		 wifi_stream_name[i], getpid());
	ret = pf_proc_spawn(&w->server_proc[i], argv, w->st[i].server_out, NULL, 0);
	if (ret < 0)
		return load_why(l, ret, "iperf3 server: %s", strerror(-ret));
	return 0;
}

/*
 * wifi_start_tlm - the telemetry receiver on the namespace's address, and
 * that address in tlm_dest_out for the runner
 */
static int wifi_start_tlm(struct load *l)
{
	struct wifi_load *w = l->priv;
	char addr[64], netns[64];
	FILE *f;
	int ret;

	snprintf(addr, sizeof(addr), "%s:%u", w->ns_ip, w->tlm_port ? w->tlm_port : w->port + 2);
	snprintf(netns, sizeof(netns), "/run/netns/%s", w->ns);
	ret = tlm_rx_open(&w->tlm, netns, addr, w->tlm_late_ns, l->why, sizeof(l->why));
	if (ret < 0)
		return ret;
	w->tlm_open = true;
	if (!w->tlm_dest_out[0])
		return 0;
	f = fopen(w->tlm_dest_out, "we");
	if (!f || fprintf(f, "%s\n", addr) < 0 || fclose(f)) {
		ret = -errno;
		if (f)
			fclose(f);
		return load_why(l, ret, "tlm_dest_out: %s: %s", w->tlm_dest_out, strerror(-ret));
	}
	return 0;
}

/* wifi_chunk_ns - length of the next chunk: the chunk, or what is left of the duration */
static int64_t wifi_chunk_ns(struct load *l)
{
	struct wifi_load *w = l->priv;
	int64_t left;

	if (!l->duration_ns)
		return w->chunk_ns;
	left = l->start_ns + l->duration_ns - pf_now_ns();
	return left < w->chunk_ns ? left : w->chunk_ns;
}

/* wifi_start_chunk - start the client of stream i for the next chunk (none when < 1 s left) */
static int wifi_start_chunk(struct load *l, int i)
{
	struct wifi_load *w = l->priv;
	struct wifi_stream *s = &w->st[i];
	int64_t chunk_ns = wifi_chunk_ns(l);
	char port[16], secs[16], bw[32];
	const char *addr = w->server[0] ? w->server : w->ns_ip;
	char *argv[] = { "iperf3", "-c", (char *)addr, "-p", port, "-t", secs, "-J",
			 i == WIFI_UDP ? "-u" : NULL, "-b", bw, NULL };
	int ret;

	if (chunk_ns < PF_NS_PER_SEC)
		return 0;
	snprintf(port, sizeof(port), "%u", w->port + i);
	snprintf(secs, sizeof(secs), "%lld", (long long)(chunk_ns / PF_NS_PER_SEC));
	snprintf(bw, sizeof(bw), "%llu", (unsigned long long)w->udp_bps);
	s->chunk_start_ns = pf_now_ns();
	ret = pf_proc_spawn(&s->client, argv, s->out, NULL, 0);
	if (ret < 0)
		return load_why(l, ret, "iperf3 client: %s", strerror(-ret));
	return 0;
}

/* wifi_collect - add a finished (or stopped) chunk's figures; 0, or -EAGAIN when it failed */
static int wifi_collect(struct load *l, int i, bool cut_short)
{
	struct wifi_load *w = l->priv;
	struct wifi_stream *s = &w->st[i];
	json_t *root = pf_json_load_at_brace(s->out);
	json_t *end = json_object_get(root, "end");
	json_t *sent = json_object_get(end, "sum_sent"), *recv = json_object_get(end, "sum_received");
	json_t *sum = json_object_get(end, "sum");
	const char *error = json_string_value(json_object_get(root, "error"));
	double secs = json_number_value(json_object_get(sent, "seconds"));
	int ret = 0;

	if (!sent || (!cut_short && (error || pf_proc_exit_code(&s->client) != 0))) {
		snprintf(l->why, sizeof(l->why), "iperf3 %s client: %s", wifi_stream_name[i],
			 error ? error : "no result");
		ret = -EAGAIN;
		goto out;
	}
	s->seconds += secs;
	if (cut_short) {
		s->partial_sent_bytes += json_number_value(json_object_get(sent, "bytes"));
		goto out;
	}
	s->chunks++;
	s->sent_bytes += json_number_value(json_object_get(sent, "bytes"));
	s->recv_bytes += json_number_value(json_object_get(recv, "bytes"));
	s->recv_seconds += secs;
	s->retransmits += json_integer_value(json_object_get(sent, "retransmits"));
	if (i == WIFI_UDP) {
		double jitter = json_number_value(json_object_get(sum, "jitter_ms"));

		s->packets += json_integer_value(json_object_get(sum, "packets"));
		s->lost_packets += json_integer_value(json_object_get(sum, "lost_packets"));
		if (jitter > s->jitter_ms_max)
			s->jitter_ms_max = jitter;
	}
out:
	json_decref(root);
	return ret;
}

static int wifi_check(struct load *l)
{
	struct wifi_load *w = l->priv;

	if (pf_proc_which("iperf3"))
		return load_why(l, ENOENT, "iperf3: not found in PATH (package iperf3)");
	if (!w->tcp && !w->udp_bps)
		return load_why(l, EINVAL, "nothing to send: udp_rate=0 and tcp=no");
	if (w->server[0])
		return 0;
	if (geteuid() != 0)
		return load_why(l, EPERM, "creating a network namespace needs root");
	if (pf_proc_which("ip") || pf_proc_which("tc"))
		return load_why(l, ENOENT, "ip / tc: not found in PATH (package iproute2)");
	return 0;
}

static int wifi_start(struct load *l)
{
	struct wifi_load *w = l->priv;
	int i, ret;

	ret = wifi_check(l);
	if (ret < 0)
		return ret;
	w->st[WIFI_UDP].enabled = w->udp_bps > 0;
	w->st[WIFI_TCP].enabled = w->tcp;
	if (!w->server[0]) {
		ret = wifi_make_link(l);
		if (ret < 0)
			return ret;
		ret = wifi_start_tlm(l);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < WIFI_NSTREAMS; i++) {
		if (!w->st[i].enabled)
			continue;
		snprintf(w->st[i].out, sizeof(w->st[i].out), "%s/wifi-%s-%d.json", l->work_dir,
			 wifi_stream_name[i], getpid());
		if (!w->server[0] && (ret = wifi_start_server(l, i)) < 0)
			return ret;
	}
	pf_proc_sleep_ns(300 * PF_NS_PER_MS);	/* let the servers listen */
	for (i = 0; i < WIFI_NSTREAMS; i++) {
		if (!w->server[0] && w->st[i].enabled && !pf_proc_alive(&w->server_proc[i]))
			return load_why(l, EIO, "iperf3 %s server in %s exited at start",
					   wifi_stream_name[i], w->ns);
		if (w->st[i].enabled && (ret = wifi_start_chunk(l, i)) < 0)
			return ret;
	}
	return 0;
}

static int wifi_poll(struct load *l)
{
	struct wifi_load *w = l->priv;
	int i, ret;

	tlm_rx_poll(&w->tlm);
	for (i = 0; i < WIFI_NSTREAMS; i++) {
		struct wifi_stream *s = &w->st[i];

		if (!s->enabled || !s->client.pid || pf_proc_alive(&s->client))
			continue;
		s->client.pid = 0;
		ret = wifi_collect(l, i, false);
		if (ret < 0 && ++s->retries > 5)
			return load_why(l, EIO, "%s (5 retries)", l->why);
		if (ret == 0)
			s->retries = 0;
		else
			pf_proc_sleep_ns(200 * PF_NS_PER_MS);
		ret = wifi_start_chunk(l, i);
		if (ret < 0)
			return ret;
	}
	return 0;
}

/*
 * wifi_server_figures - the receiver's side of every test from the
 * server's JSON (one object per test, also for a test whose client was
 * stopped: the server reports its complete intervals), replacing the
 * figures of the complete chunks only; false when the file holds none.
 * The rate is over the clients' time of every chunk.
 */
static bool wifi_server_figures(struct wifi_stream *s, bool udp)
{
	double bytes = 0, seconds = 0;
	int64_t packets = 0, lost = 0;
	char *text = NULL, *p;
	json_error_t jerr;
	size_t len = 0;
	int tests = 0;
	FILE *f;

	f = fopen(s->server_out, "re");
	if (!f)
		return false;
	if (getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		fclose(f);
		return false;
	}
	fclose(f);
	for (p = strchr(text, '{'); p; p = strchr(p, '{')) {
		json_t *o = json_loads(p, JSON_DISABLE_EOF_CHECK, &jerr);
		json_t *end = json_object_get(o, "end"), *recv = json_object_get(end, "sum_received");

		if (!o) {
			p++;
			continue;
		}
		p += jerr.position;
		if (recv) {
			bytes += json_number_value(json_object_get(recv, "bytes"));
			seconds += json_number_value(json_object_get(recv, "seconds"));
			if (udp) {
				packets += json_integer_value(json_object_get(recv, "packets"));
				lost += json_integer_value(json_object_get(recv, "lost_packets"));
			}
			tests++;
		}
		json_decref(o);
	}
	free(text);
	if (!tests)
		return false;
	s->recv_bytes = bytes;
	/* the server's seconds stop at its last complete interval, its bytes do not: the clients' time */
	s->recv_seconds = s->seconds > 0 ? s->seconds : seconds;
	if (udp) {
		s->packets = packets;
		s->lost_packets = lost;
	}
	s->server_tests = tests;
	return true;
}

static void wifi_stop(struct load *l)
{
	struct wifi_load *w = l->priv;
	int i;

	if (w->tlm_open) {	/* the app has stopped (and written its stats) before its loads */
		tlm_rx_poll(&w->tlm);
		w->tlm_result = tlm_rx_json(&w->tlm, w->app_stats);
	}
	for (i = 0; i < WIFI_NSTREAMS; i++) {
		struct wifi_stream *s = &w->st[i];
		bool cut_short;

		if (!s->enabled || !s->client.pid)
			continue;
		cut_short = pf_proc_alive(&s->client);
		pf_proc_stop(&s->client, SIGINT, 3 * PF_NS_PER_SEC, false);
		if (wifi_collect(l, i, cut_short) < 0)
			l->why[0] = '\0';	/* a chunk that had not begun: nothing to add */
		s->client.pid = 0;
	}
	if (w->server[0])
		return;
	pf_proc_sleep_ns(300 * PF_NS_PER_MS);	/* the servers write the stopped tests' results */
	for (i = 0; i < WIFI_NSTREAMS; i++)
		if (w->st[i].enabled)
			wifi_server_figures(&w->st[i], i == WIFI_UDP);
}

/* wifi_stream_json - one stream's achieved figures */
static json_t *wifi_stream_json(struct wifi_load *w, int i)
{
	struct wifi_stream *s = &w->st[i];
	double sent_bps = s->seconds > 0 ? 8 * (s->sent_bytes + s->partial_sent_bytes) / s->seconds : 0;
	double recv_bps = s->recv_seconds > 0 ? 8 * s->recv_bytes / s->recv_seconds : 0;
	json_t *o;

	if (!s->enabled)
		return json_null();
	o = json_pack("{s:i, s:s, s:f, s:f, s:f, s:f, s:f}",
		      "complete_chunks", (int)s->chunks,
		      "received_from", s->server_tests ? "server (every test)" : "clients (complete chunks)",
		      "seconds", s->seconds,
		      "sent_bytes", s->sent_bytes + s->partial_sent_bytes, "received_bytes", s->recv_bytes,
		      "sent_bps", sent_bps, "received_bps", recv_bps);
	if (i == WIFI_UDP) {
		json_object_set_new(o, "target_bps", json_integer((json_int_t)w->udp_bps));
		json_object_set_new(o, "packets", json_integer(s->packets));
		json_object_set_new(o, "lost_packets", json_integer(s->lost_packets));
		json_object_set_new(o, "loss_pct", s->packets ? json_real(100.0 * s->lost_packets / s->packets)
							      : json_null());
		json_object_set_new(o, "jitter_ms_max", json_real(s->jitter_ms_max));
	} else {
		json_object_set_new(o, "retransmits", json_integer(s->retransmits));
	}
	return o;
}

static json_t *wifi_report(struct load *l)
{
	struct wifi_load *w = l->priv;
	double recv_bps = 0;
	int i;

	json_t *tlm = w->tlm_result;

	w->tlm_result = NULL;
	if (!tlm)
		tlm = json_pack("{s:s}", "unavailable", w->server[0] ? "a remote ground station: no receiver here"
								  : "the receiver did not run");
	for (i = 0; i < WIFI_NSTREAMS; i++)
		if (w->st[i].enabled && w->st[i].recv_seconds > 0)
			recv_bps += 8 * w->st[i].recv_bytes / w->st[i].recv_seconds;
	return json_pack("{s:s, s:s, s:s, s:I, s:f, s:f, s:o, s:o, s:o}",
			 "ground_station", w->server[0] ? w->server : w->ns_ip,
			 "namespace", w->server[0] ? "" : w->ns,
			 "link", w->server[0] ? "" : w->host_if,
			 "rate_bps", (json_int_t)w->rate_bps,
			 "received_bps", recv_bps,
			 "rate_achieved_pct", w->rate_bps ? 100.0 * recv_bps / w->rate_bps : 0.0,
			 "udp", wifi_stream_json(w, WIFI_UDP),
			 "tcp", wifi_stream_json(w, WIFI_TCP),
			 "telemetry", tlm);
}

static void wifi_cleanup(struct load *l)
{
	struct wifi_load *w = l->priv;
	char err[256];
	int i;

	if (w->tlm_open)
		tlm_rx_close(&w->tlm);
	w->tlm_open = false;
	for (i = 0; i < WIFI_NSTREAMS; i++) {
		pf_proc_stop(&w->st[i].client, SIGKILL, PF_NS_PER_SEC, false);
		pf_proc_stop(&w->server_proc[i], SIGTERM, 2 * PF_NS_PER_SEC, false);
		if (w->st[i].out[0])
			unlink(w->st[i].out);
		if (w->st[i].server_out[0])
			unlink(w->st[i].server_out);
	}
	if (w->link_created)	/* deleting one end deletes the pair and its qdiscs */
		pf_proc_runl(err, sizeof(err), "ip", "link", "del", w->host_if, NULL);
	w->link_created = false;
	if (w->ns_created && pf_proc_runl(err, sizeof(err), "ip", "netns", "del", w->ns, NULL))
		pf_err("wifi: ip netns del %s: %s", w->ns, err);
	w->ns_created = false;
}

static void wifi_cleanup_stale(void)
{
	const char *dirs[] = { "/sys/class/net", "/run/netns" };
	struct dirent *de;
	char err[256];
	size_t i;
	DIR *d;

	for (i = 0; i < PF_ARRAY_SIZE(dirs); i++) {
		d = opendir(dirs[i]);
		while (d && (de = readdir(d))) {
			if (!load_dead_owner(de->d_name, WIFI_PREFIX))
				continue;
			if (i == 0)
				pf_proc_runl(err, sizeof(err), "ip", "link", "del", de->d_name, NULL);
			else
				pf_proc_runl(err, sizeof(err), "ip", "netns", "del", de->d_name, NULL);
		}
		if (d)
			closedir(d);
	}
}

/*
 * wifi_sample - bits the host end of the link passed to the ground station's end (its tx
 * counter, after the tbf qdisc) against the link's rate; nothing with a remote server
 */
static int wifi_sample(struct load *l, double *count, double *target_per_s)
{
	struct wifi_load *w = l->priv;
	char path[96], buf[32];

	if (!w->link_created)
		return -ENODATA;
	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_bytes", w->host_if);
	if (pf_read_file(path, buf, sizeof(buf)) < 0)
		return -ENODATA;
	*count = 8 * strtod(buf, NULL);
	*target_per_s = (double)w->rate_bps;
	return 0;
}

const struct load_ops load_wifi = {
	.name = "wifi",
	.summary = "iperf3 UDP + TCP through a tbf-shaped veth pair into a ground-station namespace",
	.params_help =
	"  rate=BPS       tbf rate of the link, both directions (20mbit)\n"
	"  udp_rate=BPS   UDP stream target, 0 = no UDP stream (5mbit)\n"
	"  tcp=yes|no     TCP bulk stream taking the rest of the link (yes)\n"
	"  chunk=TIME     client run length; each finished chunk brings receiver figures (10s)\n"
	"  port=N         iperf3 port of the UDP stream; TCP uses N+1 (5201)\n"
	"  server=ADDR    a real ground-station iperf3 server (target); empty = own namespace ()\n"
	"  tlm_port=N     port of the telemetry receiver in the namespace; 0 = port + 2 (0)\n"
	"  tlm_late=TIME  a telemetry frame whose one-way delay exceeds this is late (100ms)\n"
	"  tlm_dest_out=PATH  write the receiver's ADDR:PORT there (the app's [telemetry] dest) ()\n"
	"  app_stats=PATH the flight software's stats JSON, for the telemetry frames sent ()\n",
	.priv_size = sizeof(struct wifi_load),
	.defaults = wifi_defaults,
	.set = wifi_set,
	.check = wifi_check,
	.start = wifi_start,
	.poll = wifi_poll,
	.stop = wifi_stop,
	.sample = wifi_sample,
	.sample_unit = "bit/s",
	.report = wifi_report,
	.cleanup = wifi_cleanup,
	.cleanup_stale = wifi_cleanup_stale,
};
