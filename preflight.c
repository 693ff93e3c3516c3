/*
 * preflight.c - the front end of the preflight command: finds the subcommand
 * named by the first argument and runs it, git-style. The table of commands
 * is generated from the components' *.mk fragments (build/commands.h).
 *
 * usage: preflight [--version] [--help] <command> [options]
 */
#include "command.h"
#include "common.h"
#include "outfile.h"
#include "stale.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>


static int cmd_help_run(int argc, char **argv);

const struct pf_command cmd_help = {
	.name = "help",
	.summary = "show the commands, or one command's options",
	.usage = "usage: preflight help [command]\n",
	.run = cmd_help_run,
};

#define COMMAND(name) extern const struct pf_command cmd_##name;
#include "commands.h"
#undef COMMAND

static const struct pf_command *const main_commands[] = {
#define COMMAND(name) &cmd_##name,
#include "commands.h"
#undef COMMAND
};

static char main_prefix_buf[64];

/* main_find_command - the command called 'name', or NULL */
static const struct pf_command *main_find_command(const char *name)
{
	size_t i;

	for (i = 0; i < PF_ARRAY_SIZE(main_commands); i++)
		if (!strcmp(main_commands[i]->name, name))
			return main_commands[i];
	return NULL;
}

/* main_usage - the top-level help: every command with its summary */
static void main_usage(FILE *out)
{
	size_t i;

	fprintf(out,
		"usage: preflight [--version] [--help] <command> [options]\n"
		"\n"
		"Timing analysis and latency certification for realtime Linux.\n"
		"\n"
		"commands:\n");
	for (i = 0; i < PF_ARRAY_SIZE(main_commands); i++)
		fprintf(out, "  %-10s %s\n", main_commands[i]->name, main_commands[i]->summary);
	fprintf(out,
		"\n"
		"'preflight help <command>' or 'preflight <command> --help' shows a command's options.\n"
		"exit codes: 0 ok, 1 a requirement failed, 2 usage or bad input,\n"
		"            3 environment (privilege, tracefs, missing tool, a failed write),\n"
		"            4 internal error\n");
}

/* cmd_help_run - 'preflight help [command]' */
static int cmd_help_run(int argc, char **argv)
{
	const struct pf_command *cmd;

	if (argc < 2) {
		main_usage(stdout);
		return PF_EXIT_OK;
	}
	cmd = main_find_command(argv[1]);
	if (!cmd)
		return pf_fail(PF_EXIT_USAGE, "'%s': no such command (see 'preflight help')", argv[1]);
	pf_print_usage(cmd);
	return PF_EXIT_OK;
}

/* main_run - run the command argv names; its exit code */
static int main_run(int argc, char **argv)
{
	const struct pf_command *cmd;
	int i;

	if (argc < 2) {
		main_usage(stderr);
		return PF_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("preflight %s\n", PF_VERSION);
		return PF_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help_run(argc - 1, argv + 1);
	if (argv[1][0] == '-')
		return pf_fail(PF_EXIT_USAGE, "'%s': unknown option (see 'preflight --help')", argv[1]);

	cmd = main_find_command(argv[1]);
	if (!cmd)
		return pf_fail(PF_EXIT_USAGE, "'%s': no such command (see 'preflight help')", argv[1]);
	/* a killed recorder's instance records on until someone stops it: every command does */
	pf_stale_stop();
	snprintf(main_prefix_buf, sizeof(main_prefix_buf), "preflight: %s", cmd->name);
	pf_set_prog(main_prefix_buf);
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			pf_print_usage(cmd);
			return PF_EXIT_OK;
		}
	}
	opterr = 0;	/* a bad option is one line, the command's own (pf_option_error) */
	return cmd->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	int ret = main_run(argc, argv), out;

	/* what went to stdout is output too: a write that failed there is an environment error */
	out = pf_stdout_close();
	return out && ret < PF_EXIT_USAGE ? out : ret;
}
