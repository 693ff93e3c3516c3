/*
 * fsw_proto.h - the wire formats between the data-acquisition processor
 * (sensorsim, or real hardware) and the flight software, with their encoders
 * (used by the simulator and the tests) and their strict decoders (used by
 * the app's io task). docs/fsw.md describes every byte.
 *
 * UART (one byte stream, two framings interleaved):
 *   IMU frame   A5 5A | type 01 | len 32 | payload (32) | CRC-16/CCITT-FALSE (LE)
 *               over type..payload; 38 bytes
 *   GPS         u-blox UBX: B5 62 | class | id | len (LE16) | payload | CK_A CK_B
 *               (8-bit Fletcher over class..payload); NAV-PVT (01 07, 92 bytes)
 *               is decoded, other messages are skipped and counted
 * SPI (full-duplex, frames of a configured length, 500 bytes by default, each way):
 *   'P' 'F' | version 1 | type (10 actuators app->DAQ, 20 sensors DAQ->app) |
 *   seq (LE16) | body | zero padding | CRC-16/CCITT-FALSE (LE) over bytes 0..497
 *
 * Times on the wire are GPS time of week: IMU and SPI frames carry it in
 * microseconds modulo 2^32 (t_us), NAV-PVT in milliseconds (iTOW), so the
 * app can place a fix exactly on the IMU's time line (the DAQ is
 * PPS-disciplined). Compare t_us values with fsw_us_diff().
 *
 * Every decoder returns 0 or a negative enum fsw_rej reason; the UART stream
 * parser resynchronises after garbage and counts each reason.
 */
#ifndef FSW_PROTO_H
#define FSW_PROTO_H

#include "fsw_math.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define FSW_IMU_SYNC1 0xA5
#define FSW_IMU_SYNC2 0x5A
#define FSW_IMU_TYPE 0x01
#define FSW_IMU_PAYLOAD_LEN 32
#define FSW_IMU_FRAME_LEN (4 + FSW_IMU_PAYLOAD_LEN + 2)
#define FSW_UBX_SYNC1 0xB5
#define FSW_UBX_SYNC2 0x62
#define FSW_UBX_MAX_PAYLOAD 256
#define FSW_UBX_NAV_PVT_LEN 92
#define FSW_UBX_NAV_PVT_FRAME_LEN (6 + FSW_UBX_NAV_PVT_LEN + 2)
#define FSW_SPI_FRAME_LEN 500		/* default frame length */
#define FSW_SPI_FRAME_MIN 64
#define FSW_SPI_FRAME_MAX 4096
#define FSW_SPI_VERSION 1
#define FSW_SPI_TYPE_ACT 0x10
#define FSW_SPI_TYPE_SENS 0x20

/* Reasons a frame is rejected (each has a counter and a test). */
enum fsw_rej {
	FSW_REJ_NONE = 0,
	FSW_REJ_IMU_TYPE,	/* IMU sync with an unknown frame type */
	FSW_REJ_IMU_LEN,	/* IMU frame length field wrong for its type */
	FSW_REJ_IMU_CRC,	/* IMU CRC mismatch */
	FSW_REJ_IMU_RANGE,	/* IMU values not finite or physically impossible */
	FSW_REJ_UBX_LEN,	/* UBX length beyond what any message we accept can have */
	FSW_REJ_UBX_CK,		/* UBX Fletcher checksum mismatch */
	FSW_REJ_UBX_PVT_LEN,	/* NAV-PVT with a payload length other than 92 */
	FSW_REJ_UBX_RANGE,	/* NAV-PVT values out of range (latitude, height, speed) */
	FSW_REJ_SPI_SHORT,	/* SPI transfer not of the frame length (truncated) */
	FSW_REJ_SPI_MAGIC,	/* SPI frame without the 'PF' magic */
	FSW_REJ_SPI_VERSION,	/* SPI frame of another protocol version */
	FSW_REJ_SPI_TYPE,	/* SPI frame of the wrong type for the direction */
	FSW_REJ_SPI_CRC,	/* SPI CRC mismatch */
	FSW_REJ_SPI_RANGE,	/* SPI values not finite or out of range */
	FSW_REJ_COUNT
};

