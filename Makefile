# preflight - top-level build.
#
# Each component folder has one or more *.mk fragments (module.mk, sim.mk, ...)
# that add its sources to the variables below; this file owns the generic rules,
# a fragment only those of what its folder makes (docs/ARCHITECTURE.md, "The
# build"). Outputs go under build/ (ignored by git).
#
#   make              build every program
#   make check        install missing packages, build, run every test with prove
#   make qualify      install missing packages, build, run the quick qualification
#   make perf         build and run the performance benchmarks (make bench: the same)
#   make install      install programs, data, man pages, bash completion, docs under
#                     $(DESTDIR)$(PREFIX), the trace-cmd plugin into $(PLUGINDIR)
#   make clean        remove build/
#
# Before it builds anything, make checks that the required packages are there:
# every pkg-config module a fragment names (one pkg-config call for all) and the
# headers outside pkg-config (REQUIRED_HEADERS: csv.h, and sys/sdt.h for the
# USDT probes). A missing one stops make with one line that names the Debian
# packages and scripts/install-deps; nothing is half built. USDT probes are
# required; NO_USDT=1 builds without them. The build's settings are in the
# generated build/build_config.h, rewritten only when a setting changes, so the
# objects that include it rebuild exactly then. Every object is compiled with
# the cflags of all packages (computed once); each program links with the libs
# of its own packages.
#
# Honoured: CC, AR, CROSS_COMPILE, CFLAGS, CPPFLAGS, LDFLAGS, PKG_CONFIG, PREFIX,
# DESTDIR, MANDIR, COMPLETIONDIR, DOCDIR, PLUGINDIR, CI=true (adds -Werror), JUNIT=path.xml (JUnit XML from make check),
# NO_USDT=1 (no USDT probes, no sys/sdt.h needed), V=1 (show commands),
# SANITIZE=address,undefined (every object and program built with those
# sanitizers into build-san/, and make check runs the tests on that build with
# the suppressions of t/sanitizer/; docs/fuzzing.md).
# ARCH=arm64|armhf, SYSROOT, QEMU (cross builds into build-<arch>/: scripts/cross.mk).

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/preflight
MANDIR    ?= $(PREFIX)/share/man
COMPLETIONDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR    ?= $(PREFIX)/share/doc/preflight
# libtraceevent's plugins: where trace-cmd and KernelShark look (root or a DESTDIR package:
# the system's directory; otherwise the user's own)
PLUGINDIR ?= $(if $(or $(DESTDIR),$(filter 0,$(shell id -u))),$(shell $(PKG_CONFIG) --variable=libdir \
	libtraceevent)/traceevent/plugins,$(HOME)/.local/lib/traceevent/plugins)
B         := build
comma     := ,
empty     :=
space     := $(empty) $(empty)
ifneq ($(SANITIZE),)
B         := build-san
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
# gcc's 'undefined' leaves out double -> integer conversions out of range: ask for them
SAN_FLAGS += $(if $(filter undefined,$(subst $(comma), ,$(SANITIZE))),-fsanitize=float-cast-overflow)
# what the tests run with: the sanitized programs, our suppressions of library findings
export PF_BUILD      := $(abspath $(B))
export ASAN_OPTIONS  := detect_leaks=1:fast_unwind_on_malloc=0:allocator_may_return_null=1:handle_segv=0:handle_sigbus=0:handle_sigfpe=0
export LSAN_OPTIONS  := suppressions=$(abspath t/sanitizer/lsan.supp):print_suppressions=0
export UBSAN_OPTIONS := suppressions=$(abspath t/sanitizer/ubsan.supp):print_stacktrace=1:halt_on_error=1
endif
# cross builds (make ARCH=arm64|armhf): the build folder, compiler and sysroot
include scripts/cross.mk

ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
# A cross build asks the target's pkg-config (aarch64-linux-gnu-pkg-config) when there is one.
PKG_CONFIG ?= $(if $(and $(CROSS_COMPILE),$(shell command -v $(CROSS_COMPILE)pkg-config)),$(CROSS_COMPILE)pkg-config,pkg-config)
PKG_CONFIG := $(PKG_CONFIG)
# Link-time optimisation: analyze's per-record path runs through three files (analysis/trace.c
# dispatches to sched.c, which adds to lib/hist.c); inlined across them it takes 2.4 % less CPU
# (docs/analysis-performance.md). Fat objects: the archives link without the LTO plugin too.
CFLAGS    ?= -O2 -g -flto=auto -ffat-lto-objects
WARNINGS  := -Wall -Wextra -Wformat=2 -Wshadow -Wno-unused-parameter -Wno-missing-field-initializers
ifeq ($(CI),true)
WARNINGS  += -Werror
endif
# 64-bit file offsets and time_t on 32-bit targets too (armhf: traces past 2 GiB, dates past
# 2038); no library preflight links passes off_t or time_t (zlib maps itself). No fused
# multiply-add contraction (ISO C's default; gnu11 contracts on ARM, not on x86-64): the
# simulator and the EKF compute the same on every target.
BASE_CFLAGS := -std=gnu11 $(WARNINGS) -pthread -MMD -MP -I. -Ilib -I$(B) -D_FILE_OFFSET_BITS=64 -D_TIME_BITS=64 \
	-ffp-contract=off $(SAN_FLAGS)

