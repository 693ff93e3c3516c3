/*
 * fsw_proto.c - encoders and strict decoders of the UART and SPI frames
 * (fsw_proto.h, docs/fsw.md), and the resynchronising UART stream parser.
 *
 * The parser keeps at most one frame's worth of bytes. A candidate frame
 * that fails any check is counted under its reason and the parser drops just
 * its first sync byte and hunts again, so a real frame hidden behind garbage
 * (or a false sync inside a payload) is still found.
 */
#include "fsw_proto.h"

#include <string.h>

static const char *const fsw_rej_names[FSW_REJ_COUNT] = {
	[FSW_REJ_NONE] = "none",
	[FSW_REJ_IMU_TYPE] = "imu_type",
	[FSW_REJ_IMU_LEN] = "imu_len",
	[FSW_REJ_IMU_CRC] = "imu_crc",
	[FSW_REJ_IMU_RANGE] = "imu_range",
	[FSW_REJ_UBX_LEN] = "ubx_len",
	[FSW_REJ_UBX_CK] = "ubx_checksum",
	[FSW_REJ_UBX_PVT_LEN] = "ubx_pvt_len",
	[FSW_REJ_UBX_RANGE] = "ubx_range",
	[FSW_REJ_SPI_SHORT] = "spi_short",
	[FSW_REJ_SPI_MAGIC] = "spi_magic",
	[FSW_REJ_SPI_VERSION] = "spi_version",
	[FSW_REJ_SPI_TYPE] = "spi_type",
	[FSW_REJ_SPI_CRC] = "spi_crc",
	[FSW_REJ_SPI_RANGE] = "spi_range",
};

const char *fsw_rej_name(enum fsw_rej r)
{
	return r >= 0 && r < FSW_REJ_COUNT ? fsw_rej_names[r] : "?";
}

/* CRC-16/CCITT-FALSE table: crc16_tab[i] = CRC register after shifting byte i through (poly 0x1021) */
static const uint16_t crc16_tab[256] = {
	0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
	0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
	0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
	0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
	0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
	0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
	0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
	0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
	0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
	0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
	0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
	0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
	0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
	0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
	0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
	0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
	0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
	0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
	0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
	0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
	0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
	0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
	0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
	0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
	0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
	0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
	0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
	0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
	0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
	0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
	0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
	0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0,
};

uint16_t fsw_crc16(const uint8_t *p, size_t n)
{
	uint16_t crc = 0xffff;
	size_t i;

	for (i = 0; i < n; i++)
		crc = (uint16_t)(crc << 8) ^ crc16_tab[(crc >> 8) ^ p[i]];
	return crc;
}

/* in_range - every component finite and |x| <= lim */
static int in_range(fsw_vec3 v, double lim)
{
	return fsw_v3_finite(v) && fabs(v.x) <= lim && fabs(v.y) <= lim && fabs(v.z) <= lim;
}

size_t fsw_imu_encode(uint8_t *out, const struct fsw_imu_sample *s)
{
	uint8_t *p = out + 4;

	out[0] = FSW_IMU_SYNC1;
	out[1] = FSW_IMU_SYNC2;
	out[2] = FSW_IMU_TYPE;
	out[3] = FSW_IMU_PAYLOAD_LEN;
	fsw_put16(p, s->seq);
	fsw_put32(p + 2, s->t_us);
	fsw_putv(p + 6, s->gyro_radps);
	fsw_putv(p + 18, s->accel_mps2);
	fsw_put16(p + 30, (uint16_t)(int16_t)lrint(fsw_clamp(s->temp_c, -300, 300) * 100));
	fsw_put16(out + 4 + FSW_IMU_PAYLOAD_LEN, fsw_crc16(out + 2, 2 + FSW_IMU_PAYLOAD_LEN));
	return FSW_IMU_FRAME_LEN;
}

