# traces/traces.mk - the recorder: 'preflight record' (libtracefs streaming, libtracecmd
# .dat output), its unit test and its benchmark.
PREFLIGHT_SRCS += traces/cmd_record.c traces/rec_tracefs.c traces/rec_stream.c \
		  traces/rec_comm.c traces/rec_scan.c traces/rec_dat.c traces/rec_read.c \
		  traces/rec_flight.c traces/rec_recover.c
PREFLIGHT_CMDS += record
PREFLIGHT_PKGS += libtracefs libtraceevent libtracecmd

UNIT_TESTS += rec_test
rec_test_SRCS := t/unit/rec_test.c traces/rec_read.c traces/rec_tracefs.c traces/rec_comm.c
rec_test_PKGS := libtracefs libtraceevent libtracecmd

PERFS += traces/record-perf.sh
