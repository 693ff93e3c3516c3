/*
 * sysinfo_test.c - unit tests of the survey's parsers (bench/survey/sysinfo_parse.c):
 * cpulists, the kernel command line, isolcpus flags, the preemption evidence
 * (debugfs text, version strings) and the decision that combines it.
 */
#include "bench/survey/sysinfo.h"
#include "tap.h"

#include <errno.h>

/* cpulist - sysinfo-1.x: parse and format kernel cpulists */
static void test_cpulist(void)
{
	struct sysinfo_cpuset set;
	char buf[128];

	check_int(sysinfo_cpulist_parse("0-3,6", 8, &set), ==, 0, "sysinfo-1.1 '0-3,6' parses");
	sysinfo_cpulist_format(&set, buf, sizeof(buf));
	check_str(buf, "0-3,6", "sysinfo-1.2 formats back to '0-3,6'");
	check_int(sysinfo_cpuset_count(&set), ==, 5, "sysinfo-1.3 five CPUs");
	check_int(sysinfo_cpulist_parse("3,2,1,0\n", 0, &set), ==, 0, "sysinfo-1.4 unordered list with newline");
	sysinfo_cpulist_format(&set, buf, sizeof(buf));
	check_str(buf, "0-3", "sysinfo-1.5 merged into one range");
	check_int(sysinfo_cpulist_parse("0-15:2/4", 0, &set), ==, 0, "sysinfo-1.6 used/group form parses");
	sysinfo_cpulist_format(&set, buf, sizeof(buf));
	check_str(buf, "0-1,4-5,8-9,12-13", "sysinfo-1.7 2 of every 4 CPUs");
	check_int(sysinfo_cpulist_parse("2-N", 8, &set), ==, 0, "sysinfo-1.8 N is the last CPU");
	sysinfo_cpulist_format(&set, buf, sizeof(buf));
	check_str(buf, "2-7", "sysinfo-1.9 2-N on 8 CPUs is 2-7");
	check_int(sysinfo_cpulist_parse("", 0, &set), ==, 0, "sysinfo-1.10 empty list is valid");
	check_int(sysinfo_cpuset_count(&set), ==, 0, "sysinfo-1.11 empty list is empty");
	check_int(sysinfo_cpulist_parse("3-1", 0, &set), ==, -EINVAL, "sysinfo-1.12 reversed range rejected");
	check_int(sysinfo_cpulist_parse("1,,2", 0, &set), ==, -EINVAL, "sysinfo-1.13 empty element rejected");
	check_int(sysinfo_cpulist_parse("domain", 0, &set), ==, -EINVAL, "sysinfo-1.14 words rejected");
	check_int(sysinfo_cpulist_parse("0-99999", 0, &set), ==, -EINVAL, "sysinfo-1.15 beyond the CPU limit rejected");
	check_int(sysinfo_cpulist_parse("2-N", 0, &set), ==, -EINVAL, "sysinfo-1.16 N without a CPU count rejected");
}

