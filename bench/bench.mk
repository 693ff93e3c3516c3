# bench/bench.mk - the synthetic loads, scenarios and the run / qualify / load commands.
PREFLIGHT_SRCS += bench/loads/load.c bench/loads/proc.c bench/loads/cmd-load.c \
	bench/loads/wifi.c bench/loads/sd.c bench/loads/spi.c bench/loads/cpu.c \
	bench/loads/rt-swarm.c bench/loads/tlm-rx.c
PREFLIGHT_CMDS += load
PREFLIGHT_PKGS += jansson
PREFLIGHT_SRCS += bench/scenario.c bench/run.c bench/qualify.c
PREFLIGHT_CMDS += run qualify
PREFLIGHT_PKGS += inih
UNIT_TESTS += test-bench
test-bench_SRCS := t/unit/test-bench.c bench/scenario.c bench/loads/load.c bench/loads/proc.c \
	bench/loads/wifi.c bench/loads/sd.c bench/loads/spi.c bench/loads/cpu.c bench/loads/rt-swarm.c \
	bench/loads/tlm-rx.c app/fsw/fsw_tlm.c app/fsw/fsw_proto.c app/fsw/fsw_math.c
test-bench_PKGS := jansson inih

# unit test: the telemetry receiver's accounting (gaps, duplicates, reorders, late, rejected)
UNIT_TESTS += tlm-rx-test
tlm-rx-test_SRCS := t/unit/tlm-rx-test.c bench/loads/tlm-rx.c bench/loads/load.c bench/loads/proc.c \
	bench/loads/wifi.c bench/loads/sd.c bench/loads/spi.c bench/loads/cpu.c bench/loads/rt-swarm.c \
	app/fsw/fsw_tlm.c app/fsw/fsw_proto.c app/fsw/fsw_math.c
tlm-rx-test_PKGS := jansson
