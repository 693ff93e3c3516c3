# app/app.mk - flightapp, the reference multirate flight application: the
# executive, task model and instrumentation. The flight software lives in
# app/fsw/ (its own library, app/fsw/fsw.mk); only the program flightapp
# links it, through its body table app/bodies.c. The executive's unit test
# and benchmark link without it.
APP_CORE_SRCS := app/config.c app/exec.c app/ring.c app/task_stats.c app/marker.c app/work.c \
	app/joblog_write.c app/task_report.c app/rt.c
APP_CORE_PKGS := inih jansson libtracefs
REQUIRED_HEADERS += csv.h

PROGRAMS += flightapp
flightapp_SRCS = app/flightapp.c app/bodies.c $(APP_CORE_SRCS)
flightapp_PKGS = $(APP_CORE_PKGS)
flightapp_LDLIBS += -lcsv
flightapp_LIBS = $(FSW_LIB)

# unit tests of the executive's pure parts (config, release bookkeeping, bodies, ring, stats, markers)
UNIT_TESTS += app_test
app_test_SRCS = t/unit/app_test.c $(APP_CORE_SRCS)
app_test_PKGS = $(APP_CORE_PKGS)
app_test_LDLIBS += -lcsv

# benchmark: instrumentation cost per job, and per marker against a bare write
PROGRAMS += flightapp-perf
flightapp-perf_SRCS = app/perf.c $(APP_CORE_SRCS)
flightapp-perf_PKGS = $(APP_CORE_PKGS)
flightapp-perf_LDLIBS += -lcsv
PERFS += $(B)/flightapp-perf
