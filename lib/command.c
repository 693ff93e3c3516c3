/*
 * command.c - what every subcommand shares with the front end (command.h):
 * its --help text and its usage errors, which name the command and point
 * at its --help.
 */
#include "command.h"
#include "common.h"

#include <stdarg.h>
#include <stdio.h>

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
