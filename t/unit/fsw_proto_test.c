/*
 * fsw_proto_test.c - unit tests of the flight software's wire formats
 * (app/fsw/fsw_proto.c): every decoder accepts what its encoder writes and
 * rejects each malformed case with its own reason; the UART stream parser
 * finds frames behind garbage, counts every rejected candidate, and never
 * crashes on random bytes. Test ids: proto-N.M.
 */
#include "app/fsw/fsw_proto.h"
#include "tap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct got {
	int imu, gps;
	struct fsw_imu_sample last_imu;
	struct fsw_gps_fix last_gps;
};

static void on_imu(void *ctx, const struct fsw_imu_sample *s) { struct got *g = ctx; g->imu++; g->last_imu = *s; }
static void on_gps(void *ctx, const struct fsw_gps_fix *f) { struct got *g = ctx; g->gps++; g->last_gps = *f; }

static struct fsw_imu_sample sample_imu(uint16_t seq)
{
	struct fsw_imu_sample s = { seq, 1234567u + seq * 10000u, { 0.01, -0.02, 0.3 }, { 0.5, -0.1, -9.7 }, 35.5 };
	return s;
}

static struct fsw_gps_fix sample_fix(void)
{
	struct fsw_gps_fix f;

	memset(&f, 0, sizeof(f));
	f.itow_ms = 345600123;
	f.fix_type = 3;
	f.flags = 1;
	f.num_sv = 12;
	f.lat_deg = 47.3977421;
	f.lon_deg = 8.5455941;
	f.height_m = 588.123;
	f.h_acc_m = 0.8;
	f.v_acc_m = 1.5;
	f.vel_ned_mps = fsw_v3(24.1, -3.2, 0.4);
	f.s_acc_mps = 0.1;
	return f;
}

/* feed - run bytes through a fresh parser */
static void feed(struct fsw_uart_parser *p, struct got *g, const uint8_t *b, size_t n)
{
	struct fsw_uart_sink sink = { on_imu, on_gps, g };

	fsw_uart_parser_init(p);
	memset(g, 0, sizeof(*g));
	fsw_uart_parser_feed(p, b, n, &sink);
}

/* reseal_ubx - recompute a UBX frame's checksum after editing it */
static void reseal_ubx(uint8_t *f, size_t payload_len)
{
	uint8_t a = 0, b = 0;
	size_t i;

	for (i = 2; i < 6 + payload_len; i++) {
		a += f[i];
		b += a;
	}
	f[6 + payload_len] = a;
	f[7 + payload_len] = b;
}

/* reseal_imu - recompute an IMU frame's CRC after editing it */
static void reseal_imu(uint8_t *f)
{
	uint16_t c = fsw_crc16(f + 2, 2 + FSW_IMU_PAYLOAD_LEN);

	f[4 + FSW_IMU_PAYLOAD_LEN] = c & 0xff;
	f[5 + FSW_IMU_PAYLOAD_LEN] = c >> 8;
}

static void reseal_spi(uint8_t *f)
{
	uint16_t c = fsw_crc16(f, FSW_SPI_FRAME_LEN - 2);

	f[FSW_SPI_FRAME_LEN - 2] = c & 0xff;
	f[FSW_SPI_FRAME_LEN - 1] = c >> 8;
}