int fsw_imu_decode(const uint8_t *f, size_t len, struct fsw_imu_sample *s)
{
	const uint8_t *p = f + 4;

	/* the length first: a decoder stands alone, whatever its caller checked */
	if (len < FSW_IMU_FRAME_LEN)
		return -FSW_REJ_IMU_LEN;
	if (f[2] != FSW_IMU_TYPE)
		return -FSW_REJ_IMU_TYPE;
	if (f[3] != FSW_IMU_PAYLOAD_LEN)
		return -FSW_REJ_IMU_LEN;
	if (fsw_get16(f + 4 + FSW_IMU_PAYLOAD_LEN) != fsw_crc16(f + 2, 2 + FSW_IMU_PAYLOAD_LEN))
		return -FSW_REJ_IMU_CRC;
	s->seq = fsw_get16(p);
	s->t_us = fsw_get32(p + 2);
	s->gyro_radps = fsw_getv(p + 6);
	s->accel_mps2 = fsw_getv(p + 18);
	s->temp_c = (int16_t)fsw_get16(p + 30) / 100.0;
	/* a MEMS IMU of this class saturates at 2000 deg/s and 16 g */
	if (!in_range(s->gyro_radps, 35.0) || !in_range(s->accel_mps2, 16 * FSW_G_MPS2))
		return -FSW_REJ_IMU_RANGE;
	return 0;
}

size_t fsw_ubx_frame(uint8_t *out, uint8_t cls, uint8_t id, const uint8_t *payload, size_t len)
{
	uint8_t a = 0, b = 0;
	size_t i;

	out[0] = FSW_UBX_SYNC1;
	out[1] = FSW_UBX_SYNC2;
	out[2] = cls;
	out[3] = id;
	fsw_put16(out + 4, (uint16_t)len);
	if (len)
		memmove(out + 6, payload, len);
	for (i = 2; i < 6 + len; i++) {
		a += out[i];
		b += a;
	}
	out[6 + len] = a;
	out[7 + len] = b;
	return 8 + len;
}

size_t fsw_ubx_encode_pvt(uint8_t *out, const struct fsw_gps_fix *f)
{
	uint8_t p[FSW_UBX_NAV_PVT_LEN];
	double gspeed = hypot(f->vel_ned_mps.x, f->vel_ned_mps.y);
	double head = atan2(f->vel_ned_mps.y, f->vel_ned_mps.x) * 180 / FSW_PI;

	memset(p, 0, sizeof(p));
	fsw_put32(p + 0, f->itow_ms);
	fsw_put16(p + 4, 2026);
	p[6] = 12;			/* month, day, time: nominal, flagged not valid */
	p[7] = 3;
	p[11] = 0x00;			/* valid: date / time not confirmed */
	fsw_put32(p + 12, 50);		/* tAcc ns */
	p[20] = f->fix_type;
	p[21] = f->flags;
	p[23] = f->num_sv;
	fsw_put32(p + 24, (uint32_t)(int32_t)lrint(f->lon_deg * 1e7));
	fsw_put32(p + 28, (uint32_t)(int32_t)lrint(f->lat_deg * 1e7));
	fsw_put32(p + 32, (uint32_t)(int32_t)lrint(f->height_m * 1e3));
	fsw_put32(p + 36, (uint32_t)(int32_t)lrint(f->height_m * 1e3));	/* hMSL: geoid 0 here */
	fsw_put32(p + 40, (uint32_t)lrint(f->h_acc_m * 1e3));
	fsw_put32(p + 44, (uint32_t)lrint(f->v_acc_m * 1e3));
	fsw_put32(p + 48, (uint32_t)(int32_t)lrint(f->vel_ned_mps.x * 1e3));
	fsw_put32(p + 52, (uint32_t)(int32_t)lrint(f->vel_ned_mps.y * 1e3));
	fsw_put32(p + 56, (uint32_t)(int32_t)lrint(f->vel_ned_mps.z * 1e3));
	fsw_put32(p + 60, (uint32_t)(int32_t)lrint(gspeed * 1e3));
	fsw_put32(p + 64, (uint32_t)(int32_t)lrint((head < 0 ? head + 360 : head) * 1e5));
	fsw_put32(p + 68, (uint32_t)lrint(f->s_acc_mps * 1e3));
	fsw_put32(p + 72, 100000);		/* headAcc 1 deg */
	fsw_put16(p + 76, 120);		/* pDOP 1.2 */
	return fsw_ubx_frame(out, 0x01, 0x07, p, sizeof(p));
}

