/*
 * command.h - the interface between the preflight front end (preflight.c) and
 * its subcommands. Each subcommand lives in its own file next to its component
 * and defines one 'const struct pf_command cmd_<name>'; its component's
 * *.mk fragment adds <name> to PREFLIGHT_CMDS, and the build generates the table.
 * The helpers every command uses are in lib/command.c.
 */
#ifndef PF_COMMAND_H
#define PF_COMMAND_H

#include <stddef.h>

struct pf_command {
	const char *name;	/* as typed: "sysinfo" */
	const char *summary;	/* one line for 'preflight help' */
	const char *usage;	/* full --help text: synopsis, every option with its default */
	int (*run)(int argc, char **argv);	/* argv[0] is the command name; returns an exit code */
};

/* pf_usage_error - print a usage error and the hint, return PF_EXIT_USAGE */
int pf_usage_error(const struct pf_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * pf_option_why - after getopt_long returned '?' (with opterr = 0, so that
 * getopt printed nothing): what was wrong, as "'--bogus': unknown option" or
 * "'--output': needs a value"; 'shortopts' is the string given to getopt
 */
const char *pf_option_why(char *buf, size_t size, char *const *argv, const char *shortopts);

/* pf_option_error - pf_usage_error with pf_option_why: the one line of a bad option */
int pf_option_error(const struct pf_command *cmd, char *const *argv, const char *shortopts);

/* pf_print_usage - print a command's --help text to stdout */
void pf_print_usage(const struct pf_command *cmd);

#endif