static void test_crc_and_imu(void)
{
	static const uint8_t check[] = "123456789";
	struct fsw_imu_sample s = sample_imu(7), d;
	struct fsw_uart_parser p;
	struct got g;
	uint8_t f[64], bad[64];
	float nan = NAN;

	check_int(fsw_crc16(check, 9), ==, 0x29b1, "proto-1.1 CRC-16/CCITT-FALSE check value");
	check_int(fsw_imu_encode(f, &s), ==, FSW_IMU_FRAME_LEN, "proto-1.2 IMU frame is 38 bytes");
	check_int(fsw_imu_decode(f, FSW_IMU_FRAME_LEN, &d), ==, 0, "proto-1.3 IMU frame decodes");
	check(d.seq == 7 && d.t_us == s.t_us && fabs(d.gyro_radps.z - 0.3) < 1e-6 &&
	      fabs(d.accel_mps2.z + 9.7) < 1e-5 && fabs(d.temp_c - 35.5) < 1e-9, "proto-1.4 IMU fields round-trip");
	feed(&p, &g, f, FSW_IMU_FRAME_LEN);
	check(g.imu == 1 && p.imu_frames == 1 && p.resync_bytes == 0, "proto-1.5 parser delivers one IMU frame");

	memcpy(bad, f, sizeof(f));
	bad[2] = 0x7f;
	reseal_imu(bad);
	feed(&p, &g, bad, FSW_IMU_FRAME_LEN);
	check(g.imu == 0 && p.rej[FSW_REJ_IMU_TYPE] == 1, "proto-1.6 reject: unknown IMU frame type");

	memcpy(bad, f, sizeof(f));
	bad[3] = 31;
	feed(&p, &g, bad, FSW_IMU_FRAME_LEN);
	check(g.imu == 0 && p.rej[FSW_REJ_IMU_LEN] == 1, "proto-1.7 reject: IMU length field wrong");

	memcpy(bad, f, sizeof(f));
	bad[12] ^= 0x10;
	feed(&p, &g, bad, FSW_IMU_FRAME_LEN);
	check(g.imu == 0 && p.rej[FSW_REJ_IMU_CRC] == 1, "proto-1.8 reject: IMU CRC mismatch (one flipped bit)");
	check_int(fsw_imu_decode(bad, FSW_IMU_FRAME_LEN, &d), ==, -FSW_REJ_IMU_CRC, "proto-1.9 decoder says imu_crc");

	s.gyro_radps.y = 40.0;		/* beyond the 2000 deg/s range */
	fsw_imu_encode(bad, &s);
	feed(&p, &g, bad, FSW_IMU_FRAME_LEN);
	check(g.imu == 0 && p.rej[FSW_REJ_IMU_RANGE] == 1, "proto-1.10 reject: IMU rate out of range");
	s = sample_imu(8);
	fsw_imu_encode(bad, &s);
	memcpy(bad + 4 + 18, &nan, 4);	/* accel x = NaN, CRC recomputed */
	reseal_imu(bad);
	check_int(fsw_imu_decode(bad, FSW_IMU_FRAME_LEN, &d), ==, -FSW_REJ_IMU_RANGE, "proto-1.11 reject: NaN accel");
	{
		/* two bytes only, at the end of an allocation: the length is checked before any byte past them */
		uint8_t *tiny = malloc(2);

		tiny[0] = f[0];
		tiny[1] = f[1];
		check_int(fsw_imu_decode(tiny, 2, &d), ==, -FSW_REJ_IMU_LEN, "proto-1.11a a 2-byte buffer: imu_len, nothing read past it");
		free(tiny);
	}

	feed(&p, &g, f, FSW_IMU_FRAME_LEN - 5);
	check(g.imu == 0 && p.len == FSW_IMU_FRAME_LEN - 5 && p.rej[FSW_REJ_IMU_CRC] == 0,
	      "proto-1.12 a partial frame waits for the rest");
	{
		struct fsw_uart_sink sink = { on_imu, on_gps, &g };

		fsw_uart_parser_feed(&p, f + FSW_IMU_FRAME_LEN - 5, 5, &sink);
		check(g.imu == 1, "proto-1.13 ... and is delivered when it completes");
	}
}

