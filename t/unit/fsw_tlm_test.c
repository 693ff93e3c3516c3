/*
 * fsw_tlm_test.c - unit tests of the telemetry frame and sender
 * (app/fsw/fsw_tlm.c) and of the io task's SPI transfer timing (fsw.c):
 * encode / decode round trip, every rejection reason (each single-bit error
 * is caught), destinations, a sender on loopback that counts what it sent
 * and what the kernel refused, the navigation snapshot, and the timing
 * histogram's exact count / min / max / over-1-ms with synthetic reply
 * times. Test ids: tlm-N.M (frames, sender, snapshot), spit-N.M (timing).
 */
#include "app/fsw/fsw.h"
#include "common.h"
#include "hist.h"
#include "tap.h"

#include <errno.h>
#include <math.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static struct fsw_tlm_frame sample(void)
{
	struct fsw_tlm_frame f = {
		.mode = FSW_MODE_AUTO, .health = FSW_TLM_NAV_VALID | FSW_TLM_GPS_LOST, .seq = 123456,
		.send_ns = 987654321012345LL,
		.pos_m = { 120.5f, -33.25f, -100.0f }, .vel_mps = { 24.5f, 1.25f, -0.5f },
		.att_rad = { 0.1f, -0.05f, 3.0f }, .airspeed_mps = 25.25f, .pos_sigma_m = 1.5f, .nav_age_ms = 7,
	};
	return f;
}

static void test_frames(void)
{
	struct fsw_tlm_frame f = sample(), g;
	uint8_t buf[FSW_TLM_FRAME_LEN], bad[FSW_TLM_FRAME_LEN];
	int i, bit, caught = 0, wrong_reason = 0, rc;

	check_int(fsw_tlm_encode(buf, &f), ==, FSW_TLM_FRAME_LEN, "tlm-1.1 a frame is %d bytes", FSW_TLM_FRAME_LEN);
	check(!memcmp(buf, "PFTM", 4) && buf[4] == 1, "tlm-1.2 magic 'PFTM', version 1");
	memset(&g, 0, sizeof(g));
	check_int(fsw_tlm_decode(buf, sizeof(buf), &g), ==, 0, "tlm-1.3 the decoder accepts the encoder's frame");
	check(g.seq == f.seq && g.send_ns == f.send_ns && g.mode == f.mode && g.health == f.health &&
	      g.nav_age_ms == 7 && g.version == 1, "tlm-1.4 sequence, send time (64 bit), mode, health, age round-trip");
	check(!memcmp(g.pos_m, f.pos_m, sizeof(f.pos_m)) && !memcmp(g.vel_mps, f.vel_mps, sizeof(f.vel_mps)) &&
	      !memcmp(g.att_rad, f.att_rad, sizeof(f.att_rad)) && g.airspeed_mps == f.airspeed_mps &&
	      g.pos_sigma_m == f.pos_sigma_m, "tlm-1.5 position, velocity, attitude, airspeed, sigma round-trip exactly");

	/* every single-bit error anywhere is rejected, with the reason of the field it hits */
	for (i = 0; i < FSW_TLM_FRAME_LEN; i++)
		for (bit = 0; bit < 8; bit++) {
			int want = i < 4 ? -FSW_TLM_REJ_MAGIC : i == 4 ? -FSW_TLM_REJ_VERSION : -FSW_TLM_REJ_CRC;

			memcpy(bad, buf, sizeof(buf));
			bad[i] ^= (uint8_t)(1 << bit);
			g.seq = 42;
			rc = fsw_tlm_decode(bad, sizeof(bad), &g);
			caught += rc != 0 && g.seq == 42;
			wrong_reason += rc != want;
		}
	check_int(caught, ==, 8 * FSW_TLM_FRAME_LEN, "tlm-1.6 all %d single-bit errors rejected, nothing written",
		  8 * FSW_TLM_FRAME_LEN);
	check_int(wrong_reason, ==, 0, "tlm-1.7 magic bytes -> magic, version byte -> version, the rest -> crc");
	memcpy(bad, buf, sizeof(buf));
	bad[30] ^= 0xff;
	check_int(fsw_tlm_decode(bad, sizeof(bad), &g), ==, -FSW_TLM_REJ_CRC, "tlm-1.8 a corrupted payload: crc");
	check_str(fsw_tlm_rej_name(FSW_TLM_REJ_CRC), "crc", "tlm-1.9 rejection names");
	check_int(fsw_tlm_decode(buf, sizeof(buf) - 1, &g), ==, -FSW_TLM_REJ_LEN, "tlm-1.10 one byte short: len");
	check_int(fsw_tlm_decode(buf, 0, &g), ==, -FSW_TLM_REJ_LEN, "tlm-1.11 empty datagram: len");
	/* a frame of a later version is refused even with a valid CRC */
	memcpy(bad, buf, sizeof(buf));
	bad[4] = 2;
	fsw_put16(bad + 66, fsw_crc16(bad, FSW_TLM_FRAME_LEN - 2));
	check_int(fsw_tlm_decode(bad, sizeof(bad), &g), ==, -FSW_TLM_REJ_VERSION, "tlm-1.12 version 2 (valid CRC): version");
}

