/*
 * sim_launch.c - sensorsim's start for a flight app and the app's [links]
 * section (see sim_launch.h)
 */
#include "sim_launch.h"
#include "common.h"

#include <errno.h>
#include <string.h>

#define SIM_LAUNCH_ARGS 48	/* argv's size: the options above and a scenario's sim_args */

/* sim_arg - append one argument (and the next one, when 'value' is given) to a NULL-terminated argv */
static int sim_arg(char **argv, int n, const char *arg, const char *value)
{
	if (n < SIM_LAUNCH_ARGS - 1)
		argv[n++] = (char *)arg;
	if (value && n < SIM_LAUNCH_ARGS - 1)
		argv[n++] = (char *)value;
	argv[n] = NULL;
	return n;
}

/* sim_opt - an option with its value, left out when the value is NULL */
static int sim_opt(char **argv, int n, const char *opt, const char *value)
{
	return value ? sim_arg(argv, n, opt, value) : n;
}

int sim_launch_spawn(const struct sim_launch *l, struct pf_proc *p, char *why, size_t size)
{
	char *argv[SIM_LAUNCH_ARGS], words[512], prio[16], *save = NULL, *w;
	int n = 0, ret;

	memset(p, 0, sizeof(*p));
	n = sim_arg(argv, n, l->exe, NULL);
	n = sim_arg(argv, n, "--quiet", NULL);
	n = sim_opt(argv, n, "--scenario", l->scenario);
	n = sim_opt(argv, n, "--duration", l->duration);
	n = sim_opt(argv, n, "--summary-json", l->summary);
	n = sim_opt(argv, n, "--truth-log", l->truth);
	n = sim_opt(argv, n, "--pty-link", l->uart);
	n = sim_opt(argv, n, "--spi-socket", l->spi);
	n = sim_opt(argv, n, "--seed", l->seed);
	if (l->rt_priority > 0) {
		snprintf(prio, sizeof(prio), "%d", l->rt_priority);
		n = sim_arg(argv, n, "--rt-priority", prio);
	}
	if (l->args) {
		snprintf(words, sizeof(words), "%s", l->args);
		for (w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
			n = sim_arg(argv, n, w, NULL);
	}
	ret = pf_proc_spawn(p, argv, l->out, l->err, l->flags);
	if (ret < 0) {
		p->pid = 0;
		snprintf(why, size, "%s: %s", l->exe, strerror(-ret));
		return -1;
	}
	return 0;
}

int sim_launch_await(const struct sim_launch *l, struct pf_proc *p, char *why, size_t size)
{
	const char *links[2] = { l->uart, l->spi };

	/* seconds on an emulated CPU */
	return pf_proc_await_paths(p, links, 2, PF_PROC_AWAIT_NS, why, size) < 0 ? -1 : 0;
}

void sim_launch_links_ini(FILE *f, const char *uart, const char *spi, int uart_baud, unsigned spi_frame_len)
{
	fprintf(f, "[links]\nuart = %s\n", uart);
	if (uart_baud > 0)
		fprintf(f, "uart_baud = %d\n", uart_baud);
	fprintf(f, "spi = seqpacket\nspi_path = %s\n", spi);
	if (spi_frame_len)
		fprintf(f, "spi_frame_len = %u\n", spi_frame_len);
}