static void test_ubx(void)
{
	struct fsw_gps_fix fx = sample_fix(), d;
	struct fsw_uart_parser p;
	struct got g;
	uint8_t f[FSW_UBX_NAV_PVT_FRAME_LEN + 16], bad[sizeof(f)];
	uint8_t other[16] = { 1, 2, 3, 4 };
	size_t n;

	n = fsw_ubx_encode_pvt(f, &fx);
	check_int(n, ==, 100, "proto-2.1 NAV-PVT frame is 100 bytes");
	check(f[0] == 0xb5 && f[1] == 0x62 && f[2] == 0x01 && f[3] == 0x07 && f[4] == 92 && f[5] == 0,
	      "proto-2.2 UBX header: sync, class 01, id 07, length 92");
	feed(&p, &g, f, n);
	d = g.last_gps;
	check(g.gps == 1 && d.itow_ms == fx.itow_ms && d.t_us == fx.itow_ms * 1000u && d.fix_type == 3 && d.num_sv == 12,
	      "proto-2.3 NAV-PVT decodes: time, fix type, satellites");
	check(fabs(d.lat_deg - fx.lat_deg) < 1e-7 && fabs(d.lon_deg - fx.lon_deg) < 1e-7 &&
	      fabs(d.height_m - fx.height_m) < 1e-3 && fabs(d.vel_ned_mps.y + 3.2) < 1e-3,
	      "proto-2.4 NAV-PVT position and velocity round-trip (1e-7 deg, mm, mm/s)");

	memcpy(bad, f, n);
	bad[4] = 0x10;
	bad[5] = 0x02;			/* length 528 */
	feed(&p, &g, bad, n);
	check(g.gps == 0 && p.rej[FSW_REJ_UBX_LEN] == 1, "proto-2.5 reject: UBX length beyond any accepted message");

	memcpy(bad, f, n);
	bad[40] ^= 0x01;
	feed(&p, &g, bad, n);
	check(g.gps == 0 && p.rej[FSW_REJ_UBX_CK] == 1, "proto-2.6 reject: UBX checksum mismatch");

	memcpy(bad, f, n);
	bad[4] = 91;			/* a NAV-PVT one byte short, correctly checksummed */
	reseal_ubx(bad, 91);
	feed(&p, &g, bad, 99);
	check(g.gps == 0 && p.rej[FSW_REJ_UBX_PVT_LEN] == 1, "proto-2.7 reject: NAV-PVT of the wrong length");

	fx.lat_deg = 95;		/* encodes, but no latitude is > 90 */
	n = fsw_ubx_encode_pvt(bad, &fx);
	feed(&p, &g, bad, n);
	check(g.gps == 0 && p.rej[FSW_REJ_UBX_RANGE] == 1, "proto-2.8 reject: NAV-PVT latitude out of range");
	check_int(fsw_ubx_decode_pvt(bad + 6, 92, &d), ==, -FSW_REJ_UBX_RANGE, "proto-2.9 decoder says ubx_range");

	n = fsw_ubx_frame(bad, 0x0a, 0x04, other, 4);	/* MON-VER-like: valid, not for us */
	feed(&p, &g, bad, n);
	check(g.gps == 0 && p.ubx_ignored == 1 && p.rej[FSW_REJ_UBX_CK] == 0,
	      "proto-2.10 other UBX messages are skipped and counted, not errors");
}