int fsw_ubx_decode_pvt(const uint8_t *p, size_t len, struct fsw_gps_fix *f)
{
	if (len != FSW_UBX_NAV_PVT_LEN)
		return -FSW_REJ_UBX_PVT_LEN;
	f->itow_ms = fsw_get32(p);
	f->t_us = f->itow_ms * 1000u;
	f->fix_type = p[20];
	f->flags = p[21];
	f->num_sv = p[23];
	f->lon_deg = (int32_t)fsw_get32(p + 24) * 1e-7;
	f->lat_deg = (int32_t)fsw_get32(p + 28) * 1e-7;
	f->height_m = (int32_t)fsw_get32(p + 32) * 1e-3;
	f->h_acc_m = fsw_get32(p + 40) * 1e-3;
	f->v_acc_m = fsw_get32(p + 44) * 1e-3;
	f->vel_ned_mps = fsw_v3((int32_t)fsw_get32(p + 48) * 1e-3, (int32_t)fsw_get32(p + 52) * 1e-3,
				(int32_t)fsw_get32(p + 56) * 1e-3);
	f->s_acc_mps = fsw_get32(p + 68) * 1e-3;
	if (fabs(f->lat_deg) > 90 || fabs(f->lon_deg) > 180 || f->height_m < -1000 ||
	    f->height_m > 50000 || !in_range(f->vel_ned_mps, 500) || f->itow_ms >= 604800000u)
		return -FSW_REJ_UBX_RANGE;
	return 0;
}

/* spi_header - the common start of both SPI frame types */
static void spi_header(uint8_t *out, size_t frame_len, uint8_t type, uint16_t seq, uint32_t t_us)
{
	memset(out, 0, frame_len);
	out[0] = 'P';
	out[1] = 'F';
	out[2] = FSW_SPI_VERSION;
	out[3] = type;
	fsw_put16(out + 4, seq);
	fsw_put32(out + 6, t_us);
}

static void spi_seal(uint8_t *out, size_t frame_len)
{
	fsw_put16(out + frame_len - 2, fsw_crc16(out, frame_len - 2));
}

/* spi_check - length, magic, version, type and CRC of an SPI frame; 0 or -reason */
static int spi_check(const uint8_t *buf, size_t len, size_t frame_len, uint8_t type)
{
	if (len != frame_len || len < FSW_SPI_FRAME_MIN)
		return -FSW_REJ_SPI_SHORT;
	if (buf[0] != 'P' || buf[1] != 'F')
		return -FSW_REJ_SPI_MAGIC;
	if (buf[2] != FSW_SPI_VERSION)
		return -FSW_REJ_SPI_VERSION;
	if (buf[3] != type)
		return -FSW_REJ_SPI_TYPE;
	if (fsw_get16(buf + frame_len - 2) != fsw_crc16(buf, frame_len - 2))
		return -FSW_REJ_SPI_CRC;
	return 0;
}

void fsw_spi_encode_act(uint8_t *out, size_t frame_len, const struct fsw_spi_act *a)
{
	spi_header(out, frame_len, FSW_SPI_TYPE_ACT, a->seq, a->t_us);
	fsw_putf(out + 10, a->aileron_rad);
	fsw_putf(out + 14, a->elevator_rad);
	fsw_putf(out + 18, a->rudder_rad);
	fsw_putf(out + 22, a->throttle);
	out[26] = a->mode;
	fsw_put32(out + 27, a->nav_t_us);
	fsw_putv(out + 31, a->nav_pos_m);
	spi_seal(out, frame_len);
}

