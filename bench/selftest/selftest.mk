# bench/selftest/selftest.mk - 'preflight selftest': the injector program (the
# flight executive of app/ with the selftest's tasks and the injector's
# threads) and the command that records it, analyses it and compares
# (docs/selftest.md).
PROGRAMS += selftest-inject
selftest-inject_SRCS = bench/selftest/inject.c bench/selftest/st_log.c $(APP_CORE_SRCS)
selftest-inject_PKGS = $(APP_CORE_PKGS)
selftest-inject_LDLIBS += -lcsv

PREFLIGHT_SRCS += bench/selftest/cmd_selftest.c bench/selftest/st_compare.c bench/selftest/st_log.c
PREFLIGHT_CMDS += selftest
PREFLIGHT_PKGS += jansson

# the live selftest as a benchmark of this machine (make perf): never a timed test
PERFS += bench/selftest/selftest-perf.sh
