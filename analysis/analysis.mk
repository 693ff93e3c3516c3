# analysis/analysis.mk - 'preflight analyze' (trace + job log analysis), its
# synthetic trace generator / read-floor tool for tests and the benchmark.
AN_SRCS := analysis/analyze.c analysis/trace.c analysis/sched.c analysis/tasks.c \
	   analysis/joblog.c analysis/results.c
PREFLIGHT_SRCS += $(AN_SRCS)
PREFLIGHT_CMDS += analyze
PREFLIGHT_PKGS += libtracecmd libtraceevent libtracefs jansson
preflight_LDLIBS += -lcsv

# an-gentrace: writes synthetic .dat files with known answers (tests 05xx),
# and reads a .dat decoding only event ids (the floor of the benchmark)
UNIT_TESTS += an-gentrace
an-gentrace_SRCS := analysis/gentrace.c
an-gentrace_PKGS := libtracecmd libtraceevent libtracefs

BENCHES += analysis/bench-analyze.sh

# an-unit: the building blocks driven directly (t/0560)
UNIT_TESTS += an-unit
an-unit_SRCS := analysis/test-analyze.c analysis/sched.c analysis/tasks.c analysis/joblog.c analysis/results.c
an-unit_PKGS := jansson
an-unit_LDLIBS := -lcsv
BENCHES += analysis/bench-agreement.sh
