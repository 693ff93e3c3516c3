# app/fsw/fsw.mk - the flight software of flightapp: math, protocols,
# INS / EKF, control, links and the task bodies, compiled once into its own
# library build/libfsw.a. A program lists FSW_LIB in <name>_LIBS: flightapp
# (app/app.mk), sensorsim, 'preflight fly', fsw-perf and the harness tests
# (bench/sim/sim.mk). The linker takes only the members a program uses: the
# task bodies (fsw_task.c, which sees app/ only through app/task.h) come in
# through flightapp's body table (app/bodies.c), never into the simulator.
FSW_SRCS = app/fsw/fsw.c app/fsw/fsw_math.c app/fsw/fsw_proto.c app/fsw/fsw_ekf.c \
	app/fsw/fsw_ctl.c app/fsw/fsw_link.c app/fsw/fsw_tlm.c app/fsw/fsw_task.c \
	app/fsw/fsw_stats_json.c
FSW_LIB = $(B)/libfsw.a

# the archive, as the Makefile's libpreflight.a
$(FSW_LIB): $(patsubst %.c,$(B)/obj/%.o,$(FSW_SRCS))
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# unit test: the frame formats and parsers, every rejection reason
UNIT_TESTS += fsw_proto_test
fsw_proto_test_SRCS = t/unit/fsw_proto_test.c
fsw_proto_test_LIBS = $(FSW_LIB)

# unit test: the telemetry frame and sender, the navigation snapshot, the io task's SPI transfer timing
UNIT_TESTS += fsw_tlm_test
fsw_tlm_test_SRCS = t/unit/fsw_tlm_test.c
fsw_tlm_test_LIBS = $(FSW_LIB)
