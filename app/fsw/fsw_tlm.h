/*
 * fsw_tlm.h - the app's telemetry downlink: one UDP datagram per job of the
 * 'telemetry' task (10 Hz) to the ground station, and the frame format the
 * ground station (bench/loads/wifi.c's receiver) decodes.
 *
 * Frame v1, 68 bytes, little-endian (docs/fsw.md "Telemetry"):
 *
 *   0  magic "PFTM"          4  version 1           5  mode (enum fsw_mode)
 *   6  health bits (LE16)    8  sequence (LE32, from 0, +1 per frame sent or not)
 *  12  send time, CLOCK_MONOTONIC ns (LE64, taken just before sendto)
 *  20  position N, E, D m    32  velocity N, E, D m/s   (f32 each)
 *  44  roll, pitch, yaw rad  56  airspeed m/s           60  EKF position sigma m
 *  64  nav age ms (LE16, 65535 = none)                  66  CRC-16/CCITT-FALSE over 0..65
 *
 * The sender is opened at setup (a non-blocking UDP socket, destination
 * resolved once); fsw_tlm_send() is one sendto(MSG_DONTWAIT) that never
 * blocks: a refused or failed send is counted, not retried.
 */
#ifndef FSW_TLM_H
#define FSW_TLM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#define FSW_TLM_MAGIC     "PFTM"
#define FSW_TLM_VERSION   1
#define FSW_TLM_FRAME_LEN 68
#define FSW_TLM_NO_AGE    0xffff

/* health bits */
enum {
	FSW_TLM_NAV_VALID = 1 << 0,	/* the flight software runs and navigation is aligned */
	FSW_TLM_IMU_STALE = 1 << 1,	/* io: no IMU frame for stale_slots slots */
	FSW_TLM_GPS_LOST  = 1 << 2,	/* mission1: GPS outage declared */
	FSW_TLM_FAILSAFE  = 1 << 3,	/* mode is failsafe */
	FSW_TLM_NO_FSW    = 1 << 4,	/* the flight software is not configured: no navigation data */
};

struct fsw_tlm_frame {
	uint8_t  version;	/* filled by encode / decode */
	uint8_t  mode;
	uint16_t health;
	uint32_t seq;
	int64_t  send_ns;
	float    pos_m[3], vel_mps[3], att_rad[3];	/* NED; roll, pitch, yaw */
	float    airspeed_mps, pos_sigma_m;
	uint16_t nav_age_ms;
};

/* Decoder rejection reasons (negative returns of fsw_tlm_decode). */
enum fsw_tlm_rej {
	FSW_TLM_REJ_LEN = 1,		/* not FSW_TLM_FRAME_LEN bytes */
	FSW_TLM_REJ_MAGIC,		/* not "PFTM" */
	FSW_TLM_REJ_VERSION,		/* a version this decoder does not know */
	FSW_TLM_REJ_CRC,		/* CRC mismatch */
	FSW_TLM_REJ_COUNT
};

/* fsw_tlm_rej_name - "len", "magic", "version", "crc" */
const char *fsw_tlm_rej_name(int reason);

/* fsw_tlm_encode - a frame into out[FSW_TLM_FRAME_LEN]; returns FSW_TLM_FRAME_LEN */
size_t fsw_tlm_encode(uint8_t *out, const struct fsw_tlm_frame *f);
/* fsw_tlm_decode - 0 or -enum fsw_tlm_rej; f is only written on success */
int fsw_tlm_decode(const uint8_t *buf, size_t len, struct fsw_tlm_frame *f);

/*
 * fsw_tlm_parse_dest - "HOST:PORT" ("127.0.0.1:5203", "localhost:5203",
 * "[::1]:5203") resolved to a datagram address; 0 or -EINVAL (why in err)
 */
int fsw_tlm_parse_dest(const char *text, struct sockaddr_storage *sa, socklen_t *len, char *err,
		       size_t err_size);

struct fsw_tlm_sender {
	int fd;				/* -1 when closed */
	struct sockaddr_storage dest;
	socklen_t dest_len;
	uint32_t seq;			/* next frame's sequence number */
	uint64_t sent, send_errors;	/* datagrams handed to the kernel / refused */
	int last_errno;			/* of the last refused send, 0 if none */
	uint8_t buf[FSW_TLM_FRAME_LEN];
};

/* fsw_tlm_open - resolve dest and open the non-blocking socket (setup code); 0 or -errno, why in err */
int fsw_tlm_open(struct fsw_tlm_sender *s, const char *dest, char *err, size_t err_size);
/*
 * fsw_tlm_send - stamp f with the next sequence number and the send time,
 * encode and send it without blocking (realtime-safe: one sendto, no
 * allocation); 0 or -errno (counted in send_errors)
 */
int fsw_tlm_send(struct fsw_tlm_sender *s, struct fsw_tlm_frame *f);
void fsw_tlm_close(struct fsw_tlm_sender *s);

/*
 * fsw_realtime_to_mono_ns - a CLOCK_REALTIME instant of the recent past (a
 * kernel receive stamp, SO_TIMESTAMPNS) on CLOCK_MONOTONIC: the offset
 * between the clocks from the tightest of three bracketing reads (vDSO, no
 * syscall; realtime-safe); never later than now
 */
int64_t fsw_realtime_to_mono_ns(int64_t rt_ns);

#endif