static void test_dest(void)
{
	struct sockaddr_storage sa;
	socklen_t len;
	char err[300];

	check(!fsw_tlm_parse_dest("127.0.0.1:5203", &sa, &len, err, sizeof(err)) && sa.ss_family == AF_INET &&
	      ntohs(((struct sockaddr_in *)&sa)->sin_port) == 5203, "tlm-2.1 127.0.0.1:5203 parses (IPv4, port)");
	check(!fsw_tlm_parse_dest("[::1]:6000", &sa, &len, err, sizeof(err)) && sa.ss_family == AF_INET6,
	      "tlm-2.2 [::1]:6000 parses (IPv6)");
	check(!fsw_tlm_parse_dest("localhost:7000", &sa, &len, err, sizeof(err)), "tlm-2.3 a host name resolves");
	check(fsw_tlm_parse_dest("127.0.0.1", &sa, &len, err, sizeof(err)) == -EINVAL && strstr(err, "HOST:PORT"),
	      "tlm-2.4 no port: -EINVAL, says HOST:PORT");
	check(fsw_tlm_parse_dest("127.0.0.1:0", &sa, &len, err, sizeof(err)) == -EINVAL &&
	      fsw_tlm_parse_dest("127.0.0.1:70000", &sa, &len, err, sizeof(err)) == -EINVAL &&
	      fsw_tlm_parse_dest("127.0.0.1:5x", &sa, &len, err, sizeof(err)) == -EINVAL &&
	      fsw_tlm_parse_dest(":5203", &sa, &len, err, sizeof(err)) == -EINVAL &&
	      fsw_tlm_parse_dest("[::1]5203", &sa, &len, err, sizeof(err)) == -EINVAL,
	      "tlm-2.5 port 0, 70000, '5x', no host, '[::1]5203' are refused");
}

static void test_sender(void)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	struct fsw_tlm_sender s;
	struct fsw_tlm_frame f = sample(), g;
	uint8_t buf[256];
	char dest[64], err[300];
	int rx, i, good = 0;
	int64_t t0 = pf_now_ns(), last = 0;
	bool mono = true;

	rx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || bind(rx, (struct sockaddr *)&sa, sizeof(sa)) || getsockname(rx, (struct sockaddr *)&sa, &len)) {
		check(0, "tlm-3.1 a loopback receiver socket");
		return;
	}
	snprintf(dest, sizeof(dest), "127.0.0.1:%u", ntohs(sa.sin_port));
	check_int(fsw_tlm_open(&s, dest, err, sizeof(err)), ==, 0, "tlm-3.1 sender opens towards %s", dest);
	for (i = 0; i < 5; i++)
		(void)fsw_tlm_send(&s, &f);
	for (i = 0; i < 5; i++) {
		ssize_t r = recv(rx, buf, sizeof(buf), MSG_DONTWAIT);

		if (r > 0 && !fsw_tlm_decode(buf, (size_t)r, &g) && g.seq == (uint32_t)i) {
			good++;
			mono = mono && g.send_ns >= t0 && g.send_ns >= last;
			last = g.send_ns;
		}
	}
	check_int(good, ==, 5, "tlm-3.2 five frames arrive, sequence 0..4 in order");
	check(mono, "tlm-3.3 send times are CLOCK_MONOTONIC, non-decreasing");
	check(s.sent == 5 && s.send_errors == 0 && s.seq == 5, "tlm-3.4 counters: 5 sent, 0 errors");
	close(s.fd);			/* a failing send is counted, never blocks */
	s.fd = -1;
	check(fsw_tlm_send(&s, &f) == -EBADF && s.send_errors == 1 && s.last_errno == EBADF && s.seq == 6,
	      "tlm-3.5 a refused send: -errno, counted, the sequence number still used");
	fsw_tlm_close(&s);
	close(rx);
	check(fsw_tlm_open(&s, "nowhere", err, sizeof(err)) == -EINVAL && s.fd == -1, "tlm-3.6 bad dest: no socket");
}

