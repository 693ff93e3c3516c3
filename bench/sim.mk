# bench/sim.mk - the simulated aircraft and DAQ (issue 4): the faster-than-
# real-time harness and its tests; sensorsim and 'preflight fly' (below).
SIM_SRCS = bench/sim/sim_model.c bench/sim/sim_rng.c bench/sim/sim_sensors.c bench/sim/sim_daq.c \
	bench/sim/sim_scenario.c bench/sim/sim_harness.c

# harness tests: EKF (Jacobian, SPD, NEES, bias) and the closed loop with faults
UNIT_TESTS += fsw-ekf-test fsw-fly-test
fsw-ekf-test_SRCS = t/unit/fsw-ekf-test.c $(SIM_SRCS) $(FSW_CORE_SRCS)
fsw-ekf-test_PKGS = inih
fsw-fly-test_SRCS = t/unit/fsw-fly-test.c $(SIM_SRCS) $(FSW_CORE_SRCS)
fsw-fly-test_PKGS = inih

# sensorsim: the same DAQ in real time, over a pty UART and an SPI seqpacket socket
PROGRAMS += sensorsim
sensorsim_SRCS = bench/sim/sensorsim.c bench/sim/sim_truthlog.c $(SIM_SRCS) $(FSW_CORE_SRCS)
sensorsim_PKGS = inih jansson
sensorsim_LDLIBS = -lcsv

# preflight fly: the closed loop in the harness (or, --realtime, sensorsim + flightapp)
PREFLIGHT_SRCS += bench/fly.c $(SIM_SRCS) $(FSW_CORE_SRCS)
PREFLIGHT_CMDS += fly
PREFLIGHT_PKGS += inih jansson

# make bench: CPU per job of each flight-software task, harness speed
PROGRAMS += fsw-bench
fsw-bench_SRCS = bench/sim/fsw-bench.c $(SIM_SRCS) $(FSW_CORE_SRCS)
fsw-bench_PKGS = inih
BENCHES += $(B)/fsw-bench