/* cmdline - sysinfo-2.x: the kernel command line */
static void test_cmdline(void)
{
	struct sysinfo_cmdline cl;
	char flags[64];
	const char *cpus;

	check_int(sysinfo_cmdline_parse("BOOT_IMAGE=/vmlinuz root=/dev/sda1 isolcpus=managed_irq,domain,2-3 "
					 "nohz-full=2-3 rcu_nocbs irqaffinity=0-1 threadirqs idle=poll "
					 "processor.max_cstate=1 intel_idle.max_cstate=0 mitigations=off "
					 "preempt=full quiet -- threadirqs nosmt", &cl), ==, 0,
		  "sysinfo-2.1 a realtime command line parses");
	check_str(cl.isolcpus, "managed_irq,domain,2-3", "sysinfo-2.2 isolcpus value");
	check_str(cl.nohz_full, "2-3", "sysinfo-2.3 nohz-full is nohz_full ('-' == '_')");
	check_str(cl.rcu_nocbs, "", "sysinfo-2.4 rcu_nocbs without value is empty (all CPUs)");
	check_str(cl.irqaffinity, "0-1", "sysinfo-2.5 irqaffinity");
	check_int(cl.threadirqs, ==, 1, "sysinfo-2.6 threadirqs");
	check_str(cl.idle, "poll", "sysinfo-2.7 idle=poll");
	check_str(cl.processor_max_cstate, "1", "sysinfo-2.8 processor.max_cstate");
	check_str(cl.intel_idle_max_cstate, "0", "sysinfo-2.9 intel_idle.max_cstate");
	check_str(cl.mitigations, "off", "sysinfo-2.10 mitigations");
	check_str(cl.preempt, "full", "sysinfo-2.11 preempt=");
	check_int(cl.nosmt, ==, 0, "sysinfo-2.12 nosmt after -- belongs to init");
	sysinfo_cmdline_free(&cl);

	check_int(sysinfo_cmdline_parse("quiet isolcpus=1 dyndbg=\"file x.c +p\" isolcpus=3 \"mitigations=auto,nosmt\"",
					&cl), ==, 0, "sysinfo-2.13 quoted values parse");
	check_str(cl.isolcpus, "3", "sysinfo-2.14 the last isolcpus wins");
	check_str(cl.mitigations, "auto,nosmt", "sysinfo-2.15 quotes around a whole argument removed");
	check(cl.nohz_full == NULL && cl.idle == NULL && !cl.threadirqs, "sysinfo-2.16 absent flags are absent");
	sysinfo_cmdline_free(&cl);

	check_int(sysinfo_cmdline_parse("", &cl), ==, 0, "sysinfo-2.17 empty command line");
	check(cl.isolcpus == NULL && cl.mitigations == NULL, "sysinfo-2.18 nothing found in it");
	sysinfo_cmdline_free(&cl);

	sysinfo_isolcpus_split("managed_irq,domain,2-3", flags, sizeof(flags), &cpus);
	check_str(flags, "managed_irq,domain", "sysinfo-2.19 isolcpus flags split off");
	check_str(cpus, "2-3", "sysinfo-2.20 isolcpus cpus split off");
	sysinfo_isolcpus_split("1,3-5", flags, sizeof(flags), &cpus);
	check_str(flags, "", "sysinfo-2.21 no flags");
	check_str(cpus, "1,3-5", "sysinfo-2.22 cpus without flags");
	sysinfo_isolcpus_split("nohz,domain", flags, sizeof(flags), &cpus);
	check_str(flags, "nohz,domain", "sysinfo-2.23 flags without cpus");
	check_str(cpus, "", "sysinfo-2.24 no cpus");
}