/* fsw_rej_name - short name of a rejection reason ("imu_crc") */
const char *fsw_rej_name(enum fsw_rej r);

/* One IMU sample: averages over the sample interval ending at t_us. */
struct fsw_imu_sample {
	uint16_t seq;		/* frame sequence number (wraps) */
	uint32_t t_us;		/* GPS time of week, us mod 2^32, end of the interval */
	fsw_vec3 gyro_radps;	/* body rate, FRD */
	fsw_vec3 accel_mps2;	/* specific force, FRD */
	double   temp_c;	/* sensor temperature */
};

/* One GPS fix (UBX NAV-PVT). */
struct fsw_gps_fix {
	uint32_t itow_ms;	/* GPS time of week of the fix epoch */
	uint32_t t_us;		/* the same, us mod 2^32 (IMU time line) */
	uint8_t  fix_type;	/* 0 none, 2 2D, 3 3D */
	uint8_t  flags;		/* bit 0 gnssFixOK */
	uint8_t  num_sv;
	double   lat_deg, lon_deg;	/* WGS84 */
	double   height_m;	/* above the ellipsoid */
	double   h_acc_m, v_acc_m;	/* receiver's accuracy estimates */
	fsw_vec3 vel_ned_mps;
	double   s_acc_mps;	/* speed accuracy estimate */
};

/* Actuator commands (SPI app -> DAQ). */
struct fsw_spi_act {
	uint16_t seq;
	uint32_t t_us;		/* IMU time the command was computed for */
	double   aileron_rad, elevator_rad, rudder_rad;	/* + : right wing down / nose down / nose left (Beard & McLain) */
	double   throttle;	/* 0..1 */
	uint8_t  mode;		/* the app's flight mode (enum fsw_mode) */
	/* telemetry for the bench: the navigation solution and its IMU time */
	uint32_t nav_t_us;
	fsw_vec3 nav_pos_m;	/* NED from home */
};

/* Slow sensors (SPI DAQ -> app). */
struct fsw_spi_sens {
	uint16_t seq;
	uint32_t t_us;		/* sample time */
	uint16_t act_seq;	/* last actuator frame the DAQ applied */
	double   baro_pa;	/* static pressure */
	double   baro_temp_c;
	double   diff_pa;	/* pitot differential pressure */
	fsw_vec3 mag_gauss;	/* body magnetic field, FRD */
};

/* fsw_us_diff - a - b for wrapping microsecond stamps */
static inline int32_t fsw_us_diff(uint32_t a, uint32_t b) { return (int32_t)(a - b); }

/* Little-endian field access of the wire formats (floats as IEEE-754 binary32). */
static inline void fsw_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void fsw_put32(uint8_t *p, uint32_t v) { fsw_put16(p, (uint16_t)v); fsw_put16(p + 2, (uint16_t)(v >> 16)); }
static inline void fsw_put64(uint8_t *p, uint64_t v) { fsw_put32(p, (uint32_t)v); fsw_put32(p + 4, (uint32_t)(v >> 32)); }
static inline void fsw_putf(uint8_t *p, double v) { float f = (float)v; uint32_t u; memcpy(&u, &f, 4); fsw_put32(p, u); }
static inline uint16_t fsw_get16(const uint8_t *p) { return (uint16_t)(p[0] | (uint16_t)p[1] << 8); }
static inline uint32_t fsw_get32(const uint8_t *p) { return fsw_get16(p) | (uint32_t)fsw_get16(p + 2) << 16; }
static inline uint64_t fsw_get64(const uint8_t *p) { return fsw_get32(p) | (uint64_t)fsw_get32(p + 4) << 32; }
static inline double fsw_getf(const uint8_t *p) { uint32_t u = fsw_get32(p); float f; memcpy(&f, &u, 4); return f; }
static inline void fsw_putv(uint8_t *p, fsw_vec3 v) { fsw_putf(p, v.x); fsw_putf(p + 4, v.y); fsw_putf(p + 8, v.z); }
static inline fsw_vec3 fsw_getv(const uint8_t *p) { return fsw_v3(fsw_getf(p), fsw_getf(p + 4), fsw_getf(p + 8)); }

