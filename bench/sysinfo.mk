# bench/sysinfo.mk - 'preflight sysinfo', the system survey (docs/sysinfo.md),
# and the unit test of its parsers.
SYSINFO_SRCS   := bench/sysinfo.c bench/sysinfo-parse.c bench/sysinfo-judge.c
PREFLIGHT_SRCS += $(SYSINFO_SRCS) bench/sysinfo-cmd.c
PREFLIGHT_CMDS += sysinfo
PREFLIGHT_PKGS += jansson zlib

UNIT_TESTS          += sysinfo-test
sysinfo-test_SRCS   := t/unit/sysinfo-test.c $(SYSINFO_SRCS)
sysinfo-test_PKGS   := jansson zlib