/* preempt - sysinfo-3.x: debugfs text, version strings, the decision */
static void test_preempt(void)
{
	struct sysinfo_preempt_in in;
	struct sysinfo_preempt_out out;

	check_int(sysinfo_preempt_debugfs("none (voluntary) full"), ==, SYSINFO_PREEMPT_VOLUNTARY,
		  "sysinfo-3.1 '(voluntary)' is the active mode");
	check_int(sysinfo_preempt_debugfs("none voluntary full (lazy) \n"), ==, SYSINFO_PREEMPT_LAZY,
		  "sysinfo-3.2 '(lazy)' at the end");
	check_int(sysinfo_preempt_debugfs("(full) lazy"), ==, SYSINFO_PREEMPT_FULL,
		  "sysinfo-3.3 an RT kernel's list");
	check_int(sysinfo_preempt_debugfs("none voluntary full"), ==, SYSINFO_PREEMPT_UNKNOWN,
		  "sysinfo-3.4 no parentheses: unknown");
	check_int(sysinfo_preempt_debugfs("(bogus) full"), ==, SYSINFO_PREEMPT_UNKNOWN,
		  "sysinfo-3.5 unknown mode name: unknown");

	check_int(sysinfo_version_flags("#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"), ==,
		  SYSINFO_VER_DYNAMIC, "sysinfo-3.6 PREEMPT_DYNAMIC version");
	check_int(sysinfo_version_flags("#1 SMP PREEMPT_RT Thu Jan 1 00:00:00 UTC 2026"), ==,
		  SYSINFO_VER_RT, "sysinfo-3.7 PREEMPT_RT version");
	check_int(sysinfo_version_flags("#1 SMP PREEMPT RT Mon Mar 4 2019"), ==,
		  SYSINFO_VER_PREEMPT | SYSINFO_VER_RT, "sysinfo-3.8 old 'PREEMPT RT' version");
	check_int(sysinfo_version_flags("#5 SMP PREEMPT Tue"), ==, SYSINFO_VER_PREEMPT,
		  "sysinfo-3.9 PREEMPT version");
	check_int(sysinfo_version_flags("#1 SMP Debian 5.10"), ==, 0, "sysinfo-3.10 no preemption word");
	check_int(sysinfo_version_flags("#1 SMP PREEMPT_RTX"), ==, 0, "sysinfo-3.11 whole words only");

	/* this machine: dynamic, debugfs unreadable, config default none */
	in = (struct sysinfo_preempt_in){ .realtime = 0, .version = "#1 SMP PREEMPT_DYNAMIC @0", .config_rt = 0,
					  .config_dynamic = 1, .config_mode = SYSINFO_PREEMPT_NONE };
	sysinfo_preempt_decide(&in, &out);
	check_str(out.model, "dynamic:none", "sysinfo-3.12 dynamic kernel, config default none");
	check_str(out.source, "config", "sysinfo-3.13 ... from the config");
	check_int(out.rt, ==, 0, "sysinfo-3.14 ... not RT");

	in.cmdline_mode = SYSINFO_PREEMPT_FULL;
	sysinfo_preempt_decide(&in, &out);
	check_str(out.model, "dynamic:full", "sysinfo-3.15 preempt= overrides the config default");
	in.debugfs_mode = SYSINFO_PREEMPT_VOLUNTARY;
	sysinfo_preempt_decide(&in, &out);
	check_str(out.model, "dynamic:voluntary", "sysinfo-3.16 debugfs overrides preempt=");
	check_str(out.source, "debugfs", "sysinfo-3.17 ... from debugfs");

	in = (struct sysinfo_preempt_in){ .realtime = 1, .config_rt = -1, .config_dynamic = -1,
					  .debugfs_mode = SYSINFO_PREEMPT_FULL };
	sysinfo_preempt_decide(&in, &out);
	check_str(out.model, "rt", "sysinfo-3.18 /sys/kernel/realtime = 1 is rt");
	check_str(out.source, "realtime", "sysinfo-3.19 ... from the realtime file");
	check_int(out.dynamic_mode, ==, SYSINFO_PREEMPT_FULL, "sysinfo-3.20 an RT kernel's dynamic mode kept");

	in = (struct sysinfo_preempt_in){ .realtime = -1, .version = "#1 SMP PREEMPT_RT x", .config_rt = -1,
					  .config_dynamic = -1 };
	sysinfo_preempt_decide(&in, &out);
	check(!strcmp(out.model, "rt") && out.rt == 1, "sysinfo-3.21 the version string alone says rt");

	in = (struct sysinfo_preempt_in){ .realtime = -1, .version = "#1 SMP PREEMPT x", .config_rt = -1,
					  .config_dynamic = -1 };
	sysinfo_preempt_decide(&in, &out);
	check(!strcmp(out.model, "full") && out.rt == 0 && out.dynamic == 0,
	      "sysinfo-3.22 PREEMPT without config is full, static, not RT");

	in = (struct sysinfo_preempt_in){ .realtime = -1, .version = "#1 SMP x", .config_rt = -1,
					  .config_dynamic = -1 };
	sysinfo_preempt_decide(&in, &out);
	check(!out.model[0] && !out.source, "sysinfo-3.23 no PREEMPT word, no config: model unknown");

	in = (struct sysinfo_preempt_in){ .realtime = -1, .config_rt = -1, .config_dynamic = -1 };
	sysinfo_preempt_decide(&in, &out);
	check(out.rt == -1 && out.dynamic == -1 && !out.model[0], "sysinfo-3.24 no evidence: all unknown");

	in = (struct sysinfo_preempt_in){ .realtime = 0, .version = "#1 SMP x", .config_rt = 0,
					  .config_dynamic = 0, .config_mode = SYSINFO_PREEMPT_VOLUNTARY };
	sysinfo_preempt_decide(&in, &out);
	check_str(out.model, "voluntary", "sysinfo-3.25 static voluntary from the config");
	check_str(sysinfo_preempt_name(SYSINFO_PREEMPT_UNKNOWN) ? "x" : "null", "null",
		  "sysinfo-3.26 unknown has no name");
}

/* text - sysinfo-11.x: strings from files always become JSON strings */
static void test_text(void)
{
	json_t *j;

	j = sysinfo_json_text("Cortex-A72 \xc3\xa9");
	check_str(json_string_value(j), "Cortex-A72 \xc3\xa9", "sysinfo-11.1 valid UTF-8 kept as is");
	json_decref(j);
	j = sysinfo_json_text("bad \xff\xfe byte\x01s");
	check_str(json_string_value(j), "bad ?? byte?s", "sysinfo-11.2 invalid UTF-8 and control bytes become '?'");
	json_decref(j);
}

int main(void)
{
	tap_plan(68);
	test_cpulist();
	test_cmdline();
	test_preempt();
	test_text();
	return tap_done();
}
