/*
 * command.c - what every subcommand shares with the front end (command.h):
 * its --help text and its usage errors, which name the command and point
 * at its --help.
 */
#include "command.h"
#include "common.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void pf_print_usage(const struct pf_command *cmd)
{
	fputs(cmd->usage, stdout);
}

int pf_usage_error(const struct pf_command *cmd, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pf_err("%s (see 'preflight %s --help')", msg, cmd->name);
	return PF_EXIT_USAGE;
}

const char *pf_option_why(char *buf, size_t size, char *const *argv, const char *shortopts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : "";
	size_t len = strcspn(arg, "=");

	if (!strncmp(arg, "--", 2))	/* a long option: unknown (optopt 0), or its value missing */
		snprintf(buf, size, "'%.*s': %s", (int)len, arg, optopt ? "needs a value" : "unknown option");
	else if (optopt && strchr(shortopts, optopt) && optopt != ':')
		snprintf(buf, size, "'-%c': needs a value", optopt);
	else
		snprintf(buf, size, "'-%c': unknown option", optopt ? optopt : '?');
	return buf;
}

int pf_option_error(const struct pf_command *cmd, char *const *argv, const char *shortopts)
{
	char why[256];

	return pf_usage_error(cmd, "%s", pf_option_why(why, sizeof(why), argv, shortopts));
}