static void test_snapshot(void)
{
	struct fsw_config c;
	struct fsw *f = calloc(1, sizeof(*f));
	struct fsw_nav_msg nav;
	struct fsw_tlm_frame t;

	fsw_telemetry_snapshot(NULL, 0, &t);
	check(t.health == FSW_TLM_NO_FSW && t.nav_age_ms == FSW_TLM_NO_AGE, "tlm-4.1 no flight software: says so");
	fsw_config_default(&c);
	if (!f || fsw_init(f, &c)) {
		check(0, "tlm-4.2 fsw_init");
		free(f);
		return;
	}
	fsw_telemetry_snapshot(f, 1000000000, &t);
	check(!(t.health & FSW_TLM_NAV_VALID) && t.nav_age_ms == FSW_TLM_NO_AGE, "tlm-4.2 before navigation: not valid, no age");
	memset(&nav, 0, sizeof(nav));
	nav.count = 1;
	nav.aligned = true;
	nav.x.pos_m = fsw_v3(10, 20, -100);
	nav.x.vel_mps = fsw_v3(25, 0, 0);
	nav.roll_rad = 0.25;
	nav.yaw_rad = 1.5;
	nav.pub_ns = 1000000000;
	fsw_mb_put(&f->nav_mb, &nav);
	fsw_telemetry_snapshot(f, 1000000000 + 35 * 1000000LL, &t);
	check((t.health & FSW_TLM_NAV_VALID) && t.pos_m[2] == -100.0f && t.vel_mps[0] == 25.0f &&
	      t.att_rad[0] == 0.25f && t.att_rad[2] == 1.5f && t.nav_age_ms == 35 && t.mode == FSW_MODE_INIT,
	      "tlm-4.3 the navigation mailbox: position, velocity, attitude, 35 ms old, mode");
	free(f);
}

/* ---- spit: SPI transfer timing ------------------------------------------------ */

static void test_timing_hist(void)
{
	struct fsw_spi_timing *t = calloc(1, sizeof(*t));
	struct pf_stats st;
	struct pf_hist h;
	int i;

	if (!t)
		return;
	for (i = 1; i <= 1000; i++)
		fsw_spi_timing_add(t, i * 1000);	/* 1 us .. 1 ms */
	fsw_spi_timing_add(t, 1500000);			/* 1.5 ms: over */
	fsw_spi_timing_add(t, 30000000);		/* 30 ms: past the bins, exact */
	check(t->count == 1002 && t->min_ns == 1000 && t->max_ns == 30000000 && t->over_1ms == 2,
	      "spit-1.1 count, exact min / max, over 1 ms (1 ms itself is not over)");
	check_int(fsw_spi_timing_hist(t, &h), ==, 0, "spit-1.2 converted to a lib/hist.h histogram");
	pf_hist_stats(&h, &st);
	check(st.count == 1002 && st.min == 1000 && st.max == 30000000, "spit-1.3 pf_stats: count, min, max exact");
	check_dbl(st.mean, (500500.0 * 1000 + 1500000 + 30000000) / 1002, 1e-3, "spit-1.4 mean exact");
	check(st.pct[2] >= 990000 && st.pct[2] <= 1000000 + FSW_SPIT_BIN_NS, "spit-1.5 p99 within a bin of 990 us (%lld)",
	      (long long)st.pct[2]);
	check(st.max >= st.pct[2] && st.pct[2] >= st.min, "spit-1.6 max >= p99 >= min");
	pf_hist_free(&h);
	for (i = 0; i < FSW_SPIT_NOUT + 10; i++)
		fsw_spi_timing_add(t, 50000000);
	check(t->nout == FSW_SPIT_NOUT && t->out_lost == 11 && t->count == 1002 + FSW_SPIT_NOUT + 10,
	      "spit-1.7 beyond the bins: %d kept exactly (30 ms and 63 of 50 ms), 11 counted at the top edge", FSW_SPIT_NOUT);
	check_int(fsw_spi_timing_hist(t, &h), ==, 0, "spit-1.8 still converts");
	check(h.count == t->count && h.max == 50000000, "spit-1.9 nothing dropped: every transfer counted");
	pf_hist_free(&h);
	free(t);
}

