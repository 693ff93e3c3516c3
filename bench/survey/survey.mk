# bench/survey/survey.mk - 'preflight sysinfo', the system survey (docs/sysinfo.md),
# and the unit test of its parsers.
SYSINFO_SRCS   := bench/survey/sysinfo.c bench/survey/sysinfo_parse.c bench/survey/sysinfo_judge.c
PREFLIGHT_SRCS += $(SYSINFO_SRCS) bench/survey/cmd_sysinfo.c
PREFLIGHT_CMDS += sysinfo
PREFLIGHT_PKGS += jansson zlib

UNIT_TESTS          += sysinfo_test
sysinfo_test_SRCS   := t/unit/sysinfo_test.c $(SYSINFO_SRCS)
sysinfo_test_PKGS   := jansson zlib