ifneq ($(V),1)
Q := @
endif

# Variables the *.mk fragments add to.
LIB_SRCS       :=   # lib/*.c, linked into every program
PREFLIGHT_SRCS :=   # sources of the preflight command
PREFLIGHT_CMDS :=   # subcommand names: each defines 'const struct pf_command cmd_<name>'
PREFLIGHT_PKGS :=   # pkg-config packages preflight links with
DLOPEN_PKGS    :=   # pkg-config packages compiled against but loaded when used (dlopen: libpq)
PROGRAMS       :=   # other programs: <name>_SRCS, <name>_PKGS, <name>_LDLIBS, <name>_LIBS (archives)
UNIT_TESTS     :=   # C unit tests and test tools (build/t/): <name>_SRCS, <name>_PKGS, linked with lib
PLUGINS        :=   # libtraceevent plugins (build/plugins/*.so), for trace-cmd and KernelShark
PERFS          :=   # performance benchmarks run by 'make perf' (paths to build/ programs or scripts)
LIB_PKGS       :=   # pkg-config packages every program links with (lib/)
LATE_RULES     :=   # names of 'define's of rules built from every fragment's lists, evaluated after all
REQUIRED_HEADERS :=  # headers of packages without a pkg-config module (csv.h): checked before building

# 'make' alone builds every program, whatever rules the fragments define first
.DEFAULT_GOAL := all

