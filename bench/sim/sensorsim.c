/*
 * sensorsim.c - the simulated data-acquisition processor and aircraft, in
 * real time, for flightapp to fly: the Aerosonde model at 1 kHz (RK4), its
 * sensors, a pseudo-terminal UART carrying IMU frames and UBX NAV-PVT at the
 * configured baud rate, and an SPI emulation on a UNIX seqpacket socket
 * (one datagram per full-duplex transfer: actuators in, slow sensors out).
 * The actuator commands are applied to the aircraft: the loop is closed.
 *
 * On exit (duration over, SIGINT or SIGTERM) it writes the JSON summary,
 * closes the truth log and removes the pty link and the socket.
 *
 * usage: sensorsim [options]   (--help lists them with their defaults)
 */
#define _GNU_SOURCE
#include "command.h"
#include "common.h"
#include "outfile.h"
#include "sim_harness.h"
#include "sim_truthlog.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <unistd.h>

static volatile sig_atomic_t sensorsim_stop;

static void sensorsim_on_signal(int sig)
{
	(void)sig;
	sensorsim_stop = 1;
}

struct sensorsim_opts {
	const char *scenario, *pty_link, *spi_path, *truth_log, *summary;
	double duration_s, truth_rate_hz;
	long long seed;
	int rt_priority, baud;
	bool quiet, check;
};

struct sensorsim {
	struct sim_scenario scen;
	struct sim_daq daq;
	struct sim_truthlog log;
	int pty_master, pty_slave, spi_listen, spi_client;
	char pty_name[128];
	bool link_made, sock_made;
	/* timing */
	uint64_t ticks, late_ticks, spi_transfers, uart_write_short;
	int64_t  max_late_ns, spi_service_max_ns, spi_service_sum_ns;
	/*
	 * the app's flight: from its first valid actuator frame to its SPI link's end (issue 32.15:
	 * the simulator runs before and after the app; what it counts then is not the app's)
	 */
	enum { SENSORSIM_APP_BEFORE, SENSORSIM_APP_FLYING, SENSORSIM_APP_AFTER } app;
	double   app_start_s, app_end_s;
	uint64_t gps_seen, gps_app[3];	/* fixes made before, while and after the app flew */
	uint64_t imu_seen, imu_app[3];	/* IMU frames sent before, while and after the app flew */
	/* truth metrics, while the app flew (and after metrics_start_s) */
	uint64_t n;
	double   track_ss, alt_ss, track_max, alt_max, track_max_t_s;
	double   track_max_after;	/* the drift once the app stopped, apart */
	uint64_t failsafe_ms;
};

static const char sensorsim_usage[] =
	"usage: sensorsim [options]\n"
	"\n"
	"The simulated aircraft and data-acquisition processor for flightapp, in real time.\n"
	"\n"
	"  -s, --scenario FILE       scenario INI ([sim], [faults], [fsw]; docs/sim.md) (default: built-in)\n"
	"  -d, --duration SECONDS    run this long (default: the scenario's duration_s, 330)\n"
	"      --pty-link PATH       symlink to the UART pseudo-terminal (default: /tmp/sensorsim-uart)\n"
	"      --spi-socket PATH     SPI seqpacket socket to listen on (default: /tmp/sensorsim-spi)\n"
	"  -b, --baud N              UART line rate, 8N1 (default: the scenario's uart_baud, 115200)\n"
	"      --seed N              random seed of every noise source (default: the scenario's, 1)\n"
	"      --truth-log FILE      truth log CSV (default: none)\n"
	"      --truth-rate HZ       truth log rows per second (default: 10)\n"
	"      --summary-json FILE   JSON summary on exit (default: none; '-' = stdout)\n"
	"      --rt-priority N       run SCHED_FIFO at priority N (default: 0 = SCHED_OTHER)\n"
	"  -q, --quiet               no progress line on stderr (default: one every 5 s)\n"
	"      --check               check the options and the scenario, then exit (nothing\n"
	"                            is opened or started; default: run)\n"
	"  -h, --help                this text\n"
	"\n"
	"Exit: 0 ok, 2 bad option or scenario, 3 environment (pty, socket, priority), 4 internal.\n";

