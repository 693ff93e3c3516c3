# app/ - flightapp, the reference multirate flight application (the
# executive, task model and instrumentation; the flight software's own files
# live in app/fsw/ and come in through app/fsw/fsw.mk and app/bodies.c).
APP_CORE_SRCS := app/config.c app/exec.c app/ring.c app/stats.c app/marker.c app/work.c \
	app/joblog.c app/report.c app/rt.c app/bodies.c
APP_CORE_PKGS := inih jansson libtracefs
REQUIRED_HEADERS += csv.h

PROGRAMS += flightapp
flightapp_SRCS = app/flightapp.c $(APP_CORE_SRCS) $(APP_FSW_SRCS)
flightapp_PKGS = $(APP_CORE_PKGS) $(APP_FSW_PKGS)
flightapp_LDLIBS += -lcsv $(APP_FSW_LDLIBS)

# unit tests of the executive's pure parts (config, release bookkeeping, ring, stats, markers)
UNIT_TESTS += app_test
app_test_SRCS = t/unit/app_test.c $(APP_CORE_SRCS) $(APP_FSW_SRCS)
app_test_PKGS = $(APP_CORE_PKGS) $(APP_FSW_PKGS)
app_test_LDLIBS += -lcsv $(APP_FSW_LDLIBS)

# benchmark: instrumentation cost per job, and per marker against a bare write
PROGRAMS += flightapp-perf
flightapp-perf_SRCS = app/perf.c $(APP_CORE_SRCS) $(APP_FSW_SRCS)
flightapp-perf_PKGS = $(APP_CORE_PKGS) $(APP_FSW_PKGS)
flightapp-perf_LDLIBS += -lcsv $(APP_FSW_LDLIBS)
PERFS += $(B)/flightapp-perf