/* fsw_crc16 - CRC-16/CCITT-FALSE (poly 0x1021, init 0xffff) */
uint16_t fsw_crc16(const uint8_t *p, size_t n);

size_t fsw_imu_encode(uint8_t *out, const struct fsw_imu_sample *s);
size_t fsw_ubx_encode_pvt(uint8_t *out, const struct fsw_gps_fix *f);
/* fsw_ubx_frame - wrap any UBX payload (class, id); returns bytes written */
size_t fsw_ubx_frame(uint8_t *out, uint8_t cls, uint8_t id, const uint8_t *payload, size_t len);
/* SPI frames of frame_len bytes (FSW_SPI_FRAME_MIN..FSW_SPI_FRAME_MAX): CRC in the last two */
void fsw_spi_encode_act(uint8_t *out, size_t frame_len, const struct fsw_spi_act *a);
void fsw_spi_encode_sens(uint8_t *out, size_t frame_len, const struct fsw_spi_sens *s);

/* Decoders of a whole frame: 0 or -reason. */
int fsw_imu_decode(const uint8_t *frame, size_t len, struct fsw_imu_sample *s);
int fsw_ubx_decode_pvt(const uint8_t *payload, size_t len, struct fsw_gps_fix *f);
int fsw_spi_decode_act(const uint8_t *buf, size_t len, size_t frame_len, struct fsw_spi_act *a);
int fsw_spi_decode_sens(const uint8_t *buf, size_t len, size_t frame_len, struct fsw_spi_sens *s);

/* Where the stream parser delivers what it decodes. */
struct fsw_uart_sink {
	void (*imu)(void *ctx, const struct fsw_imu_sample *s);
	void (*gps)(void *ctx, const struct fsw_gps_fix *f);
	void *ctx;
};

/* The UART stream parser: resynchronising, counting, allocation-free. */
struct fsw_uart_parser {
	uint8_t  buf[512];
	size_t   len;
	uint64_t bytes;			/* bytes fed */
	uint64_t resync_bytes;		/* bytes skipped while hunting a sync */
	uint64_t imu_frames, gps_frames;	/* accepted */
	uint64_t ubx_ignored;		/* valid UBX messages of other classes / ids */
	uint64_t rej[FSW_REJ_COUNT];	/* rejected candidates by reason */
};

void fsw_uart_parser_init(struct fsw_uart_parser *p);
/* fsw_uart_parser_feed - consume bytes, deliver every valid frame to sink */
void fsw_uart_parser_feed(struct fsw_uart_parser *p, const uint8_t *data, size_t n,
			  const struct fsw_uart_sink *sink);

/*
 * Local level frame: NED metres from a home point, flat earth on the WGS84
 * ellipsoid's radii of curvature at home (good to centimetres over the few
 * kilometres of a circuit).
 */
struct fsw_geo_home {
	double lat_deg, lon_deg, height_m;
	double rn_m, re_m;		/* meridian and prime-vertical radii at home */
};

void fsw_geo_home_init(struct fsw_geo_home *h, double lat_deg, double lon_deg, double height_m);
fsw_vec3 fsw_geo_to_ned(const struct fsw_geo_home *h, double lat_deg, double lon_deg, double height_m);
void fsw_ned_to_geo(const struct fsw_geo_home *h, fsw_vec3 ned, double *lat_deg, double *lon_deg, double *height_m);

/* ISA helpers shared by the DAQ model and the app */
#define FSW_P0_PA 101325.0
#define FSW_RHO0_KGPM3 1.225
double fsw_isa_pressure_pa(double alt_m);
double fsw_isa_alt_m(double pressure_pa);

#endif
