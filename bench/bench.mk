# bench/bench.mk - the synthetic loads, scenarios and the run / qualify / load commands.
# the loads: their table (load.c) and each load, which the unit tests link too
LOAD_SRCS := bench/loads/load.c bench/loads/wifi.c bench/loads/sd.c bench/loads/spi.c \
	bench/loads/cpu.c bench/loads/rt_swarm.c bench/loads/tlm_rx.c
PREFLIGHT_SRCS += $(LOAD_SRCS) bench/loads/cmd_load.c
PREFLIGHT_CMDS += load
PREFLIGHT_PKGS += jansson
PREFLIGHT_SRCS += bench/scenario.c bench/run.c bench/run_cpus.c bench/qualify.c bench/run_identity.c
PREFLIGHT_CMDS += run qualify
PREFLIGHT_PKGS += inih
UNIT_TESTS += bench_test
bench_test_SRCS := t/unit/bench_test.c bench/scenario.c $(LOAD_SRCS)
bench_test_LIBS = $(FSW_LIB)
bench_test_PKGS := jansson inih

# unit test: the telemetry receiver's accounting (gaps, duplicates, reorders, late, rejected)
UNIT_TESTS += tlm_rx_test
tlm_rx_test_SRCS := t/unit/tlm_rx_test.c $(LOAD_SRCS)
tlm_rx_test_LIBS = $(FSW_LIB)
tlm_rx_test_PKGS := jansson

# What a run records of its build (run.json "preflight", bench/run_identity.c): the git commit
# ("-dirty" with uncommitted changes, "unknown" outside git) and the trace libraries' versions;
# the stamp rebuilds the object when they change.
RUN_GIT_COMMIT := $(shell c=$$(git rev-parse --short=12 HEAD 2>/dev/null) && \
	{ git diff --quiet HEAD 2>/dev/null || c=$$c-dirty; echo $$c; } || echo unknown)
RUN_LIB_VERSIONS := $(foreach m,libtracefs libtracecmd libtraceevent jansson,$(m)=$(shell $(PKG_CONFIG) --modversion $(m) 2>/dev/null))
$(B)/obj/bench/run_identity.o: EXTRA_CFLAGS += -DPF_GIT_COMMIT='"$(RUN_GIT_COMMIT)"' -DPF_LIB_VERSIONS='"$(RUN_LIB_VERSIONS)"'
$(B)/obj/bench/run_identity.o: $(B)/identity.stamp
$(B)/identity.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(RUN_GIT_COMMIT) $(RUN_LIB_VERSIONS)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
