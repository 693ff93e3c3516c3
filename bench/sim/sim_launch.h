/*
 * sim_launch.h - starting sensorsim for a flight app: its command line, its
 * start and the wait for its links (the UART pty and the SPI socket the app
 * opens at its set-up), and the app's [links] section that points at them.
 * One launcher for 'preflight run' (a phase with flightapp.sim = yes) and
 * 'preflight fly --realtime'.
 */
#ifndef SIM_LAUNCH_H
#define SIM_LAUNCH_H

#include "proc.h"

#include <stdio.h>

/* how sensorsim is started; NULL / 0 members are left out of its command line */
struct sim_launch {
	const char *exe;		/* sensorsim's path */
	const char *duration;		/* --duration (its own end: a fail-safe, the caller stops it) */
	const char *uart;		/* --pty-link: the UART pty's symlink */
	const char *spi;		/* --spi-socket: the SPI seqpacket socket */
	const char *summary;		/* --summary-json: sim.json */
	const char *truth;		/* --truth-log: truth.csv */
	const char *scenario;		/* --scenario INI */
	const char *seed;		/* --seed */
	int rt_priority;		/* --rt-priority (SCHED_FIFO), 0: none */
	const char *args;		/* more arguments, blank-separated (a scenario's sim_args) */
	const char *out, *err;		/* its stdout and stderr files (pf_proc_spawn's) */
	int flags;			/* pf_proc_spawn's flags */
};

/* sim_launch_spawn - start sensorsim; 0, or -1 with 'why' saying why it could not start (p->pid 0) */
int sim_launch_spawn(const struct sim_launch *l, struct pf_proc *p, char *why, size_t size);

/*
 * sim_launch_await - wait (PF_PROC_AWAIT_NS) until both its links exist: the app opens them
 * at its set-up. 0; or -1 with 'why' saying which is missing and sensorsim's state (it still
 * runs unless it ended, pf_proc_alive says: the caller stops it)
 */
int sim_launch_await(const struct sim_launch *l, struct pf_proc *p, char *why, size_t size);

/*
 * sim_launch_links_ini - the app's [links] section to sensorsim's UART pty and SPI
 * socket; uart_baud and spi_frame_len are left out when 0 (the app's defaults)
 */
void sim_launch_links_ini(FILE *f, const char *uart, const char *spi, int uart_baud, unsigned spi_frame_len);

#endif