static int sensorsim_parse(int argc, char **argv, struct sensorsim_opts *o)
{
	static const struct option lo[] = {
		{ "scenario", required_argument, NULL, 's' }, { "duration", required_argument, NULL, 'd' },
		{ "pty-link", required_argument, NULL, 'P' }, { "spi-socket", required_argument, NULL, 'S' },
		{ "baud", required_argument, NULL, 'b' }, { "truth-log", required_argument, NULL, 'T' },
		{ "truth-rate", required_argument, NULL, 'R' }, { "summary-json", required_argument, NULL, 'J' },
		{ "rt-priority", required_argument, NULL, 'r' }, { "quiet", no_argument, NULL, 'q' },
		{ "seed", required_argument, NULL, 'E' }, { "check", no_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	char why[256];
	int64_t ns;
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	opterr = 0;	/* one line for a bad option: ours */
	o->pty_link = "/tmp/sensorsim-uart";
	o->spi_path = "/tmp/sensorsim-spi";
	o->truth_rate_hz = 10;
	o->duration_s = -1;
	o->seed = -1;
	while ((c = getopt_long(argc, argv, "s:d:b:qh", lo, NULL)) != -1) {
		switch (c) {
		case 's': o->scenario = optarg; break;
		case 'd':
			if (pf_parse_duration_ns(optarg, PF_NS_PER_SEC, &ns) || ns <= 0)
				return pf_fail(PF_EXIT_USAGE, "--duration: '%s': expected a positive duration", optarg);
			o->duration_s = ns / 1e9;
			break;
		case 'P': o->pty_link = optarg; break;
		case 'S': o->spi_path = optarg; break;
		case 'b':
			if (pf_parse_long(optarg, 1200, 4000000, &v))
				return pf_fail(PF_EXIT_USAGE, "--baud: '%s': expected a baud rate", optarg);
			o->baud = (int)v;
			break;
		case 'T': o->truth_log = optarg; break;
		case 'R':
			if (pf_parse_long(optarg, 1, 1000, &v))
				return pf_fail(PF_EXIT_USAGE, "--truth-rate: '%s': expected 1-1000", optarg);
			o->truth_rate_hz = (double)v;
			break;
		case 'J': o->summary = optarg; break;
		case 'r':
			if (pf_parse_long(optarg, 0, 99, &v))
				return pf_fail(PF_EXIT_USAGE, "--rt-priority: '%s': expected 0-99", optarg);
			o->rt_priority = (int)v;
			break;
		case 'E':
			if (pf_parse_ll(optarg, 0, SIM_SEED_MAX, &o->seed))
				return pf_fail(PF_EXIT_USAGE, "--seed: '%s': expected a whole number 0-%lld", optarg, SIM_SEED_MAX);
			break;
		case 'q': o->quiet = true; break;
		case 'C': o->check = true; break;
		case 'h': fputs(sensorsim_usage, stdout); return PF_EXIT_OK;
		default:
			return pf_fail(PF_EXIT_USAGE, "%s (see 'sensorsim --help')",
				       pf_option_why(why, sizeof(why), argv, "s:d:b:qh"));
		}
	}
	if (optind < argc)
		return pf_fail(PF_EXIT_USAGE, "'%s': unexpected argument (see 'sensorsim --help')", argv[optind]);
	return -1;
}

/* sensorsim_open_pty - the UART: a pty whose slave side is raw at the line rate, linked at 'link' */
static int sensorsim_open_pty(struct sensorsim *s, const char *link, int baud)
{
	struct termios tio;
	unsigned int speed;
	const char *name;

	s->pty_master = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (s->pty_master < 0 || grantpt(s->pty_master) || unlockpt(s->pty_master) || !(name = ptsname(s->pty_master)))
		return pf_fail(PF_EXIT_ENV, "pty: /dev/ptmx: %s", strerror(errno));
	snprintf(s->pty_name, sizeof(s->pty_name), "%s", name);
	/* keep the slave open: raw mode before the first byte, and no hangup when the app closes */
	s->pty_slave = open(s->pty_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s->pty_slave < 0 || tcgetattr(s->pty_slave, &tio))
		return pf_fail(PF_EXIT_ENV, "pty: %s: %s", s->pty_name, strerror(errno));
	cfmakeraw(&tio);
	if (!fsw_baud_const(baud, &speed)) {
		cfsetispeed(&tio, speed);
		cfsetospeed(&tio, speed);
	}
	if (tcsetattr(s->pty_slave, TCSANOW, &tio))
		return pf_fail(PF_EXIT_ENV, "pty: %s: %s", s->pty_name, strerror(errno));
	unlink(link);
	if (symlink(s->pty_name, link))
		return pf_fail(PF_EXIT_ENV, "pty link: %s: %s", link, strerror(errno));
	s->link_made = true;
	return 0;
}

/* sensorsim_open_spi - the SPI emulation socket */
static int sensorsim_open_spi(struct sensorsim *s, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sa.sun_path))
		return pf_fail(PF_EXIT_USAGE, "--spi-socket: '%s': path too long", path);
	strcpy(sa.sun_path, path);
	s->spi_listen = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->spi_listen < 0)
		return pf_fail(PF_EXIT_ENV, "spi socket: %s", strerror(errno));
	unlink(path);
	if (bind(s->spi_listen, (struct sockaddr *)&sa, sizeof(sa)) || listen(s->spi_listen, 1))
		return pf_fail(PF_EXIT_ENV, "spi socket: %s: %s", path, strerror(errno));
	s->sock_made = true;
	return 0;
}

