# bench/sim/sim.mk - the simulated aircraft and DAQ: the faster-than-
# real-time harness and its tests; sensorsim and 'preflight fly' (below).
SIM_SRCS = bench/sim/sim_model.c bench/sim/sim_rng.c bench/sim/sim_sensors.c bench/sim/sim_daq.c \
	bench/sim/sim_scenario.c bench/sim/sim_harness.c

# harness tests: EKF (Jacobian, SPD, NEES, bias) and the closed loop with faults
UNIT_TESTS += fsw_ekf_test fsw_fly_test
fsw_ekf_test_SRCS = t/unit/fsw_ekf_test.c $(SIM_SRCS)
fsw_ekf_test_PKGS = inih
fsw_ekf_test_LIBS = $(FSW_LIB)
fsw_fly_test_SRCS = t/unit/fsw_fly_test.c $(SIM_SRCS)
fsw_fly_test_PKGS = inih
fsw_fly_test_LIBS = $(FSW_LIB)

# sensorsim: the same DAQ in real time, over a pty UART and an SPI seqpacket socket
PROGRAMS += sensorsim
sensorsim_SRCS = bench/sim/sensorsim.c bench/sim/sim_truthlog.c $(SIM_SRCS)
sensorsim_LIBS = $(FSW_LIB)
sensorsim_PKGS = inih jansson
sensorsim_LDLIBS = -lcsv
REQUIRED_HEADERS += csv.h

# preflight fly: the closed loop in the harness (or, --realtime, sensorsim + flightapp)
PREFLIGHT_SRCS += bench/sim/fly.c bench/sim/sim_launch.c $(SIM_SRCS)
preflight_LIBS += $(FSW_LIB)
PREFLIGHT_CMDS += fly
PREFLIGHT_PKGS += inih jansson

# make perf: CPU per job of each flight-software task, harness speed
PROGRAMS += fsw-perf
fsw-perf_SRCS = bench/sim/fsw_perf.c $(SIM_SRCS)
fsw-perf_LIBS = $(FSW_LIB)
fsw-perf_PKGS = inih
PERFS += $(B)/fsw-perf