int fsw_spi_decode_act(const uint8_t *buf, size_t len, size_t frame_len, struct fsw_spi_act *a)
{
	int rc = spi_check(buf, len, frame_len, FSW_SPI_TYPE_ACT);

	if (rc)
		return rc;
	a->seq = fsw_get16(buf + 4);
	a->t_us = fsw_get32(buf + 6);
	a->aileron_rad = fsw_getf(buf + 10);
	a->elevator_rad = fsw_getf(buf + 14);
	a->rudder_rad = fsw_getf(buf + 18);
	a->throttle = fsw_getf(buf + 22);
	a->mode = buf[26];
	a->nav_t_us = fsw_get32(buf + 27);
	a->nav_pos_m = fsw_getv(buf + 31);
	if (!in_range(fsw_v3(a->aileron_rad, a->elevator_rad, a->rudder_rad), 1.0) ||
	    !(a->throttle >= 0 && a->throttle <= 1))
		return -FSW_REJ_SPI_RANGE;
	return 0;
}

void fsw_spi_encode_sens(uint8_t *out, size_t frame_len, const struct fsw_spi_sens *s)
{
	spi_header(out, frame_len, FSW_SPI_TYPE_SENS, s->seq, s->t_us);
	fsw_put16(out + 10, s->act_seq);
	fsw_putf(out + 12, s->baro_pa);
	fsw_putf(out + 16, s->baro_temp_c);
	fsw_putf(out + 20, s->diff_pa);
	fsw_putv(out + 24, s->mag_gauss);
	spi_seal(out, frame_len);
}

int fsw_spi_decode_sens(const uint8_t *buf, size_t len, size_t frame_len, struct fsw_spi_sens *s)
{
	int rc = spi_check(buf, len, frame_len, FSW_SPI_TYPE_SENS);

	if (rc)
		return rc;
	s->seq = fsw_get16(buf + 4);
	s->t_us = fsw_get32(buf + 6);
	s->act_seq = fsw_get16(buf + 10);
	s->baro_pa = fsw_getf(buf + 12);
	s->baro_temp_c = fsw_getf(buf + 16);
	s->diff_pa = fsw_getf(buf + 20);
	s->mag_gauss = fsw_getv(buf + 24);
	if (!(s->baro_pa > 10000 && s->baro_pa < 120000) || !(fabs(s->baro_temp_c) < 150) ||
	    !(s->diff_pa > -500 && s->diff_pa < 20000) || !in_range(s->mag_gauss, 4.0))
		return -FSW_REJ_SPI_RANGE;
	return 0;
}

void fsw_uart_parser_init(struct fsw_uart_parser *p)
{
	memset(p, 0, sizeof(*p));
}

/* parser_drop - forget the first n buffered bytes */
static void parser_drop(struct fsw_uart_parser *p, size_t n)
{
	memmove(p->buf, p->buf + n, p->len - n);
	p->len -= n;
}

/*
 * parser_step - look at the buffer's head: >0 bytes consumed (a frame or a
 * rejected sync byte), 0 when more bytes are needed
 */
