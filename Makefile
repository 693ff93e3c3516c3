# preflight - top-level build.
#
# Each component folder has one or more *.mk fragments (module.mk, sim.mk, ...)
# that add its sources to the variables
# below; this file owns the rules. Outputs go under build/ (ignored by git).
#
#   make              build every program
#   make check        install missing packages, build, run every test with prove
#   make qualify      install missing packages, build, run the quick qualification
#   make perf         build and run the performance benchmarks (make bench: the same)
#   make install      install programs under $(DESTDIR)$(PREFIX)
#   make clean        remove build/
#
# Honoured: CC, AR, CROSS_COMPILE, CFLAGS, CPPFLAGS, LDFLAGS, PKG_CONFIG, PREFIX,
# DESTDIR, CI=true (adds -Werror), JUNIT=path.xml (JUnit XML from make check),
# V=1 (show commands).

PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
DATADIR   ?= $(PREFIX)/share/preflight
B         := build

ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
# A cross build asks the target's pkg-config (aarch64-linux-gnu-pkg-config) when there is one.
PKG_CONFIG ?= $(if $(and $(CROSS_COMPILE),$(shell command -v $(CROSS_COMPILE)pkg-config)),$(CROSS_COMPILE)pkg-config,pkg-config)
CFLAGS    ?= -O2 -g
WARNINGS  := -Wall -Wextra -Wshadow -Wno-unused-parameter -Wno-missing-field-initializers
ifeq ($(CI),true)
WARNINGS  += -Werror
endif
BASE_CFLAGS := -std=gnu11 $(WARNINGS) -pthread -MMD -MP -I. -Ilib -I$(B)

ifneq ($(V),1)
Q := @
endif

# Variables the module.mk files add to.
LIB_SRCS       :=   # lib/*.c, linked into every program
PREFLIGHT_SRCS :=   # sources of the preflight command
PREFLIGHT_CMDS :=   # subcommand names: each defines 'const struct pf_command pf_cmd_<name>'
PREFLIGHT_PKGS :=   # pkg-config packages preflight links with
PROGRAMS       :=   # other programs: <name>_SRCS, <name>_PKGS, <name>_LDLIBS
UNIT_TESTS     :=   # C unit tests: <name>_SRCS, <name>_PKGS, linked with lib
PERFS          :=   # performance benchmarks run by 'make perf' (paths to build/ programs or scripts)

include $(sort $(wildcard */*.mk */*/*.mk))

PREFLIGHT_SRCS += preflight.c
PREFLIGHT_CMDS += help
PROGRAMS       += preflight
preflight_SRCS := $(PREFLIGHT_SRCS)
preflight_PKGS := $(PREFLIGHT_PKGS)

obj = $(patsubst %.c,$(B)/obj/%.o,$(1))
LIB_OBJS := $(call obj,$(LIB_SRCS))
$(LIB_OBJS): EXTRA_CFLAGS := $(call pkg_cflags,$(LIB_PKGS))
pkg_cflags = $(if $(strip $(1)),$(shell $(PKG_CONFIG) --cflags $(1)))
pkg_libs   = $(if $(strip $(1)),$(shell $(PKG_CONFIG) --libs $(1)))

all: $(addprefix $(B)/,$(PROGRAMS))

# link - one program or unit test: $(1) output path, $(2) variable prefix
define link
$(1): $$(call obj,$$($(2)_SRCS)) $(B)/libpreflight.a
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	$$(Q)$$(CC) $$(CFLAGS) -pthread $$(LDFLAGS) -o $$@ $$(call obj,$$($(2)_SRCS)) $(B)/libpreflight.a \
		$$(call pkg_libs,$$($(2)_PKGS) $$(LIB_PKGS)) $$($(2)_LDLIBS) -lm $$(LDLIBS)
$$(call obj,$$($(2)_SRCS)): EXTRA_CFLAGS := $$(call pkg_cflags,$$($(2)_PKGS))
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

$(B)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(BASE_CFLAGS) $(EXTRA_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# The subcommand table, generated from PREFLIGHT_CMDS so that adding a
# subcommand touches only its own component's module.mk.
$(B)/commands.h: FORCE
	@mkdir -p $(B)
	@{ for c in $(sort $(PREFLIGHT_CMDS)); do echo "COMMAND($$c)"; done; } > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(B)/obj/preflight.o: $(B)/commands.h

# Packages missing: install them (scripts/install-deps exits 3 when not root).
deps:
	@scripts/install-deps

unit-tests: $(addprefix $(B)/t/,$(UNIT_TESTS))

PROVE_FLAGS ?=

# With JUNIT=path.xml the run is the usual one (same console output and exit
# status) and its TAP, saved by prove, is then replayed into JUnit XML.
check: deps
	@$(MAKE) --no-print-directory all unit-tests
ifdef JUNIT
	@tap=$$(mktemp -d) && trap 'rm -rf "$$tap"' EXIT; \
	PERL_TEST_HARNESS_DUMP_TAP="$$tap" prove $(PROVE_FLAGS) t/; rc=$$?; \
	(cd "$$tap" && prove --exec cat --formatter TAP::Formatter::JUnit t/) > $(abspath $(JUNIT)); \
	echo "JUnit XML: $(JUNIT)"; exit $$rc
else
	prove $(PROVE_FLAGS) t/
endif

qualify: deps
	@$(MAKE) --no-print-directory all
	@$(B)/preflight qualify --scenario quick; rc=$$?; if [ $$rc -le 1 ]; then echo "make qualify: the qualification ran and produced its verdicts (preflight qualify exit $$rc: $$([ $$rc -eq 0 ] && echo all requirements met || echo requirements failed, see the summary above))"; else echo "make qualify: the qualification could not be done (preflight qualify exit $$rc)" >&2; exit $$rc; fi

perf: deps
	@$(MAKE) --no-print-directory all unit-tests
	@set -e; for b in $(PERFS); do echo "== $$b"; $$b; done

# the old name of 'make perf'
bench: perf

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)
	install -m 755 $(addprefix $(B)/,$(PROGRAMS)) $(DESTDIR)$(BINDIR)/
	install -d $(DESTDIR)$(DATADIR)/budgets $(DESTDIR)$(DATADIR)/profiles $(DESTDIR)$(DATADIR)/scenarios
	$(foreach d,budgets:budgets app/profiles:profiles bench/scenarios:scenarios,\
		$(if $(wildcard $(word 1,$(subst :, ,$(d)))/*.ini),install -m 644 $(word 1,$(subst :, ,$(d)))/*.ini $(DESTDIR)$(DATADIR)/$(word 2,$(subst :, ,$(d)))/;))

clean:
	rm -rf $(B)

.PHONY: all check qualify perf bench install clean deps unit-tests FORCE

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)