# The fragments. Their order does not matter (t/0002 build-9.x reads them in reverse and
# gets the same commands): a fragment only adds to the variables above and to its own,
# uses another fragment's variables only where make expands late (a recursive '=', a
# recipe), and writes a rule whose prerequisites need every fragment's lists (t/fuzz's
# archives of all the code) as a 'define' named in LATE_RULES, evaluated below once
# every fragment is read. FRAGMENTS=... on the command line reads others, in its order.
FRAGMENTS := $(sort $(wildcard */*.mk */*/*.mk))
include $(FRAGMENTS)

PREFLIGHT_SRCS += preflight.c
PREFLIGHT_CMDS += help
PROGRAMS       += preflight
preflight_SRCS := $(sort $(PREFLIGHT_SRCS))
preflight_PKGS := $(PREFLIGHT_PKGS)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
$(foreach r,$(LATE_RULES),$(eval $(call $(r))))
LIB_OBJS := $(call obj,$(LIB_SRCS))
ALL_PKGS := $(sort $(LIB_PKGS) $(DLOPEN_PKGS) $(foreach p,$(PROGRAMS) $(UNIT_TESTS),$($(p)_PKGS)))
pkg_libs  = $(if $(strip $(1)),$(shell $(PKG_CONFIG) --libs $(1)))

# USDT probes (app/marker.h): on unless NO_USDT=1.
USDT := $(if $(filter-out 0,$(NO_USDT)),0,1)
ifeq ($(USDT),1)
REQUIRED_HEADERS += sys/sdt.h
endif

# The Debian package of each pkg-config module and required header (the list of
# scripts/install-deps); a name not in this table is shown as it is.
deb_jansson       := libjansson-dev
deb_libtracecmd   := libtracecmd-dev
deb_libtracefs    := libtracefs-dev
deb_libtraceevent := libtraceevent-dev
deb_inih          := libinih-dev
deb_zlib          := zlib1g-dev
deb_gsl           := libgsl-dev
deb_csv.h         := libcsv-dev
deb_sys/sdt.h     := systemtap-sdt-dev
deb_pkg-config    := pkg-config
deb_cc            := build-essential

# The required packages, checked at parse time (so that nothing is built when one
# is missing), except for goals that build nothing here: clean, deps, and those
# that run scripts/install-deps first and then make again (check, qualify, perf), and
# the target guests' (a fresh machine has no sysroot yet: scripts/target-image makes it).
# One pkg-config call gives the cflags of every package; one preprocessor run
# checks the headers; the per-item look-ups (and whether the compiler works at
# all: 'cc') run only when something is missing.
NO_REQ_GOALS := clean deps check qualify perf bench check-cross sysroot target-deps target-image check-target check-target-all check-fleet
REQ_MISSING  :=
REQUIRED_HEADERS := $(sort $(REQUIRED_HEADERS))
ifneq ($(if $(MAKECMDGOALS),$(filter-out $(NO_REQ_GOALS),$(MAKECMDGOALS)),all),)
PKG_CFLAGS := $(if $(ALL_PKGS),$(shell $(PKG_CONFIG) --cflags $(ALL_PKGS) 2>/dev/null || echo '?missing'))
ifneq ($(filter ?missing,$(PKG_CFLAGS)),)
PKG_CFLAGS :=
REQ_MISSING := $(shell if command -v $(firstword $(PKG_CONFIG)) >/dev/null; then \
	for m in $(ALL_PKGS); do $(PKG_CONFIG) --exists $$m 2>/dev/null || echo $$m; done; \
	else echo pkg-config; fi)
endif
hdr_cpp = $(CC) -I. -Ilib $(CPPFLAGS) $(PKG_CFLAGS) $(CFLAGS) -E -o /dev/null -x c - 2>/dev/null
REQ_MISSING += $(if $(REQUIRED_HEADERS),$(shell \
	printf '\043include <%s>\n' $(REQUIRED_HEADERS) | $(hdr_cpp) || \
	if ! echo 'int i;' | $(hdr_cpp); then echo cc; else \
	for h in $(REQUIRED_HEADERS); do printf '\043include <%s>\n' $$h | $(hdr_cpp) || echo $$h; done; fi))
ifneq ($(strip $(REQ_MISSING)),)
req_debs := $(sort $(foreach m,$(REQ_MISSING),$(or $(deb_$(m)),$(m))))
req_hint := $(if $(SYSROOT),$(SYSROOT) lacks them: it was made from an older list of scripts/install-deps$(comma) \
	run scripts/make-sysroot $(or $(ARCH),<arch>) $(SYSROOT) to make it again,run scripts/install-deps as root$(comma) \
	or apt-get install -y $(req_debs))
req_hint += $(if $(filter sys/sdt.h,$(REQ_MISSING)),(or build without USDT probes: make NO_USDT=1))
$(error preflight: build: missing $(foreach m,$(REQ_MISSING),$(if $(deb_$(m)),$(deb_$(m)) ($(m)),$(m))): $(strip $(req_hint)))
endif
ifdef REC_TRACECMD_VERSIONS
tracecmd_version := $(shell $(PKG_CONFIG) --modversion libtracecmd 2>/dev/null)
ifeq ($(filter $(REC_TRACECMD_VERSIONS),$(tracecmd_version)),)
$(error preflight: build: libtracecmd $(tracecmd_version): traces/rec_tracecmd.h declares the private API (output and the undeclared reading functions) of libtracecmd $(subst %,x,$(REC_TRACECMD_VERSIONS)) only; check its declarations against this version's trace-cmd-private.h, then add it to REC_TRACECMD_VERSIONS in traces/traces.mk)
endif
endif
endif

all: $(addprefix $(B)/,$(PROGRAMS)) $(PLUGINS) $(GENERATED)

# link - one program or unit test: $(1) output path, $(2) variable prefix
define link
$(1): $$(call obj,$$($(2)_SRCS)) $$($(2)_LIBS) $(B)/libpreflight.a
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	$$(Q)$$(CC) $$(CFLAGS) $(SAN_FLAGS) -pthread $$(LDFLAGS) -o $$@ $$(call obj,$$($(2)_SRCS)) $$($(2)_LIBS) $(B)/libpreflight.a \
		$$(call pkg_libs,$$(sort $$($(2)_PKGS) $$(LIB_PKGS))) $$($(2)_LDLIBS) -lm $$(LDLIBS)
endef
$(foreach p,$(PROGRAMS),$(eval $(call link,$(B)/$(p),$(p))))
$(foreach u,$(UNIT_TESTS),$(eval $(call link,$(B)/t/$(u),$(u))))

# The installed data directory is compiled into the data-file resolver
# (lib/datafile.h); the stamp rebuilds it when DATADIR changes (make install
# PREFIX=... after a plain make).
$(B)/obj/lib/datafile.o: EXTRA_CFLAGS += -DPF_DATADIR='"$(DATADIR)"'
$(B)/obj/lib/datafile.o: $(B)/datadir.stamp
$(B)/datadir.stamp: FORCE
	@mkdir -p $(B)
	@echo '$(DATADIR)' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(B)/libpreflight.a: $(LIB_OBJS)
	@echo "  AR      $@"
	$(Q)rm -f $@ && $(AR) rcs $@ $^

# Every object may include build_config.h: it exists before any is compiled, and
# the -MMD dependencies make the objects that include it rebuild when it changes.
$(B)/obj/%.o: %.c | $(B)/build_config.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(PKG_CFLAGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# write_if_changed - the recipe of a generated header: the output of the shell
# commands $(1), written to $@ only when it differs (so its users rebuild only then)
write_if_changed = @mkdir -p $(dir $@); { $(1); } > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

# The subcommand table, generated from PREFLIGHT_CMDS so that adding a
# subcommand touches only its own folder's *.mk.
$(B)/commands.h: FORCE
	$(call write_if_changed,for c in $(sort $(PREFLIGHT_CMDS)); do echo "COMMAND($$c)"; done)
$(B)/obj/preflight.o: $(B)/commands.h

# The build's settings, as the sources see them.
$(B)/build_config.h: FORCE
	$(call write_if_changed,echo '/* build_config.h - generated by the Makefile: the build settings */'; \
		echo '#define CONFIG_USDT $(USDT)')

# Packages missing: install them (scripts/install-deps exits 3 when not root).
deps:
	@scripts/install-deps

unit-tests: $(addprefix $(B)/t/,$(UNIT_TESTS))

PROVE_FLAGS ?=
# the tests make check runs (TESTS="t/0010-lib.t t/0522-*.t": only those): every t/*.t but
# those only a cross build can run (t/0590 compares the target build's analysis with the
# native one's: here it would compare this build with itself; make check-cross runs it)
# nor those only the target guests run (t/0771 asserts of a quick selftest of its own what
# t/0720 asserts of the one its qualification runs: make check runs that minute once)
CROSS_ONLY_TESTS := t/0590-analyze-native.t
TARGET_ONLY_TESTS := t/0771-selftest-live.t
TESTS ?= $(filter-out $(CROSS_ONLY_TESTS) $(TARGET_ONLY_TESTS),$(sort $(wildcard t/*.t)))
# prove runs PROVE_JOBS test files at once (default: one per CPU). A test that needs
# this machine's realtime CPUs or its tracefs says so ('need ... RT' or TRACEFS, or
# 'if test_have_prereq ... RT' for a part of it; see t/lib/test-lib.sh): those run one
# after another in a single slot, so two live runs
# never share the CPUs, and every other file runs beside them. That chain is the
# suite's longest path, so it starts first: prove's scheduler hands out the files of a
# plain 'par=GLOB' rule before it looks into any 'seq' group (with 'par=**' the chain
# ran alone after every other file), so each other file is a 'seq' rule of its own,
# and the chain's group, named first, is asked first.
PROVE_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
SERIAL_TESTS := $(shell grep -lE '^[[:space:]]*(if[[:space:]]+(![[:space:]]*)?)?(need|test_have_prereq)[[:space:]].*\<(RT|TRACEFS)\>' t/*.t 2>/dev/null)
PROVE_RULES := -j$(PROVE_JOBS) $(if $(SERIAL_TESTS),--rules='seq={$(subst $(space),$(comma),$(strip $(SERIAL_TESTS)))}') \
	$(foreach t,$(filter-out $(SERIAL_TESTS),$(wildcard $(TESTS))),--rules='seq=$(t)')

# the build before the tests and the qualification: one compiler per CPU unless make was given -j
# (from scratch, 113 s alone, 60 s on two CPUs here: a tenth of make check)
BUILD_JOBS = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(PROVE_JOBS))

# With JUNIT=path.xml the run is the usual one (same console output and exit
# status) and its TAP, saved by prove, is then replayed into JUnit XML.
check: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all unit-tests
ifdef JUNIT
	@tap=$$(mktemp -d) && trap 'rm -rf "$$tap"' EXIT; \
	PERL_TEST_HARNESS_DUMP_TAP="$$tap" prove $(PROVE_RULES) $(PROVE_FLAGS) $(strip $(TESTS)); rc=$$?; \
	(cd "$$tap" && prove --exec cat --formatter TAP::Formatter::JUnit t/) > $(abspath $(JUNIT)); \
	echo "JUnit XML: $(JUNIT)"; exit $$rc
else
	@echo "prove -j$(PROVE_JOBS)$(if $(PROVE_FLAGS), $(PROVE_FLAGS)): $(words $(TESTS)) test files$(if $(filter $(CROSS_ONLY_TESTS),$(TESTS)),, (not $(CROSS_ONLY_TESTS): make check-cross; not $(TARGET_ONLY_TESTS): make check-target)) ($(words $(filter $(SERIAL_TESTS),$(wildcard $(TESTS)))) files that need the realtime CPUs or tracefs run one at a time)"
	@prove $(PROVE_RULES) $(PROVE_FLAGS) $(strip $(TESTS))
endif

qualify: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all
	@$(B)/preflight qualify --scenario quick; rc=$$?; if [ $$rc -le 1 ]; then echo "make qualify: the qualification ran and produced its verdicts (preflight qualify exit $$rc: $$([ $$rc -eq 0 ] && echo all requirements met || echo requirements failed, see the summary above))"; else echo "make qualify: the qualification could not be done (preflight qualify exit $$rc)" >&2; exit $$rc; fi

perf: deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all unit-tests
	@set -e; for b in $(PERFS); do echo "== $$b"; $$b; done

# the old name of 'make perf'
bench: perf

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)
	install -m 755 $(addprefix $(B)/,$(PROGRAMS)) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(DATADIR)/budgets $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/scenarios
	$(foreach d,budgets:budgets app/profiles:profiles bench/scenarios:scenarios,\
		$(if $(wildcard $(word 1,$(subst :, ,$(d)))/*.ini),install -m 644 $(word 1,$(subst :, ,$(d)))/*.ini $(DESTDIR)$(DATADIR)/$(word 2,$(subst :, ,$(d)))/;))
	install -d $(DESTDIR)$(DOCDIR) $(DESTDIR)$(PLUGINDIR)
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	install -m 644 $(PLUGINS) $(DESTDIR)$(PLUGINDIR)/
	$(if $(MAN_PAGES),install -d $(DESTDIR)$(MANDIR)/man1 && install -m 644 $(MAN_PAGES) $(DESTDIR)$(MANDIR)/man1/)
	$(if $(COMPLETION),install -d $(DESTDIR)$(COMPLETIONDIR) && install -m 644 $(COMPLETION) $(DESTDIR)$(COMPLETIONDIR)/preflight)

clean:
	rm -rf $(B)

.PHONY: all check qualify perf bench install clean deps unit-tests FORCE

-include $(wildcard $(B)/obj/*.d $(B)/obj/*/*.d $(B)/obj/*/*/*.d $(B)/obj/*/*/*/*.d)
