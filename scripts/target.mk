# scripts/target.mk - the emulated target boards (docs/target.md): guest images
# from Debian packages, and preflight qualified on them under qemu-system.
#
#   make check-target ARCH=amd64 [FLAVOUR=rt] [SMP=2] [SUITE=full]
#       the guest image (scripts/target-image, cached in $PREFLIGHT_CACHE), the
#       builds, then in the guest: sysinfo, TARGET_TESTS (SUITE=full, the
#       default), the quick selftest, the target-smoke qualification; here: the
#       report and the re-analysis of the guest's trace (scripts/target-check)
#   make check-target-all
#       amd64, arm64 and armhf PREEMPT_RT guests with 2 CPUs, and armhf with 1
#   make target-image ARCH=arm64 [FLAVOUR=rt]
#       only the image
#   make check-fleet
#       preflight's LAVA job run by Debian's lava-dispatcher on the amd64 RT
#       guest (scripts/lava-check, t/fleet/; docs/fleet.md)
#
# ARCH here names the guest; the build for it is the cross build of
# scripts/cross.mk (amd64 is this machine's own).

FLAVOUR ?= rt
SMP     ?= 2
SUITE   ?= full
TARGET_ARCH_LIST := amd64 arm64 armhf

# The tests that need a target kernel (tracefs, realtime priorities, runs): the
# ones check-cross cannot run under qemu-user; run as root in the guest.
TARGET_TESTS := \
	t/0105-sysinfo-live.t t/0220-flightapp-run.t t/0230-flightapp-rt.t t/0235-flightapp-dma-latency.t \
	t/0240-flightapp-overrun.t t/0250-flightapp-util.t t/0260-flightapp-markers.t \
	t/0270-flightapp-ring.t t/0340-fly-realtime.t t/0341-sim-links.t \
	t/0410-record-sleep.t t/0415-record-wakeups.t t/0420-record-flightapp.t t/0430-record-lost.t \
	t/0440-record-signals.t t/0445-record-start.t t/0450-record-flight.t t/0470-record-cpus.t \
	t/0513-analyze-lost-count.t t/0550-analyze-live.t t/0584-analyze-cyclictest-trace.t \
	t/0710-loads.t t/0711-load-samples.t t/0725-run-precheck.t t/0730-interrupt.t \
	t/0736-run-cyclictest-trace.t t/0752-run-telemetry.t t/0760-run-observer.t \
	t/0771-selftest-live.t t/0780-fault-kill.t t/0781-fault-disk.t t/0782-fault-env.t

# the image and its guest need root (mmdebstrap, 9p) and the emulators
target-deps:
	@scripts/install-deps --cross --target

target-image: target-deps
	@scripts/target-image $(GUEST_ARCH) $(FLAVOUR) $${PREFLIGHT_CACHE:-/var/cache/preflight}/target/$(GUEST_ARCH)-$(FLAVOUR)

check-target: target-deps
	@test -n "$(GUEST_ARCH)" || { echo "preflight: check-target: give ARCH=amd64, arm64 or armhf" >&2; exit 2; }
	@# this machine's own build re-analyses and reports the guest's run: never a stale one
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all ARCH=
	@TARGET_TESTS="$(TARGET_TESTS)" scripts/target-check --smp $(SMP) --suite $(SUITE) $(GUEST_ARCH) $(FLAVOUR)

check-target-all: target-deps
	@rc=0; for a in $(TARGET_ARCH_LIST); do \
		TARGET_TESTS="$(TARGET_TESTS)" scripts/target-check --smp 2 --suite $(SUITE) $$a rt || rc=1; done; \
	scripts/target-check --smp 1 --suite smoke armhf rt || rc=1; exit $$rc

# the fleet: a real LAVA dispatcher (scripts/lava-root) runs ci/lava/qemu-job.yaml on the amd64 guest
check-fleet: target-deps
	@$(MAKE) $(BUILD_JOBS) --no-print-directory all ARCH=
	@prove $(PROVE_FLAGS) t/fleet/*.t

.PHONY: target-deps target-image check-target check-target-all check-fleet
