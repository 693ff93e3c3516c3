# analysis/analysis.mk - 'preflight analyze' (trace + job log analysis, the
# cyclictest import); the synthetic trace generator and the unit test of the
# building blocks live in t/ but are built here, with the sources they test.
# the building blocks below the readers and the coordinator, which analyze_test drives directly
AN_CORE_SRCS := analysis/sched.c analysis/tasks.c analysis/jobs_csv.c \
	   analysis/results.c analysis/timeline.c analysis/cyclictest_wakeups.c analysis/state.c \
	   analysis/rt.c analysis/timerlat.c
# the tail statistics and the exceedance curve, which the tail tools link too
AN_TAIL_SRCS := analysis/tail.c analysis/ccdf.c
AN_SRCS := analysis/analyze.c analysis/trace.c analysis/cyclictest.c analysis/snapshots.c \
	   analysis/series.c $(AN_TAIL_SRCS) $(AN_CORE_SRCS)
PREFLIGHT_SRCS += $(AN_SRCS)
PREFLIGHT_CMDS += analyze
PREFLIGHT_PKGS += libtracecmd libtraceevent libtracefs jansson gsl
preflight_LDLIBS += -lcsv
REQUIRED_HEADERS += csv.h

# gentrace: writes synthetic .dat files with known answers (tests 05xx),
# and reads a .dat decoding only event ids (the floor of the perf benchmark)
UNIT_TESTS += gentrace
gentrace_SRCS := t/tools/gentrace.c
gentrace_PKGS := libtracecmd libtraceevent libtracefs

# analyze_test: the building blocks driven directly (t/0560)
UNIT_TESTS += analyze_test
analyze_test_SRCS := t/unit/analyze_test.c $(AN_CORE_SRCS)
analyze_test_PKGS := jansson
analyze_test_LDLIBS := -lcsv

# tail_test: the tail statistics on synthetic series (t/0562); GSL's generators make them
UNIT_TESTS += tail_test
tail_test_SRCS := t/unit/tail_test.c $(AN_TAIL_SRCS)
tail_test_PKGS := gsl jansson
# tail_fit: the statistics of a series on stdin, for the SciPy oracle (t/0591) and the benchmarks
UNIT_TESTS += tail_fit
tail_fit_SRCS := t/tools/tail_fit.c $(AN_TAIL_SRCS)
tail_fit_PKGS := gsl jansson
# tail_coverage: the intervals' coverage over many seeds (analysis/tail-coverage.sh, docs/statistics.md)
UNIT_TESTS += tail_coverage
tail_coverage_SRCS := t/tools/tail_coverage.c $(AN_TAIL_SRCS)
tail_coverage_PKGS := gsl jansson

# ct_dump: prints what cyclictest_load() makes of a file (tests 0580-0581)
UNIT_TESTS += ct_dump
ct_dump_SRCS := t/tools/ct_dump.c analysis/cyclictest.c analysis/ccdf.c
ct_dump_PKGS := jansson

PERFS += analysis/analyze-perf.sh analysis/agreement-perf.sh

# the perf script's measuring tools: peak anonymous memory of a command, and an
# LD_PRELOAD interposer counting allocation calls
UNIT_TESTS += peak_anon
peak_anon_SRCS := t/tools/peak_anon.c
unit-tests: $(B)/t/malloc_count.so
$(B)/t/malloc_count.so: t/tools/malloc_count.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(CFLAGS) -fPIC -shared -o $@ $< -ldl
