# traces/traces.mk - the recorder: 'preflight record' (libtracefs streaming, libtracecmd
# .dat output), its unit test and its benchmark.
# the .dat reading and the instance helpers, which the unit test links too
REC_UNIT_SRCS := traces/rec_read.c traces/rec_cut.c traces/rec_pages.c traces/rec_tracefs.c traces/rec_comm.c
PREFLIGHT_SRCS += traces/cmd_record.c traces/rec_stream.c traces/rec_scan.c traces/rec_dat.c \
		  traces/rec_flight.c traces/rec_observer.c traces/rec_recover.c $(REC_UNIT_SRCS)
PREFLIGHT_CMDS += record
PREFLIGHT_PKGS += libtracefs libtraceevent libtracecmd
# rec_tracecmd.h declares libtracecmd's private output API as trace-cmd 3.1 has it (libtracecmd
# 1.3, Debian 12): with another version the build stops at once (Makefile), before a recorder
# that would call a changed function with the old arguments at run time.
REC_TRACECMD_VERSIONS := 1.3.%

UNIT_TESTS += rec_test
rec_test_SRCS := t/unit/rec_test.c $(REC_UNIT_SRCS)
rec_test_PKGS := libtracefs libtraceevent libtracecmd

PERFS += traces/record-perf.sh traces/observer-perf.sh

# The libtraceevent plugin that prints the app's job markers in trace-cmd and KernelShark
# (docs/markers.md): a shared object that only uses libtraceevent, loaded by them.
PLUGINS += $(B)/plugins/plugin_preflight.so
$(B)/plugins/plugin_preflight.so: traces/plugin_preflight.c | $(B)/build_config.h
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(BASE_CFLAGS) $(PKG_CFLAGS) -fPIC -shared $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $<