/* sensorsim_app_end - the app's SPI link ended: its flight is over */
static void sensorsim_app_end(struct sensorsim *s)
{
	if (s->app != SENSORSIM_APP_FLYING)
		return;
	s->app = SENSORSIM_APP_AFTER;
	s->app_end_s = s->daq.model.st.t_s;
}

/* sensorsim_spi - accept the app, serve every transfer waiting (each timed) */
static void sensorsim_spi(struct sensorsim *s)
{
	uint8_t rx[FSW_SPI_FRAME_MAX + 16], tx[FSW_SPI_FRAME_MAX];
	int i;

	if (s->spi_client < 0) {
		s->spi_client = accept4(s->spi_listen, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (s->spi_client < 0)
			return;
	}
	for (i = 0; i < 8; i++) {
		ssize_t r = recv(s->spi_client, rx, sizeof(rx), MSG_DONTWAIT);
		int64_t t0 = pf_now_ns(), dt;
		size_t n;

		if (r == 0 || (r < 0 && errno != EAGAIN && errno != EINTR)) {
			close(s->spi_client);	/* the app went away: wait for the next one */
			s->spi_client = -1;
			sensorsim_app_end(s);
			return;
		}
		if (r < 0)
			return;
		n = sim_daq_spi(&s->daq, rx, (size_t)r, tx);
		if (send(s->spi_client, tx, n, MSG_DONTWAIT | MSG_NOSIGNAL) < 0 && errno != EAGAIN) {
			close(s->spi_client);
			s->spi_client = -1;
			sensorsim_app_end(s);
			return;
		}
		if (s->app == SENSORSIM_APP_BEFORE && s->daq.spi_act_ok) {
			s->app = SENSORSIM_APP_FLYING;	/* its first valid actuator frame */
			s->app_start_s = s->daq.model.st.t_s;
		}
		dt = pf_now_ns() - t0;
		s->spi_transfers++;
		s->spi_service_sum_ns += dt;
		if (dt > s->spi_service_max_ns)
			s->spi_service_max_ns = dt;
	}
}

/*
 * sensorsim_wait - sleep until until_ns, answering SPI transfers as they
 * arrive: a real slave clocks its reply out during the transfer, so the
 * app's transfer time is the link's, not the phase of this 1 ms tick
 */
static void sensorsim_wait(struct sensorsim *s, int64_t until_ns)
{
	while (!sensorsim_stop) {
		struct pollfd pfd = { .fd = s->spi_client >= 0 ? s->spi_client : s->spi_listen, .events = POLLIN };
		int64_t left_ns = until_ns - pf_now_ns();
		struct timespec ts;

		if (left_ns <= 0)
			return;
		ts = pf_ns_to_ts(left_ns);
		if (ppoll(&pfd, 1, &ts, NULL) > 0)
			sensorsim_spi(s);
	}
}

/* sensorsim_alt_err_m - the truth's altitude off the circuit's */
static double sensorsim_alt_err_m(const struct sensorsim *s)
{
	return fabs(-s->daq.model.st.pos_m.z + s->scen.fsw.wp[0].z);
}

/* sensorsim_metrics - truth against the circuit, once per ms */
static void sensorsim_metrics(struct sensorsim *s)
{
	const struct sim_state *st = &s->daq.model.st;
	double tr = sim_harness_track_error_m(&s->scen.fsw, st->pos_m);
	double alt = sensorsim_alt_err_m(s);

	s->gps_app[s->app] += s->daq.gps_frames - s->gps_seen;
	s->gps_seen = s->daq.gps_frames;
	s->imu_app[s->app] += s->daq.imu_frames - s->imu_seen;
	s->imu_seen = s->daq.imu_frames;
	/* the app's frames in failsafe from its first: its start-up is the app's, no warm-up of the truth */
	if (s->app == SENSORSIM_APP_FLYING && s->daq.app_mode == FSW_MODE_FAILSAFE)
		s->failsafe_ms++;
	if (st->t_s < s->scen.metrics_start_s || s->app == SENSORSIM_APP_BEFORE)
		return;
	if (s->app == SENSORSIM_APP_AFTER) {
		/* the aircraft flies on with the app's last commands: its drift, apart */
		if (tr > s->track_max_after)
			s->track_max_after = tr;
		return;
	}
	s->n++;
	s->track_ss += tr * tr;
	s->alt_ss += alt * alt;
	if (tr > s->track_max) {
		s->track_max = tr;
		s->track_max_t_s = st->t_s;
	}
	if (alt > s->alt_max)
		s->alt_max = alt;
}

/* jset_i / jset_f - one member of the summary */
static void jset_i(json_t *o, const char *k, uint64_t v) { json_object_set_new(o, k, json_integer((json_int_t)v)); }
static void jset_f(json_t *o, const char *k, double v) { json_object_set_new(o, k, json_real(v)); }

static int sensorsim_summary(struct sensorsim *s, const char *path, double wall_s)
{
	const struct sim_daq *d = &s->daq;
	json_t *o = json_object();
	int rc;

	if (!o)
		return pf_fail(PF_EXIT_INTERNAL, "summary: out of memory");
	json_object_set_new(o, "schema", json_string("preflight-sensorsim/1"));
	jset_f(o, "sim_time_s", d->model.st.t_s);
	jset_f(o, "wall_time_s", wall_s);
	jset_i(o, "ticks", s->ticks);
	jset_i(o, "late_ticks", s->late_ticks);
	jset_f(o, "max_late_us", s->max_late_ns / 1e3);
	jset_i(o, "imu_frames", d->imu_frames);
	jset_i(o, "gps_fixes", d->gps_frames);
	jset_i(o, "gps_fixes_before_app", s->gps_app[SENSORSIM_APP_BEFORE]);
	jset_i(o, "gps_fixes_app", s->gps_app[SENSORSIM_APP_FLYING]);
	jset_i(o, "gps_fixes_after_app", s->gps_app[SENSORSIM_APP_AFTER]);
	jset_i(o, "imu_frames_before_app", s->imu_app[SENSORSIM_APP_BEFORE]);
	jset_i(o, "imu_frames_app", s->imu_app[SENSORSIM_APP_FLYING]);
	jset_i(o, "imu_frames_after_app", s->imu_app[SENSORSIM_APP_AFTER]);
	json_object_set_new(o, "app_start_s", s->app != SENSORSIM_APP_BEFORE ? json_real(s->app_start_s) : json_null());
	json_object_set_new(o, "app_end_s", s->app == SENSORSIM_APP_AFTER ? json_real(s->app_end_s) :
			    s->app == SENSORSIM_APP_FLYING ? json_real(d->model.st.t_s) : json_null());
	jset_i(o, "uart_bytes", d->uart_bytes);
	jset_i(o, "uart_dropped", d->uart_dropped + d->uart_overflow);
	jset_i(o, "uart_write_short", s->uart_write_short);
	jset_i(o, "spi_transfers", s->spi_transfers);
	jset_i(o, "spi_act_ok", d->spi_act_ok);
	jset_i(o, "spi_act_rejected", d->spi_act_rejected);
	jset_i(o, "spi_truncated", d->spi_truncated);
	jset_f(o, "spi_service_max_us", s->spi_service_max_ns / 1e3);
	jset_f(o, "spi_service_mean_us", s->spi_transfers ? s->spi_service_sum_ns / 1e3 / s->spi_transfers : 0.0);
	jset_f(o, "track_err_rms_m", s->n ? sqrt(s->track_ss / s->n) : 0.0);
	jset_f(o, "metrics_start_s", s->scen.metrics_start_s);
	jset_f(o, "track_err_max_m", s->track_max);
	json_object_set_new(o, "track_err_max_t_s", s->n ? json_real(s->track_max_t_s) : json_null());
	json_object_set_new(o, "track_err_after_app_max_m",
			    s->app == SENSORSIM_APP_AFTER ? json_real(s->track_max_after) : json_null());
	jset_f(o, "alt_err_rms_m", s->n ? sqrt(s->alt_ss / s->n) : 0.0);
	jset_f(o, "alt_err_max_m", s->alt_max);
	jset_f(o, "pos_err_rms_m", d->nav_n ? sqrt(d->nav_err_ss / d->nav_n) : -1.0);
	jset_f(o, "pos_err_max_m", d->nav_n ? d->nav_err_max_m : -1.0);
	json_object_set_new(o, "stalled", json_boolean(d->model.stalled));
	jset_f(o, "max_alpha_deg", d->model.max_alpha_rad * 180 / FSW_PI);
	jset_f(o, "min_airspeed_mps", d->model.min_airspeed_mps);
	jset_f(o, "failsafe_s", s->failsafe_ms / 1000.0);
	json_object_set_new(o, "pty", json_string(s->pty_name));
	rc = pf_outfile_json(path, o, JSON_INDENT(2));
	json_decref(o);
	return rc;
}

int main(int argc, char **argv)
{
	static struct sensorsim s;
	struct sensorsim_opts o;
	struct sigaction sa;
	char err[512];
	int64_t t0, next;
	double bytes_per_ms, budget = 0;
	uint64_t log_every;
	int rc, code = PF_EXIT_OK;

	pf_set_prog("sensorsim");
	rc = sensorsim_parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	s.pty_master = s.pty_slave = s.spi_listen = s.spi_client = -1;
	sim_scenario_default(&s.scen);
	if (o.scenario && sim_scenario_load(&s.scen, o.scenario, err, sizeof(err)))
		return pf_fail(PF_EXIT_USAGE, "scenario: %s", err);
	if (o.duration_s > 0)
		s.scen.duration_s = o.duration_s;
	if (o.baud)
		s.scen.uart_baud = o.baud;
	if (o.seed >= 0)
		s.scen.seed = (uint64_t)o.seed;
	if (sim_daq_init(&s.daq, s.scen.airspeed_mps, s.scen.alt_m, s.scen.heading_rad, &s.scen.wind, &s.scen.sens,
			 &s.scen.faults, s.scen.seed))
		return pf_fail(PF_EXIT_USAGE, "scenario: no trim or bad sensor parameters");
	s.daq.spi_frame_len = s.scen.fsw.spi_frame_len;	/* [links] spi_frame_len: both ends */
	if (o.check) {	/* options and scenario are good: nothing more is done */
		printf("sensorsim: check: %s, %.0f s, %d baud: ok\n", o.scenario ? o.scenario : "built-in scenario",
		       s.scen.duration_s, s.scen.uart_baud);
		return PF_EXIT_OK;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sensorsim_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	code = sensorsim_open_pty(&s, o.pty_link, s.scen.uart_baud);
	if (!code)
		code = sensorsim_open_spi(&s, o.spi_path);
	if (!code && o.truth_log && (rc = sim_truthlog_open(&s.log, o.truth_log, s.scen.seed, s.scen.fsw.wp, s.scen.fsw.n_wp)))
		code = pf_fail(PF_EXIT_ENV, "--truth-log: %s: %s", o.truth_log, strerror(-rc));
	if (!code && o.rt_priority) {
		struct sched_param sp = { .sched_priority = o.rt_priority };

		if (sched_setscheduler(0, SCHED_FIFO, &sp))
			code = pf_fail(PF_EXIT_ENV, "--rt-priority %d: %s", o.rt_priority, strerror(errno));
	}
	if (code)
		goto out;
	if (!o.quiet)
		fprintf(stderr, "sensorsim: uart %s -> %s at %d baud, spi %s, %.0f s\n", o.pty_link, s.pty_name,
			s.scen.uart_baud, o.spi_path, s.scen.duration_s);
	bytes_per_ms = s.scen.uart_baud / 10.0 / 1000.0;
	log_every = (uint64_t)(1000 / o.truth_rate_hz);
	t0 = next = pf_now_ns();
	while (!sensorsim_stop && s.daq.model.st.t_s < s.scen.duration_s - 1e-9) {
		uint8_t buf[512];
		size_t n;
		int64_t late;

		next += PF_NS_PER_MS;
		sensorsim_wait(&s, next);
		late = pf_now_ns() - next;
		if (late > PF_NS_PER_MS)
			s.late_ticks++;
		if (late > s.max_late_ns)
			s.max_late_ns = late;
		sim_daq_step(&s.daq);
		s.ticks++;
		/* the line carries baud/10 bytes per second; a short write means the app is not reading */
		budget += bytes_per_ms;
		if (budget > 64 * bytes_per_ms)
			budget = 64 * bytes_per_ms;
		n = sim_daq_uart_take(&s.daq, buf, budget < sizeof(buf) ? (size_t)budget : sizeof(buf));
		if (n) {
			ssize_t w = write(s.pty_master, buf, n);

			if (w < 0)
				w = 0;
			if (w < (ssize_t)n) {
				/* the pty is full (nobody reading yet): keep the rest, whole frames stay whole */
				s.uart_write_short++;
				sim_daq_uart_unget(&s.daq, buf + w, n - (size_t)w);
			}
			budget -= (double)w;
		}
		sensorsim_spi(&s);
		sensorsim_metrics(&s);
		if (s.log.f && s.ticks % log_every == 0)
			sim_truthlog_row(&s.log, &s.daq, sim_harness_track_error_m(&s.scen.fsw, s.daq.model.st.pos_m),
					 sensorsim_alt_err_m(&s));
		if (!o.quiet && s.ticks % 5000 == 0)
			fprintf(stderr, "sensorsim: t %.0f s, alt %.1f m, airspeed %.1f m/s, spi %llu, app mode %s\n",
				s.daq.model.st.t_s, -s.daq.model.st.pos_m.z, s.daq.model.st.airspeed_mps,
				(unsigned long long)s.spi_transfers, fsw_mode_name(s.daq.app_mode));
	}
	if (o.summary)
		code = sensorsim_summary(&s, o.summary, (pf_now_ns() - t0) / 1e9);
out:
	if (s.log.f && sim_truthlog_close(&s.log) && !code)
		code = pf_fail(PF_EXIT_ENV, "--truth-log: %s: write failed", o.truth_log);
	if (s.spi_client >= 0)
		close(s.spi_client);
	if (s.spi_listen >= 0)
		close(s.spi_listen);
	if (s.sock_made)
		unlink(o.spi_path);
	if (s.link_made)
		unlink(o.pty_link);
	if (s.pty_slave >= 0)
		close(s.pty_slave);
	if (s.pty_master >= 0)
		close(s.pty_master);
	return code;
}
