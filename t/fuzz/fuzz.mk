# t/fuzz/fuzz.mk - the libFuzzer harnesses of every parser (docs/fuzzing.md).
#
#   make fuzz [FUZZ_S=60] [FUZZ=name...]   build them with clang (libFuzzer,
#        AddressSanitizer, UBSan) into build-fuzz/ and run each for FUZZ_S
#        seconds from its committed corpus t/fuzz/<name>/
#
# 'make' and 'make check' build each harness with the ordinary compiler against
# t/fuzz/replay.c instead (build/t/fuzz/<name>); t/0009-fuzz-replay.t runs it
# over its corpus and the crash inputs kept there.

# harness name -> source: fuzz_<name>.c unless fuzz_src_<name> names another
FUZZ_HARNESSES := app_ini scenario_ini sim_ini budget_ini uart_frames spi_frames uart_stream \
		  tlm_frames joblog_csv cyclictest_json cyclictest_hist results_check results_report \
		  results_compare dat_records rec_cut dat_pages
fuzz_src_cyclictest_json := cyclictest
fuzz_src_cyclictest_hist := cyclictest
fuzz_obj = $(B)/obj/t/fuzz/fuzz_$(or $(fuzz_src_$(1)),$(1)).o

FUZZ_S      ?= 60
FUZZ        ?= $(FUZZ_HARNESSES)
FUZZ_B      := build-fuzz
FUZZ_CFLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined \
	       -fno-sanitize-recover=all -Wno-format-nonliteral -Wno-include-next-absolute-path

# The code the harnesses call: every program's sources but the main()s, as
# archives (thin: two sources may share a file name), so that each harness
# links only what it uses.
FUZZ_CODE_SRCS = $(sort $(filter-out preflight.c,$(PREFLIGHT_SRCS)))
FUZZ_LIBS      = $(B)/libpfcode.a $(B)/libpfapp.a $(FSW_LIB) $(B)/libpreflight.a
fuzz_ldlibs    = $(call pkg_libs,$(ALL_PKGS)) -lcsv -lm $(LDLIBS)

# The archives and the programs' prerequisites need every fragment's sources
# (PREFLIGHT_SRCS, APP_CORE_SRCS, FSW_LIB): the Makefile evaluates these rules once every
# fragment is read (LATE_RULES); the recipes below are expanded when they run.
define fuzz_late_rules
$(B)/libpfcode.a: $(call obj,$(FUZZ_CODE_SRCS))
$(B)/libpfapp.a: $(call obj,$(APP_CORE_SRCS))
$(foreach h,$(FUZZ_HARNESSES),$(B)/t/fuzz/$(h) $(B)/fuzz/$(h): $(call fuzz_obj,$(h)) $(FUZZ_LIBS)
)
endef
LATE_RULES += fuzz_late_rules

$(B)/libpfcode.a $(B)/libpfapp.a:
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcsT $@ $^

# the replay programs of make check
$(B)/t/fuzz/%: $(B)/obj/t/fuzz/replay.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) $(SAN_FLAGS) -pthread $(LDFLAGS) -o $@ $(call fuzz_obj,$*) $< $(FUZZ_LIBS) $(fuzz_ldlibs)
unit-tests: $(addprefix $(B)/t/fuzz/,$(FUZZ_HARNESSES))
# objects of pattern rules: kept, not rebuilt at every make
.SECONDARY: $(B)/obj/t/fuzz/replay.o

# the libFuzzer programs (built by make fuzz, with B=build-fuzz)
$(B)/fuzz/%:
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(CFLAGS) -fsanitize=fuzzer -pthread $(LDFLAGS) -o $@ $(call fuzz_obj,$*) $(FUZZ_LIBS) $(fuzz_ldlibs)
fuzz-build: $(addprefix $(B)/fuzz/,$(FUZZ))

fuzz:
	@$(MAKE) --no-print-directory B=$(FUZZ_B) CC=clang CFLAGS='$(FUZZ_CFLAGS)' fuzz-build FUZZ='$(FUZZ)'
	@t/fuzz/run-fuzz.sh $(FUZZ_B) $(FUZZ_S) $(FUZZ)

.PHONY: fuzz fuzz-build

# make clean also removes the fuzzing build and what the campaigns found there
clean: fuzz-clean
fuzz-clean:
	rm -rf $(FUZZ_B)
.PHONY: fuzz-clean
