# app/fsw/fsw.mk - the flight software of flightapp: math, protocols,
# INS / EKF, control, links and the task jobs. app/app.mk links APP_FSW_SRCS
# into flightapp; bench/sim/sim.mk links the same sources into sensorsim (the
# frame encoders) and into 'preflight fly' (the harness).
APP_FSW_SRCS = app/fsw/fsw.c app/fsw/fsw_math.c app/fsw/fsw_proto.c app/fsw/fsw_ekf.c \
	app/fsw/fsw_ctl.c app/fsw/fsw_link.c app/fsw/fsw_tlm.c app/fsw/fsw_task.c
APP_FSW_PKGS =
APP_FSW_LDLIBS =

# the flight software without the executive glue (fsw_task.c)
FSW_CORE_SRCS = app/fsw/fsw.c app/fsw/fsw_math.c app/fsw/fsw_proto.c app/fsw/fsw_ekf.c \
	app/fsw/fsw_ctl.c app/fsw/fsw_link.c app/fsw/fsw_tlm.c


# unit test: the frame formats and parsers, every rejection reason
UNIT_TESTS += fsw_proto_test
fsw_proto_test_SRCS = t/unit/fsw_proto_test.c app/fsw/fsw_proto.c app/fsw/fsw_math.c

# unit test: the telemetry frame and sender, the navigation snapshot, the io task's SPI transfer timing
UNIT_TESTS += fsw_tlm_test
fsw_tlm_test_SRCS = t/unit/fsw_tlm_test.c $(FSW_CORE_SRCS)