static void test_spi(void)
{
	struct fsw_spi_act a = { 9, 777, 0.1, -0.12, 0.02, 0.35, 1 }, ad;
	struct fsw_spi_sens s, sd;
	uint8_t f[FSW_SPI_FRAME_LEN], bad[FSW_SPI_FRAME_LEN];
	float big = 5.0f;

	memset(&s, 0, sizeof(s));
	s.seq = 4;
	s.t_us = 999;
	s.act_seq = 9;
	s.baro_pa = 94000;
	s.baro_temp_c = 12;
	s.diff_pa = 390;
	s.mag_gauss = fsw_v3(0.2, 0.01, 0.42);
	fsw_spi_encode_act(f, sizeof(f), &a);
	check(fsw_spi_decode_act(f, sizeof(f), FSW_SPI_FRAME_LEN, &ad) == 0 && ad.seq == 9 && fabs(ad.elevator_rad + 0.12) < 1e-6 &&
	      fabs(ad.throttle - 0.35) < 1e-6 && ad.mode == 1, "proto-3.1 actuator frame round-trips");
	fsw_spi_encode_sens(f, sizeof(f), &s);
	check(fsw_spi_decode_sens(f, sizeof(f), FSW_SPI_FRAME_LEN, &sd) == 0 && sd.seq == 4 && sd.act_seq == 9 &&
	      fabs(sd.baro_pa - 94000) < 0.01 && fabs(sd.mag_gauss.z - 0.42) < 1e-6, "proto-3.2 sensor frame round-trips");
	check_int(fsw_spi_decode_sens(f, 300, FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_SHORT, "proto-3.3 reject: truncated SPI frame (300 of 500 bytes)");
	check_int(fsw_spi_decode_sens(f, 0, FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_SHORT, "proto-3.4 reject: empty SPI transfer");
	memcpy(bad, f, sizeof(f));
	bad[0] = 'X';
	reseal_spi(bad);
	check_int(fsw_spi_decode_sens(bad, sizeof(bad), FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_MAGIC, "proto-3.5 reject: SPI magic");
	memcpy(bad, f, sizeof(f));
	bad[2] = 2;
	reseal_spi(bad);
	check_int(fsw_spi_decode_sens(bad, sizeof(bad), FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_VERSION, "proto-3.6 reject: SPI protocol version");
	check_int(fsw_spi_decode_act(f, sizeof(f), FSW_SPI_FRAME_LEN, &ad), ==, -FSW_REJ_SPI_TYPE, "proto-3.7 reject: sensor frame where actuators are expected");
	memcpy(bad, f, sizeof(f));
	bad[250] ^= 0x80;		/* even the padding is covered */
	check_int(fsw_spi_decode_sens(bad, sizeof(bad), FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_CRC, "proto-3.8 reject: SPI CRC (bit flipped in the padding)");
	memcpy(bad, f, sizeof(f));
	memcpy(bad + 24, &big, 4);	/* 5 gauss: no such field */
	reseal_spi(bad);
	check_int(fsw_spi_decode_sens(bad, sizeof(bad), FSW_SPI_FRAME_LEN, &sd), ==, -FSW_REJ_SPI_RANGE, "proto-3.9 reject: sensor value out of range");
	a.throttle = 1.5;
	fsw_spi_encode_act(bad, sizeof(bad), &a);
	check_int(fsw_spi_decode_act(bad, sizeof(bad), FSW_SPI_FRAME_LEN, &ad), ==, -FSW_REJ_SPI_RANGE, "proto-3.10 reject: throttle out of range");
	a.throttle = 0.5;
	fsw_spi_encode_act(bad, 64, &a);
	check(fsw_spi_decode_act(bad, 64, 64, &ad) == 0 && fabs(ad.throttle - 0.5) < 1e-6 &&
	      fsw_spi_decode_act(bad, 64, FSW_SPI_FRAME_LEN, &ad) == -FSW_REJ_SPI_SHORT,
	      "proto-3.11 a configured 64-byte frame round-trips; against 500 it is short");
}

static void test_stream(void)
{
	static uint8_t buf[200000];
	struct fsw_imu_sample s;
	struct fsw_gps_fix fx = sample_fix();
	struct fsw_uart_parser p;
	struct fsw_uart_sink sink;
	struct got g;
	size_t n = 0, i;
	unsigned int seed = 12345;
	int frames = 0, fixes = 0;

	/* frames separated by random garbage that never contains a sync byte pair */
	for (i = 0; i < 200; i++) {
		size_t k, glen = rand_r(&seed) % 40;

		for (k = 0; k < glen; k++) {
			uint8_t b = (uint8_t)rand_r(&seed);

			buf[n++] = (b == 0xa5 || b == 0xb5) ? 0x00 : b;
		}
		s = sample_imu((uint16_t)i);
		n += fsw_imu_encode(buf + n, &s);
		frames++;
		if (i % 10 == 0) {
			n += fsw_ubx_encode_pvt(buf + n, &fx);
			fixes++;
		}
	}
	feed(&p, &g, buf, n);
	check(g.imu == frames && g.gps == fixes && p.resync_bytes > 0,
	      "proto-4.1 every frame found behind garbage (%d IMU, %d GPS, %llu bytes skipped)", g.imu, g.gps,
	      (unsigned long long)p.resync_bytes);
	/* the same bytes in odd-sized chunks give the same result */
	fsw_uart_parser_init(&p);
	memset(&g, 0, sizeof(g));
	sink = (struct fsw_uart_sink){ on_imu, on_gps, &g };
	for (i = 0; i < n; ) {
		size_t c = 1 + rand_r(&seed) % 97;

		if (c > n - i)
			c = n - i;
		fsw_uart_parser_feed(&p, buf + i, c, &sink);
		i += c;
	}
	check(g.imu == frames && g.gps == fixes, "proto-4.2 chunking does not matter");
	/* a frame whose sync bytes hide inside garbage that looks like a frame start */
	n = 0;
	buf[n++] = 0xa5;
	buf[n++] = 0x5a;
	buf[n++] = 0x01;
	buf[n++] = 32;			/* a false header: the CRC will fail ... */
	s = sample_imu(1);
	n += fsw_imu_encode(buf + n, &s);	/* ... and the real frame starts inside its "payload" */
	feed(&p, &g, buf, n);
	check(g.imu == 1 && p.rej[FSW_REJ_IMU_CRC] == 1, "proto-4.3 resynchronises into a frame that starts inside a rejected one");
	/* random bytes: never a crash, every candidate counted, no frame invented */
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)rand_r(&seed);
	for (i = 0; i < sizeof(buf); i += 4096) {	/* sprinkle sync pairs to exercise every path */
		buf[i] = 0xa5;
		buf[i + 1] = 0x5a;
		buf[i + 100] = 0xb5;
		buf[i + 101] = 0x62;
	}
	feed(&p, &g, buf, sizeof(buf));
	{
		uint64_t rej = 0;

		for (i = 1; i < FSW_REJ_COUNT; i++)
			rej += p.rej[i];
		check(g.imu == 0 && g.gps == 0 && rej >= 2 * (sizeof(buf) / 4096) && p.resync_bytes > sizeof(buf) / 2,
		      "proto-4.4 200 kB of random bytes: no frame accepted, %llu candidates rejected",
		      (unsigned long long)rej);
	}
	check(strcmp(fsw_rej_name(FSW_REJ_SPI_SHORT), "spi_short") == 0 && strcmp(fsw_rej_name(FSW_REJ_IMU_CRC), "imu_crc") == 0,
	      "proto-4.5 rejection reasons have stable names");
}

static void test_geo(void)
{
	struct fsw_geo_home h;
	double lat, lon, hm;
	fsw_vec3 p;

	fsw_geo_home_init(&h, 47.397742, 8.545594, 488);
	fsw_ned_to_geo(&h, fsw_v3(800, 500, -100), &lat, &lon, &hm);
	p = fsw_geo_to_ned(&h, lat, lon, hm);
	check(fabs(p.x - 800) < 1e-6 && fabs(p.y - 500) < 1e-6 && fabs(p.z + 100) < 1e-9, "proto-5.1 NED <-> geodetic round trip");
	check(fabs((lat - 47.397742) * 111200 - 800) < 10, "proto-5.2 800 m north is ~0.0072 deg of latitude");
	check(fabs(fsw_isa_alt_m(fsw_isa_pressure_pa(588)) - 588) < 1e-6, "proto-5.3 ISA pressure <-> altitude");
}

int main(void)
{
	tap_plan(43);
	test_crc_and_imu();
	test_ubx();
	test_spi();
	test_stream();
	test_geo();
	return tap_done();
}
