/*
 * sim_daq.h - the simulated data-acquisition processor: the aircraft model,
 * its sensors and the two links' far ends, with fault injection.
 *
 *   UART  IMU frames and UBX NAV-PVT fixes are encoded into a transmit
 *         queue; the caller drains it at the line's baud rate
 *         (sim_daq_uart_take), which is where faults hit: a silent window
 *         drops everything, garbage bytes are inserted, bits are flipped.
 *   SPI   sim_daq_spi() is one full-duplex transfer: the actuator frame
 *         that came in is checked and applied to the aircraft, the slow
 *         sensors go out (truncated every Nth time if configured).
 *
 * sensorsim drives it in real time; the harness (sim_harness.h) drives it
 * in simulation time. Same code, same seed, same bytes.
 */
#ifndef SIM_DAQ_H
#define SIM_DAQ_H

#include "sim_model.h"
#include "sim_sensors.h"

struct sim_faults {
	double   uart_silent_start_s, uart_silent_len_s;	/* nothing on the UART in this window */
	double   garbage_burst_prob;	/* before each UART byte: probability of a burst of 1-16 random bytes */
	double   corrupt_per_byte;	/* probability of one flipped bit per UART byte */
	uint32_t spi_truncate_every;	/* every Nth SPI answer is cut short (0 = never) */
	uint32_t spi_truncate_len;	/* to this many bytes */
};

#define SIM_TRUTH_RING 8192

struct sim_daq {
	struct sim_model model;
	struct sim_sensors sens;
	struct sim_faults faults;
	struct sim_rng rng_fault;
	uint8_t  uart_q[16384];
	size_t   uart_len;
	/* truth at each IMU sample, for error metrics */
	struct { uint32_t t_us; struct sim_state st; } truth[SIM_TRUTH_RING];
	uint64_t truth_n;
	/* counters */
	uint64_t imu_frames, gps_frames, uart_bytes, uart_dropped, garbage_bytes, corrupted_bytes, uart_overflow;
	uint64_t spi_transfers, spi_act_ok, spi_act_rejected, spi_truncated;
	size_t   spi_frame_len;		/* bytes per SPI transfer, both ways */
	uint16_t last_act_seq;
	uint8_t  app_mode;
	/* the app's navigation telemetry against the truth */
	uint64_t nav_n;
	double   nav_err_ss, nav_err_max_m;
	fsw_vec3 nav_pos_m;		/* the app's latest position estimate (NED), valid once nav_n > 0 */
	double   nav_err_m;		/* its distance from the truth at its own time stamp */
	double   nav_rx_t_s;		/* simulated time it arrived */
};

/* sim_daq_init - trimmed aircraft and sensors; 0 or -errno */
int sim_daq_init(struct sim_daq *d, double airspeed_mps, double alt_m, double yaw_rad, const struct sim_wind *wind,
		 const struct sim_sensor_params *sp, const struct sim_faults *faults, uint64_t seed)
	__attribute__((warn_unused_result));
/* sim_daq_step - advance one model step (1 ms), encode sensor output */
void sim_daq_step(struct sim_daq *d);
/* sim_daq_uart_take - up to max bytes of the UART line, faults applied; bytes written */
size_t sim_daq_uart_take(struct sim_daq *d, uint8_t *out, size_t max);
/* sim_daq_uart_unget - give back bytes a full pty would not take (they go out first next time) */
void sim_daq_uart_unget(struct sim_daq *d, const uint8_t *p, size_t n);
/* sim_daq_spi - one transfer: rx from the app (n bytes), answer written to tx; answer length */
size_t sim_daq_spi(struct sim_daq *d, const uint8_t *rx, size_t n, uint8_t *tx);
/* sim_daq_truth - truth state at an IMU time stamp; NULL if not kept */
const struct sim_state *sim_daq_truth(const struct sim_daq *d, uint32_t t_us);

#endif
