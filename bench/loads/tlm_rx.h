/*
 * tlm_rx.h - the ground station's receiver of the app's telemetry stream
 * (app/fsw/fsw_tlm.h frames over UDP): counts frames received, sequence gaps
 * (lost), duplicates, reordered and late frames, and the one-way delay
 * (kernel receive stamp - the frame's send time; sender and receiver share
 * CLOCK_MONOTONIC on this machine, network namespaces included).
 *
 * The wifi load opens it inside its ground-station namespace; the telemetry
 * load (a receiver alone, for loopback or a target's ground station) opens
 * it in the caller's namespace. Receiving is polled (every ~100 ms): the
 * kernel's stamp, not the poll, dates each frame.
 */
#ifndef TLM_RX_H
#define TLM_RX_H

#include "hist.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct json_t;

#define TLM_RX_WINDOW 4096		/* sequence numbers remembered for duplicates (power of two) */

struct tlm_rx {
	int fd;				/* -1 when closed */
	char addr[80];			/* "ADDR:PORT" it listens on */
	int64_t late_ns;		/* a frame later than this is late */
	uint64_t datagrams;		/* every datagram read */
	uint64_t received;		/* valid frames, duplicates excluded */
	uint64_t duplicates, reordered, late, rejected;
	uint64_t rej[8];		/* by enum fsw_tlm_rej */
	bool have_seq;
	uint32_t max_seq;		/* highest sequence number seen */
	uint64_t seen[TLM_RX_WINDOW / 64];	/* bit per sequence number, window below max_seq */
	struct pf_hist delay;		/* one-way delay, ns */
	bool hist_ok;
};

/* tlm_rx_init - an empty receiver without a socket (what open starts from; tests); 0 or -errno */
int tlm_rx_init(struct tlm_rx *rx, const char *addr, int64_t late_ns);

/*
 * tlm_rx_open - bind a UDP socket to addr ("ADDR:PORT"), inside the
 * network namespace netns_path (/run/netns/NAME) when not NULL; 0 or -errno
 * with why
 */
int tlm_rx_open(struct tlm_rx *rx, const char *netns_path, const char *addr, int64_t late_ns,
		   char *why, size_t why_size);
/* tlm_rx_poll - read every datagram waiting (never blocks) */
void tlm_rx_poll(struct tlm_rx *rx);
/* tlm_rx_frame - account one datagram received at rx_ns (CLOCK_MONOTONIC); the receiver's logic */
void tlm_rx_frame(struct tlm_rx *rx, const uint8_t *buf, size_t len, int64_t rx_ns);
/*
 * tlm_rx_json - {receiver, late_bound_ns, sent, received, lost, duplicates,
 * reordered, late, rejected, delay_ns}; sent from the app's stats JSON
 * (app_stats, its "telemetry" member) when given, else null
 */
struct json_t *tlm_rx_json(struct tlm_rx *rx, const char *app_stats);
void tlm_rx_close(struct tlm_rx *rx);

#endif
