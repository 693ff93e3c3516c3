# scripts/cross.mk - cross builds for the boards (docs/target.md) and their tests under qemu-user.
#
#   make ARCH=arm64               build for the target into build-arm64/ (armhf: build-armhf/)
#   make sysroot ARCH=arm64       make its sysroot (scripts/make-sysroot arm64 sysroot-arm64)
#   make check-cross ARCH=arm64   sysroot, native and cross builds, then under qemu-user the
#                                 tests that do not need the target's kernel (CROSS_TESTS)
#   make install ARCH=arm64 DESTDIR=/tmp/board   the tree to copy onto the board
#
# ARCH (a Debian architecture) gives the defaults: CROSS_COMPILE=<triplet>-,
# SYSROOT=sysroot-<arch> (Debian packages of the target unpacked by
# scripts/make-sysroot, never installed), QEMU=qemu-<cpu>-static. Each can be
# given instead, for another toolchain or sysroot; CROSS_COMPILE without ARCH
# builds into build-<triplet>/. With a SYSROOT the compiler runs with
# --sysroot and pkg-config reads the sysroot's .pc files. An ARCH equal to the
# build machine's is a native build.
#
# The Makefile includes this file right after it names the build folder (B),
# before it picks the compiler; the fragment glob includes it once more, which
# the guard below makes a no-op.
ifndef CROSS_MK_INCLUDED
CROSS_MK_INCLUDED := 1

cross_triplet_arm64 := aarch64-linux-gnu
cross_triplet_armhf := arm-linux-gnueabihf
cross_qemu_arm64    := qemu-aarch64-static
cross_qemu_armhf    := qemu-arm-static

NATIVE_ARCH := $(shell dpkg --print-architecture 2>/dev/null)
# the guest of make check-target (scripts/target.mk), this machine's own included
GUEST_ARCH := $(ARCH)
ifeq ($(ARCH),$(NATIVE_ARCH))
override ARCH :=
endif

ifneq ($(ARCH),)
ifeq ($(cross_triplet_$(ARCH))$(CROSS_COMPILE),)
$(error preflight: build: ARCH=$(ARCH): not a known target (arm64, armhf): give CROSS_COMPILE=<triplet>- and SYSROOT=<dir> for another)
endif
CROSS_COMPILE ?= $(cross_triplet_$(ARCH))-
SYSROOT       ?= $(CURDIR)/sysroot-$(ARCH)
QEMU          ?= $(cross_qemu_$(ARCH))
endif

ifneq ($(CROSS_COMPILE),)
CROSS_TRIPLET := $(patsubst %-,%,$(notdir $(CROSS_COMPILE)))
B := build-$(or $(ARCH),$(CROSS_TRIPLET))
ifneq ($(SYSROOT),)
override SYSROOT := $(abspath $(SYSROOT))
ifeq ($(origin CC),default)
CC := $(CROSS_COMPILE)gcc --sysroot=$(SYSROOT)
endif
PKG_CONFIG ?= env PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)/pkgconfig:$(SYSROOT)/usr/lib/pkgconfig:$(SYSROOT)/usr/share/pkgconfig \
	pkg-config
LDFLAGS += -Wl,-rpath-link,$(SYSROOT)/lib/$(CROSS_TRIPLET):$(SYSROOT)/usr/lib/$(CROSS_TRIPLET)
# a build that needs the sysroot says how to make it, rather than naming each package missing
cross_req_goals := $(if $(MAKECMDGOALS),$(filter-out clean sysroot check-cross target-deps target-image check-target check-target-all,$(MAKECMDGOALS)),all)
ifneq ($(and $(cross_req_goals),$(if $(wildcard $(SYSROOT)/usr/include),,missing)),)
$(error preflight: build: no sysroot at $(SYSROOT): run scripts/make-sysroot $(or $(ARCH),<arch>) $(SYSROOT) (or make sysroot ARCH=<arch>))
endif
endif
endif

# The test files that check-cross runs under qemu-user: those that need neither
# the target's kernel (tracefs, realtime scheduling, loads, flightapp runs) nor
# a child program of the target (qemu-user runs one program, not what it
# executes). Their programs are the build's, through build-<arch>/qemu/.
CROSS_TESTS := \
	t/0010-lib.t t/0011-hist.t t/0012-jpath.t \
	t/0100-sysinfo-unit.t t/0101-sysinfo-fixtures.t t/0102-sysinfo-variants.t t/0103-sysinfo-robust.t \
	t/0200-app-unit.t \
	t/0300-fsw-proto.t t/0310-fsw-ekf.t t/0320-fsw-fly.t t/0330-fly-cli.t t/0350-fsw-tlm.t \
	t/0500-analyze-synthetic.t t/0505-analyze-stats.t t/0510-analyze-lost.t t/0512-analyze-lost-flags.t \
	t/0514-analyze-artefacts.t t/0520-analyze-bad-input.t t/0521-analyze-joblog-range.t \
	t/0530-analyze-foreign.t t/0540-analyze-paths.t t/0560-analyze-unit.t t/0562-analyze-tail-unit.t t/0590-analyze-native.t \
	t/0580-cyclictest-import.t t/0581-cyclictest-bad.t t/0582-cyclictest-analyze.t t/0583-analyze-run-facts.t \
	t/0600-check.t t/0610-check-bad.t t/0611-check-robust.t t/0612-check-bounds.t t/0620-check-prove.t \
	t/0630-check-cyclictest.t t/0635-check-analyze.t t/0640-bad-input-fuzz.t \
	t/0740-bench-unit.t t/0750-tlm-rx-unit.t t/0900-ci-stats.t

sysroot:
	@test -n "$(ARCH)" || { echo "preflight: sysroot: give ARCH=arm64 or ARCH=armhf" >&2; exit 2; }
	@scripts/make-sysroot $(ARCH) $(SYSROOT)

# cross-wrappers - build-<arch>/qemu/: a script per program and unit test that runs it
# under qemu-user with the sysroot's libraries; the tests find them as their build folder
cross-wrappers: all unit-tests
	@rm -rf $(B)/qemu && mkdir -p $(B)/qemu/t
	$(Q)for p in $(PROGRAMS) $(addprefix t/,$(UNIT_TESTS)); do \
		printf '#!/bin/sh\nexec %s -L %s %s "$$@"\n' "$(QEMU)" "$(SYSROOT)" "$(abspath $(B))/$$p" > $(B)/qemu/$$p && \
		chmod 755 $(B)/qemu/$$p || exit 4; done

# the native build comes first: t/0590 compares the target's analysis with it
check-cross:
	@test -n "$(ARCH)" || { echo "preflight: check-cross: give ARCH=arm64 or ARCH=armhf" >&2; exit 2; }
	@command -v $(QEMU) >/dev/null && command -v $(CROSS_COMPILE)gcc >/dev/null || \
		{ echo "preflight: check-cross: $(CROSS_COMPILE)gcc or $(QEMU) missing: run scripts/install-deps --cross" >&2; exit 3; }
	@scripts/make-sysroot $(ARCH) $(SYSROOT)
	@$(MAKE) --no-print-directory ARCH= CROSS_COMPILE= SYSROOT= all unit-tests
	@$(MAKE) --no-print-directory cross-wrappers
	PF_BUILD=$(abspath $(B))/qemu PF_NATIVE_BUILD=$(CURDIR)/build prove $(PROVE_FLAGS) $(CROSS_TESTS)

.PHONY: sysroot cross-wrappers check-cross
endif
