/*
 * fsw_tlm.c - the telemetry frame (encode / strict decode) and its
 * non-blocking UDP sender (fsw_tlm.h). The decoder is shared with the
 * ground-station receiver of the bench (bench/loads/wifi.c).
 */
#include "fsw_tlm.h"
#include "fsw_proto.h"
#include "common.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *fsw_tlm_rej_name(int reason)
{
	static const char *const names[FSW_TLM_REJ_COUNT] = {
		[FSW_TLM_REJ_LEN] = "len", [FSW_TLM_REJ_MAGIC] = "magic",
		[FSW_TLM_REJ_VERSION] = "version", [FSW_TLM_REJ_CRC] = "crc",
	};

	if (reason < 0)
		reason = -reason;
	return reason > 0 && reason < FSW_TLM_REJ_COUNT ? names[reason] : "?";
}

size_t fsw_tlm_encode(uint8_t *out, const struct fsw_tlm_frame *f)
{
	int i;

	memcpy(out, FSW_TLM_MAGIC, 4);
	out[4] = FSW_TLM_VERSION;
	out[5] = f->mode;
	fsw_put16(out + 6, f->health);
	fsw_put32(out + 8, f->seq);
	fsw_put64(out + 12, (uint64_t)f->send_ns);
	for (i = 0; i < 3; i++) {
		fsw_putf(out + 20 + 4 * i, f->pos_m[i]);
		fsw_putf(out + 32 + 4 * i, f->vel_mps[i]);
		fsw_putf(out + 44 + 4 * i, f->att_rad[i]);
	}
	fsw_putf(out + 56, f->airspeed_mps);
	fsw_putf(out + 60, f->pos_sigma_m);
	fsw_put16(out + 64, f->nav_age_ms);
	fsw_put16(out + 66, fsw_crc16(out, FSW_TLM_FRAME_LEN - 2));
	return FSW_TLM_FRAME_LEN;
}

int fsw_tlm_decode(const uint8_t *buf, size_t len, struct fsw_tlm_frame *f)
{
	int i;

	if (len != FSW_TLM_FRAME_LEN)
		return -FSW_TLM_REJ_LEN;
	if (memcmp(buf, FSW_TLM_MAGIC, 4))
		return -FSW_TLM_REJ_MAGIC;
	if (buf[4] != FSW_TLM_VERSION)
		return -FSW_TLM_REJ_VERSION;
	if (fsw_get16(buf + 66) != fsw_crc16(buf, FSW_TLM_FRAME_LEN - 2))
		return -FSW_TLM_REJ_CRC;
	f->version = buf[4];
	f->mode = buf[5];
	f->health = fsw_get16(buf + 6);
	f->seq = fsw_get32(buf + 8);
	f->send_ns = (int64_t)fsw_get64(buf + 12);
	for (i = 0; i < 3; i++) {
		f->pos_m[i] = (float)fsw_getf(buf + 20 + 4 * i);
		f->vel_mps[i] = (float)fsw_getf(buf + 32 + 4 * i);
		f->att_rad[i] = (float)fsw_getf(buf + 44 + 4 * i);
	}
	f->airspeed_mps = (float)fsw_getf(buf + 56);
	f->pos_sigma_m = (float)fsw_getf(buf + 60);
	f->nav_age_ms = fsw_get16(buf + 64);
	return 0;
}

int fsw_tlm_parse_dest(const char *text, struct sockaddr_storage *sa, socklen_t *len, char *err,
		       size_t err_size)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_DGRAM,
				  .ai_flags = AI_NUMERICSERV };
	struct addrinfo *res = NULL;
	char host[256];
	const char *colon, *port;
	size_t hlen;
	int rc;

	if (text[0] == '[') {			/* [v6]:port */
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':')
			goto bad;
		hlen = (size_t)(close - text - 1);
		text++;
		port = close + 2;
	} else {
		colon = strrchr(text, ':');
		if (!colon)
			goto bad;
		hlen = (size_t)(colon - text);
		port = colon + 1;
	}
	if (!hlen || hlen >= sizeof(host) || !port[0] || strspn(port, "0123456789") != strlen(port) ||
	    atoi(port) < 1 || atoi(port) > 65535)
		goto bad;
	memcpy(host, text, hlen);
	host[hlen] = '\0';
	rc = getaddrinfo(host, port, &hints, &res);
	if (rc || !res) {
		snprintf(err, err_size, "dest: '%s': %s", host, rc ? gai_strerror(rc) : "no address");
		return -EINVAL;
	}
	memcpy(sa, res->ai_addr, res->ai_addrlen);
	*len = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
bad:
	snprintf(err, err_size, "dest: '%s': expected HOST:PORT", text);
	return -EINVAL;
}

int fsw_tlm_open(struct fsw_tlm_sender *s, const char *dest, char *err, size_t err_size)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	rc = fsw_tlm_parse_dest(dest, &s->dest, &s->dest_len, err, err_size);
	if (rc)
		return rc;
	s->fd = socket(s->dest.ss_family, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0) {
		rc = -errno;
		snprintf(err, err_size, "dest: socket: %s", strerror(errno));
		return rc;
	}
	return 0;
}

int fsw_tlm_send(struct fsw_tlm_sender *s, struct fsw_tlm_frame *f)
{
	ssize_t r;

	f->seq = s->seq++;
	f->send_ns = pf_now_ns();
	fsw_tlm_encode(s->buf, f);
	r = sendto(s->fd, s->buf, sizeof(s->buf), MSG_DONTWAIT | MSG_NOSIGNAL,
		   (const struct sockaddr *)&s->dest, s->dest_len);
	if (r == (ssize_t)sizeof(s->buf)) {
		s->sent++;
		return 0;
	}
	s->send_errors++;
	s->last_errno = r < 0 ? errno : EMSGSIZE;
	return -s->last_errno;
}

void fsw_tlm_close(struct fsw_tlm_sender *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

int64_t fsw_realtime_to_mono_ns(int64_t rt_ns)
{
	int64_t best_win = INT64_MAX, off = 0, mono = 0;
	int i;

	for (i = 0; i < 3; i++) {	/* a read pair split by a preemption is not used */
		int64_t rt1 = pf_clock_ns(CLOCK_REALTIME), m = pf_now_ns(), rt2 = pf_clock_ns(CLOCK_REALTIME);

		if (rt2 - rt1 < best_win) {
			best_win = rt2 - rt1;
			off = rt1 + (rt2 - rt1) / 2 - m;
			mono = m;
		}
	}
	return rt_ns - off < mono ? rt_ns - off : mono;
}