static size_t parser_step(struct fsw_uart_parser *p, const struct fsw_uart_sink *sink)
{
	const uint8_t *b = p->buf;
	size_t i, need;
	int rc;

	if (b[0] != FSW_IMU_SYNC1 && b[0] != FSW_UBX_SYNC1) {
		for (i = 1; i < p->len && b[i] != FSW_IMU_SYNC1 && b[i] != FSW_UBX_SYNC1; i++)
			;
		p->resync_bytes += i;
		return i;
	}
	if (p->len < 2)
		return 0;
	if ((b[0] == FSW_IMU_SYNC1 && b[1] != FSW_IMU_SYNC2) ||
	    (b[0] == FSW_UBX_SYNC1 && b[1] != FSW_UBX_SYNC2)) {
		p->resync_bytes++;
		return 1;
	}
	if (b[0] == FSW_IMU_SYNC1) {
		struct fsw_imu_sample s;

		if (p->len < 4)
			return 0;
		if (b[2] != FSW_IMU_TYPE) {
			p->rej[FSW_REJ_IMU_TYPE]++;
			return 1;
		}
		if (b[3] != FSW_IMU_PAYLOAD_LEN) {
			p->rej[FSW_REJ_IMU_LEN]++;
			return 1;
		}
		if (p->len < FSW_IMU_FRAME_LEN)
			return 0;
		rc = fsw_imu_decode(b, p->len, &s);
		if (rc) {
			p->rej[-rc]++;
			return 1;
		}
		p->imu_frames++;
		if (sink && sink->imu)
			sink->imu(sink->ctx, &s);
		return FSW_IMU_FRAME_LEN;
	}
	/* UBX */
	if (p->len < 6)
		return 0;
	need = fsw_get16(b + 4);
	if (need > FSW_UBX_MAX_PAYLOAD) {
		p->rej[FSW_REJ_UBX_LEN]++;
		return 1;
	}
	if (p->len < need + 8)
		return 0;
	{
		uint8_t ca = 0, cb = 0;

		for (i = 2; i < need + 6; i++) {
			ca += b[i];
			cb += ca;
		}
		if (ca != b[need + 6] || cb != b[need + 7]) {
			p->rej[FSW_REJ_UBX_CK]++;
			return 1;
		}
	}
	if (b[2] == 0x01 && b[3] == 0x07) {
		struct fsw_gps_fix f;

		rc = fsw_ubx_decode_pvt(b + 6, need, &f);
		if (rc) {
			p->rej[-rc]++;
			return need + 8;	/* checksum was right: the frame boundary is known */
		}
		p->gps_frames++;
		if (sink && sink->gps)
			sink->gps(sink->ctx, &f);
	} else {
		p->ubx_ignored++;
	}
	return need + 8;
}

void fsw_uart_parser_feed(struct fsw_uart_parser *p, const uint8_t *data, size_t n,
			  const struct fsw_uart_sink *sink)
{
	p->bytes += n;
	while (n || p->len) {
		size_t room = sizeof(p->buf) - p->len, take = n < room ? n : room, used;

		memcpy(p->buf + p->len, data, take);
		p->len += take;
		data += take;
		n -= take;
		while (p->len && (used = parser_step(p, sink)) > 0)
			parser_drop(p, used);
		if (!n)
			break;
	}
}

void fsw_geo_home_init(struct fsw_geo_home *h, double lat_deg, double lon_deg, double height_m)
{
	const double a = 6378137.0, e2 = 6.69437999014e-3;
	double s = sin(lat_deg * FSW_PI / 180), d = 1 - e2 * s * s;

	h->lat_deg = lat_deg;
	h->lon_deg = lon_deg;
	h->height_m = height_m;
	h->rn_m = a * (1 - e2) / (d * sqrt(d));
	h->re_m = a / sqrt(d);
}

fsw_vec3 fsw_geo_to_ned(const struct fsw_geo_home *h, double lat_deg, double lon_deg, double height_m)
{
	double k = FSW_PI / 180;

	return fsw_v3((lat_deg - h->lat_deg) * k * h->rn_m,
		      (lon_deg - h->lon_deg) * k * h->re_m * cos(h->lat_deg * k),
		      -(height_m - h->height_m));
}

void fsw_ned_to_geo(const struct fsw_geo_home *h, fsw_vec3 ned, double *lat_deg, double *lon_deg, double *height_m)
{
	double k = FSW_PI / 180;

	*lat_deg = h->lat_deg + ned.x / h->rn_m / k;
	*lon_deg = h->lon_deg + ned.y / (h->re_m * cos(h->lat_deg * k)) / k;
	*height_m = h->height_m - ned.z;
}

double fsw_isa_pressure_pa(double alt_m)
{
	return FSW_P0_PA * pow(1 - 2.25577e-5 * alt_m, 5.25588);
}

double fsw_isa_alt_m(double pressure_pa)
{
	return (1 - pow(pressure_pa / FSW_P0_PA, 1 / 5.25588)) / 2.25577e-5;
}
