/*
 * tlm_rx_test.c - unit tests of the ground station's telemetry receiver
 * logic (bench/loads/tlm_rx.c) on synthetic frames: received, sequence gaps
 * (lost), duplicates, reordered and late frames, rejected datagrams by
 * reason, the one-way delay statistics and the JSON report with the app's
 * frames sent. Test ids: tlm-7.N.
 */
#include "bench/loads/tlm_rx.h"
#include "app/fsw/fsw_tlm.h"
#include "common.h"
#include "tap.h"

#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MS 1000000LL

/* feed - frame seq sent at send_ns, received delay_ns later */
static void feed(struct tlm_rx *rx, uint32_t seq, int64_t send_ns, int64_t delay_ns)
{
	struct fsw_tlm_frame f = { .seq = seq, .send_ns = send_ns };
	uint8_t buf[FSW_TLM_FRAME_LEN];

	fsw_tlm_encode(buf, &f);
	tlm_rx_frame(rx, buf, sizeof(buf), send_ns + delay_ns);
}

int main(void)
{
	struct tlm_rx rx;
	struct fsw_tlm_frame f = { .seq = 9 };
	uint8_t buf[FSW_TLM_FRAME_LEN];
	char stats[] = "/tmp/tlm_rx_test-XXXXXX";
	json_t *o;
	FILE *fp;
	int fd;

	tap_plan(12);
	if (tlm_rx_init(&rx, "10.0.0.2:5203", 100 * MS)) {
		check(0, "tlm-7.1 init");
		return tap_done();
	}
	/* 0 1 2 _ 4 5, 4 again, then 3 late and out of order, 6 over the bound, 9 (7, 8 lost) */
	feed(&rx, 0, 1000 * MS, 2 * MS);
	feed(&rx, 1, 1100 * MS, 3 * MS);
	feed(&rx, 2, 1200 * MS, 1 * MS);
	feed(&rx, 4, 1400 * MS, 5 * MS);
	feed(&rx, 5, 1500 * MS, 4 * MS);
	feed(&rx, 4, 1400 * MS, 6 * MS);
	feed(&rx, 3, 1300 * MS, 250 * MS);
	feed(&rx, 6, 1600 * MS, 101 * MS);
	feed(&rx, 9, 1900 * MS, 100 * MS);	/* exactly the bound: not late */
	check(rx.received == 8 && rx.datagrams == 9, "tlm-7.1 8 distinct frames received of 9 datagrams");
	check_int(rx.duplicates, ==, 1, "tlm-7.2 frame 4 twice: one duplicate, not counted again");
	check_int(rx.reordered, ==, 1, "tlm-7.3 frame 3 after 5: reordered, not lost");
	check_int(rx.late, ==, 2, "tlm-7.4 late: 250 ms and 101 ms (> 100 ms), not 100 ms itself");
	check_int(rx.max_seq, ==, 9, "tlm-7.5 highest sequence number 9");
	/* rejected: a corrupted CRC, a short datagram, foreign bytes */
	fsw_tlm_encode(buf, &f);
	buf[40] ^= 1;
	tlm_rx_frame(&rx, buf, sizeof(buf), 0);
	tlm_rx_frame(&rx, buf, 10, 0);
	tlm_rx_frame(&rx, (const uint8_t *)"GET / HTTP/1.0\r\n\r\n........................................................", 68, 0);
	check(rx.rejected == 3 && rx.rej[FSW_TLM_REJ_CRC] == 1 && rx.rej[FSW_TLM_REJ_LEN] == 1 &&
	      rx.rej[FSW_TLM_REJ_MAGIC] == 1 && rx.received == 8, "tlm-7.6 rejected by reason: crc, len, magic; nothing received");

	fd = mkstemp(stats);
	fp = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (fp) {
		fputs("{\"telemetry\": {\"sent\": 12}}", fp);
		fclose(fp);
	}
	o = tlm_rx_json(&rx, stats);
	unlink(stats);
	check(json_integer_value(json_object_get(o, "sent")) == 12 && json_integer_value(json_object_get(o, "received")) == 8,
	      "tlm-7.7 report: sent from the app's stats (12), received 8");
	check_int(json_integer_value(json_object_get(o, "lost")), ==, 2, "tlm-7.8 lost: the gaps 7 and 8 (0..9 less 8 received)");
	check_int(json_integer_value(json_object_get(o, "not_received")), ==, 4, "tlm-7.9 not received: 12 sent - 8 (the tail too)");
	check(json_integer_value(json_object_get(json_object_get(o, "delay_ns"), "count")) == 8 &&
	      json_integer_value(json_object_get(json_object_get(o, "delay_ns"), "max")) == 250 * MS &&
	      json_integer_value(json_object_get(json_object_get(o, "delay_ns"), "min")) == 1 * MS,
	      "tlm-7.10 one-way delay statistics: 8 frames, min 1 ms, max 250 ms");
	json_decref(o);
	o = tlm_rx_json(&rx, "/nonexistent/fsw.json");
	check(json_is_null(json_object_get(o, "sent")) && json_is_null(json_object_get(o, "not_received")),
	      "tlm-7.11 without the app's stats: sent and not_received are null, not guessed");
	json_decref(o);
	tlm_rx_close(&rx);
	check(rx.fd == -1 && !rx.hist_ok, "tlm-7.12 closed");
	return tap_done();
}
