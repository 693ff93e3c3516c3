/*
 * cmd_sysinfo.c - 'preflight sysinfo': survey this machine (or a tree given
 * with --root) and print the survey as a short table or as JSON. The survey
 * itself is bench/survey/sysinfo.c; this file is only the command line.
 */
#include "command.h"
#include "common.h"
#include "sysinfo.h"

#include <getopt.h>
#include <string.h>

static int sysinfo_run(int argc, char **argv);

const struct pf_command cmd_sysinfo = {
	.name = "sysinfo",
	.summary = "survey kernel, CPUs, clocks and tracing; warn what will hurt latency",
	.usage =
		"usage: preflight sysinfo [--json] [--root DIR] [-o FILE]\n"
		"\n"
		"Survey the kernel (release, preemption model, HZ, command-line flags), the CPUs\n"
		"(online, isolated, SMT, cpufreq governors, idle states), the clocksource, realtime\n"
		"throttling, tracefs, memory and swap, and virtualisation; then list the warnings\n"
		"about what will hurt latency. Fields that cannot be read are null / unknown and\n"
		"listed under notes. Schema: docs/sysinfo.md (" SYSINFO_SCHEMA ").\n"
		"\n"
		"options:\n"
		"  -j, --json         print JSON instead of the table (default: the table)\n"
		"  -r, --root DIR     read proc/, sys/, etc/ and boot/ under DIR (default: /);\n"
		"                     only with / are debugfs and tracefs mounted privately and tried\n"
		"  -o, --output FILE  write to FILE instead of standard output (default: -)\n"
		"  -h, --help         show this help\n"
		"\n"
		"exit codes: 0 surveyed (warnings do not fail it), 2 usage error or broken --root,\n"
		"            3 cannot write FILE, 4 internal error\n",
	.run = sysinfo_run,
};

/* sysinfo_run - parse the options, survey, print */
static int sysinfo_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json",   no_argument,       NULL, 'j' },
		{ "root",   required_argument, NULL, 'r' },
		{ "output", required_argument, NULL, 'o' },
		{ "help",   no_argument,       NULL, 'h' },
		{ 0 }
	};
	const char *root = "/", *output = NULL, *why;
	bool as_json = false;
	json_t *info = NULL;
	int c, ret;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":jr:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			as_json = true;
			break;
		case 'r':
			root = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			pf_print_usage(&cmd_sysinfo);
			return PF_EXIT_OK;
		case ':':
			return pf_usage_error(&cmd_sysinfo, "'%s': needs a value", argv[optind - 1]);
		default:
			return pf_usage_error(&cmd_sysinfo, "'%s': unknown option", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pf_usage_error(&cmd_sysinfo, "'%s': unexpected argument", argv[optind]);

	if (sysinfo_check_root(root, &why))
		return pf_fail(PF_EXIT_USAGE, "--root '%s': %s", root, why);
	ret = sysinfo_collect(root, &info);
	if (ret)
		return pf_fail(PF_EXIT_INTERNAL, "survey of '%s': %s", root, strerror(-ret));
	ret = sysinfo_write(info, output, as_json);
	json_decref(info);
	return ret;
}