/* A DAQ in memory: answers each actuator frame with a sensor frame naming it; reply times set by the test. */
static struct fsw *daq_f;
static uint16_t daq_q[8];
static int daq_n, daq_sent;
static int64_t daq_delay_ns(int k) { return k % 10 == 9 ? 1500000 : 100000 + 1000 * k; }

static ssize_t daq_send(void *ctx, const uint8_t *tx, size_t n)
{
	struct fsw_spi_act a;

	(void)ctx;
	if (fsw_spi_decode_act(tx, n, n, &a) || daq_n == 8)
		return -EIO;
	daq_q[daq_n++] = a.seq;
	daq_sent++;
	return (ssize_t)n;
}

static ssize_t daq_recv(void *ctx, uint8_t *rx, size_t n)
{
	struct fsw_spi_sens s = { 0 };
	uint16_t act;

	(void)ctx;
	if (!daq_n)
		return 0;
	act = daq_q[0];
	memmove(daq_q, daq_q + 1, sizeof(daq_q[0]) * 7);
	daq_n--;
	s.seq = act;			/* a new sample each time */
	s.act_seq = act;
	s.baro_pa = 101325;
	fsw_spi_encode_sens(rx, daq_f->cfg.spi_frame_len, &s);
	/* arrival: its send time + a delay chosen per transfer */
	daq_f->spi.rx_ns = daq_f->io.spit.pend[act % FSW_SPIT_PENDING].send_ns + daq_delay_ns(act);
	return n < daq_f->cfg.spi_frame_len ? (ssize_t)n : (ssize_t)daq_f->cfg.spi_frame_len;
}

static void test_io_timing(void)
{
	struct fsw_config c;
	struct fsw *f = calloc(1, sizeof(*f));
	const struct fsw_spi_timing *t;
	int k, slots = 50, over = 0;
	int64_t max = 0, min = INT64_MAX;

	fsw_config_default(&c);
	if (!f || fsw_init(f, &c)) {
		check(0, "spit-2.1 fsw_init");
		free(f);
		return;
	}
	daq_f = f;
	f->spi.send = daq_send;
	f->spi.recv = daq_recv;
	for (k = 0; k < slots; k++)
		(void)fsw_io_job(f, (int64_t)k * 10000000);
	for (k = 0; k < slots - 1; k++) {	/* the last transfer's reply is read in a slot that never came */
		int64_t d = daq_delay_ns(k);

		over += d > 1000000;
		min = d < min ? d : min;
		max = d > max ? d : max;
	}
	t = &f->io.spit;
	check(daq_sent == slots && t->count == (uint64_t)slots - 1 && t->unmatched == 0,
	      "spit-2.1 one transfer per io job; every answered one timed (%llu of %d)", (unsigned long long)t->count, slots);
	check(t->count == f->io.spi_frames + f->io.spi_stale, "spit-2.2 timed = SPI replies decoded");
	check(t->min_ns == min && t->max_ns == max && t->over_1ms == (uint64_t)over,
	      "spit-2.3 exact min %lld, max %lld, %d over 1 ms from the replies' arrival times",
	      (long long)t->min_ns, (long long)t->max_ns, over);
	/* a reply naming a frame already timed (the DAQ kept its last one) is not timed twice */
	daq_q[daq_n++] = (uint16_t)(slots - 3);
	(void)fsw_io_job(f, (int64_t)slots * 10000000);
	check(t->unmatched == 1 && t->count == (uint64_t)slots, "spit-2.4 a repeated act_seq: unmatched, not timed again");
	free(f);
}

int main(void)
{
	tap_plan(39);
	test_frames();
	test_dest();
	test_sender();
	test_snapshot();
	test_timing_hist();
	test_io_timing();
	return tap_done();
}
