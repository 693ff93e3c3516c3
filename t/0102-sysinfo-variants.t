#!/bin/sh
# 0102-sysinfo-variants.t - each warning and each source of evidence, switched
# on and off by changing one thing in a copy of a fixture tree.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/sysinfo-lib.sh"
plan 40

CPU=sys/devices/system/cpu

# --- sysinfo-7.1: an unstable (fallback) clocksource
T=$(tree_copy desktop d1)
echo hpet > "$T/sys/devices/system/clocksource/clocksource0/current_clocksource"
survey "$T" d1
like "$(json_get "$TMP/d1.json" 'warnings.*.id')" " unstable_clocksource$" "sysinfo-7.1 hpet as clocksource: unstable_clocksource"
like "$(json_get "$TMP/d1.json" warnings.id=unstable_clocksource.message)" "clocksource is hpet" "sysinfo-7.2 message names the clocksource"

# --- sysinfo-7.3: the fully tuned board: throttling off leaves no warning at all
T=$(tree_copy rt-board r1)
echo -1 > "$T/proc/sys/kernel/sched_rt_runtime_us"
survey "$T" r1
is "$(json_get "$TMP/r1.json" 'warnings.*.id')" "" "sysinfo-7.3 sched_rt_runtime_us -1: no warnings"
is "$(json_get "$TMP/r1.json" rt_throttle.throttling) $(json_get "$TMP/r1.json" rt_throttle.runtime_us)" "false -1" \
	"sysinfo-7.4 throttling false, runtime -1"
run_cmd "$PREFLIGHT" sysinfo --root "$T"
is "$(printf '%s\n' "$out" | tail -n 1)" "warnings (0): none" "sysinfo-7.5 human table ends 'warnings (0): none'"
like "$out" "rt throttle +off" "sysinfo-7.6 human table: throttling off"

# --- sysinfo-7.7: PREEMPT_RT from the version string, then from the config alone
rm "$T/sys/kernel/realtime"
survey "$T" r2
is "$(json_get "$TMP/r2.json" kernel.preempt_model)/$(json_get "$TMP/r2.json" kernel.preempt_source)" rt/version \
	"sysinfo-7.7 no /sys/kernel/realtime: rt from the version string"
rm "$T/proc/sys/kernel/version" "$T/proc/version"
survey "$T" r3
is "$(json_get "$TMP/r3.json" kernel.preempt_model)/$(json_get "$TMP/r3.json" kernel.preempt_source)/$(json_get "$TMP/r3.json" kernel.preempt_rt)" \
	rt/config/true "sysinfo-7.8 no version either: rt from CONFIG_PREEMPT_RT"
rm "$T/proc/config.gz"
survey "$T" r4
is "$(json_get "$TMP/r4.json" kernel.preempt_rt) $(json_get "$TMP/r4.json" 'warnings.*.id')" "false not_preempt_rt" \
	"sysinfo-7.9 /sys/kernel without the realtime file (every RT kernel has it): not RT"

# --- sysinfo-7.10: the dynamic mode without debugfs: config default, then preempt=
T=$(tree_copy desktop d2)
rm "$T/sys/kernel/debug/sched/preempt"
survey "$T" d2
is "$(json_get "$TMP/d2.json" kernel.preempt_model)/$(json_get "$TMP/d2.json" kernel.preempt_source)" \
	dynamic:voluntary/config "sysinfo-7.10 no debugfs: the config's default mode"
like "$(json_get "$TMP/d2.json" notes)" "kernel.preempt_model: debugfs sched/preempt: No such file or directory; mode taken from the config" \
	"sysinfo-7.11 ... and a note says so"
echo "BOOT_IMAGE=/boot/vmlinuz ro quiet preempt=full" > "$T/proc/cmdline"
survey "$T" d3
is "$(json_get "$TMP/d3.json" kernel.preempt_model)/$(json_get "$TMP/d3.json" kernel.preempt_source)/$(json_get "$TMP/d3.json" kernel.cmdline_flags.preempt)" \
	dynamic:full/cmdline/full "sysinfo-7.12 preempt=full on the command line"

# --- sysinfo-7.13: isolation from isolcpus alone, from nohz_full alone
T=$(tree_copy desktop d4)
echo "ro quiet isolcpus=2-3" > "$T/proc/cmdline"
survey "$T" d4
ok "sysinfo-7.13 isolcpus=2-3: no no_isolated_cpus" sh -c '! echo "$1" | grep -q no_isolated_cpus' - "$(json_get "$TMP/d4.json" 'warnings.*.id')"
is "$(json_get "$TMP/d4.json" kernel.cmdline_flags.isolcpus.flags)" "" "sysinfo-7.14 isolcpus without flags: empty flags (kernel default domain)"
echo "ro quiet nohz_full=3 irqaffinity=1,0 rcu_nocbs=3,x" > "$T/proc/cmdline"
survey "$T" d5
ok "sysinfo-7.15 nohz_full=3 alone counts as isolation" sh -c '! echo "$1" | grep -q no_isolated_cpus' - "$(json_get "$TMP/d5.json" 'warnings.*.id')"
is "$(json_get "$TMP/d5.json" kernel.cmdline_flags.irqaffinity) $(json_get "$TMP/d5.json" kernel.cmdline_flags.rcu_nocbs)" "0-1 3,x" \
	"sysinfo-7.35 cpulist flags normalised; one that does not parse kept as given"

# --- sysinfo-7.16: governors mixed, idle states partly disabled
T=$(tree_copy desktop d6)
for c in 0 1 2; do echo performance > "$T/$CPU/cpu$c/cpufreq/scaling_governor"; done
echo schedutil > "$T/$CPU/cpu3/cpufreq/scaling_governor"
for c in 0 1 2 3; do for s in 3 4 5 6 7; do echo 1 > "$T/$CPU/cpu$c/cpuidle/state$s/disable"; done; done
echo 0 > "$T/$CPU/cpu1/cpuidle/state4/disable"
survey "$T" d6
like "$(json_get "$TMP/d6.json" warnings.id=governor_not_performance.message)" "^cpufreq governor schedutil on CPUs 3:" \
	"sysinfo-7.16 only the non-performance CPU is named"
is "$(json_get "$TMP/d6.json" warnings.id=deep_idle_states.message)" "enabled idle states exit slower than 10 us: C6 (85 us) on CPUs 1" \
	"sysinfo-7.17 only the deep state still enabled, on its CPU"
for c in 0 1 2 3; do echo 1 > "$T/$CPU/cpu$c/cpuidle/state4/disable"; echo performance > "$T/$CPU/cpu$c/cpufreq/scaling_governor"; done
survey "$T" d7
is "$(json_get "$TMP/d7.json" 'warnings.*.id')" "not_preempt_rt rt_throttling smt_enabled no_isolated_cpus swap_enabled" \
	"sysinfo-7.18 all deep states disabled, performance everywhere: those warnings gone"

# --- sysinfo-7.19: SMT from thread siblings when smt/ is missing; SMT off
T=$(tree_copy desktop d8)
rm -r "$T/$CPU/smt"
survey "$T" d8
is "$(json_get "$TMP/d8.json" cpus.smt)/$(json_get "$TMP/d8.json" cpus.smt_source)" true/thread_siblings \
	"sysinfo-7.19 no smt/: siblings '0,2' mean SMT on"
mkdir -p "$T/$CPU/smt" && echo 0 > "$T/$CPU/smt/active"
survey "$T" d9
ok "sysinfo-7.20 smt/active 0: no smt_enabled" sh -c '! echo "$1" | grep -q smt_enabled' - "$(json_get "$TMP/d9.json" 'warnings.*.id')"

# --- sysinfo-7.21: virtual machines by DMI, by /sys/hypervisor, by device tree
T=$(tree_copy desktop d10)
echo QEMU > "$T/sys/class/dmi/id/sys_vendor"
echo "Standard PC (Q35 + ICH9, 2009)" > "$T/sys/class/dmi/id/product_name"
survey "$T" d10
is "$(json_get "$TMP/d10.json" virtualization.virtualized)|$(json_get "$TMP/d10.json" virtualization.evidence)" \
	"true|dmi: QEMU Standard PC (Q35 + ICH9, 2009)" "sysinfo-7.21 QEMU by DMI without the cpu flag"
T=$(tree_copy desktop d11)
mkdir -p "$T/sys/hypervisor" && echo xen > "$T/sys/hypervisor/type"
survey "$T" d11
is "$(json_get "$TMP/d11.json" virtualization.evidence)" "/sys/hypervisor/type: xen" "sysinfo-7.22 Xen by /sys/hypervisor"
T=$(tree_copy rt-board r5)
mkdir -p "$T/proc/device-tree/hypervisor"
survey "$T" r5
like "$(json_get "$TMP/r5.json" 'warnings.*.id')" "virtualized" "sysinfo-7.23 arm64 guest by its device-tree hypervisor node"

# --- sysinfo-7.24: swap off; tracefs missing; config as /proc/config.gz wins over /boot
T=$(tree_copy desktop d12)
sed -i 's/^SwapTotal:.*/SwapTotal:             0 kB/' "$T/proc/meminfo"
head -n 1 "$FIX/desktop/proc/swaps" > "$T/proc/swaps"
gzip -c "$T/boot/config-6.1.0-18-amd64" > "$T/proc/config.gz"
survey "$T" d12
ok "sysinfo-7.24 no swap: no swap_enabled" sh -c '! echo "$1" | grep -q swap_enabled' - "$(json_get "$TMP/d12.json" 'warnings.*.id')"
is "$(json_get "$TMP/d12.json" kernel.config_source) $(json_get "$TMP/d12.json" kernel.hz)" "/proc/config.gz 250" \
	"sysinfo-7.25 /proc/config.gz preferred over /boot"
T=$(tree_copy rt-board r6)
rm -r "$T/sys/kernel/tracing"
sed -i '/tracefs/d' "$T/proc/mounts"
survey "$T" r6
is "$(json_get "$TMP/r6.json" 'warnings.*.id')" "rt_throttling tracefs_unavailable" "sysinfo-7.26 no tracefs: tracefs_unavailable"
is "$(json_get "$TMP/r6.json" tracefs.reason)" "it is not mounted" "sysinfo-7.27 ... with the reason"
T=$(tree_copy rt-board r7)
rm -r "$T/sys/kernel/tracing/instances"
survey "$T" r7
is "$(json_get "$TMP/r7.json" tracefs.usable)/$(json_get "$TMP/r7.json" tracefs.reason)" \
	"false/instances/ is missing or not writable" "sysinfo-7.28 tracefs without instances/ is not usable"

# --- sysinfo-7.29: tracefs mounted elsewhere (proc/mounts) is found there
T=$(tree_copy rt-board r8)
mkdir -p "$T/mnt" && mv "$T/sys/kernel/tracing" "$T/mnt/trace"
sed -i 's|/sys/kernel/tracing|/mnt/trace|' "$T/proc/mounts"
survey "$T" r8
is "$(json_get "$TMP/r8.json" tracefs.path)/$(json_get "$TMP/r8.json" tracefs.usable)" "/mnt/trace/true" \
	"sysinfo-7.29 tracefs found at its mount point in proc/mounts"
is "$(json_get "$TMP/r8.json" 'warnings.*.id')" "rt_throttling" "sysinfo-7.30 ... and usable there"

# --- sysinfo-7.31: the fair deadline server of Linux 6.12+ throttles realtime tasks too
T=$(tree_copy desktop d13)
echo -1 > "$T/proc/sys/kernel/sched_rt_runtime_us"
for c in 0 1 2 3; do
	mkdir -p "$T/sys/kernel/debug/sched/fair_server/cpu$c"
	echo 50000000 > "$T/sys/kernel/debug/sched/fair_server/cpu$c/runtime"
	echo 1000000000 > "$T/sys/kernel/debug/sched/fair_server/cpu$c/period"
done
echo 0 > "$T/sys/kernel/debug/sched/fair_server/cpu2/runtime"
echo 0 > "$T/sys/kernel/debug/sched/fair_server/cpu3/runtime"
survey "$T" d13
is "$(json_get "$TMP/d13.json" rt_throttle.fair_server)" '{"cpus":"0-1","period_ns":1000000000,"runtime_ns":50000000}' \
	"sysinfo-7.31 fair server read from debugfs, on for CPUs 0-1"
is "$(json_get "$TMP/d13.json" warnings.id=rt_throttling.message)" \
	"the fair deadline server may run starved normal tasks for 50000 us of every 1000000 us ahead of realtime tasks on CPUs 0-1" \
	"sysinfo-7.32 sysctl off but fair server on: rt_throttling names the fair server"
for c in 0 1; do echo 0 > "$T/sys/kernel/debug/sched/fair_server/cpu$c/runtime"; done
survey "$T" d14
ok "sysinfo-7.33 fair server off everywhere and sysctl -1: no rt_throttling" \
	sh -c '! echo "$1" | grep -q rt_throttling' - "$(json_get "$TMP/d14.json" 'warnings.*.id')"
echo 6.12.0-rt5 > "$T/proc/sys/kernel/osrelease"
rm -r "$T/sys/kernel/debug/sched/fair_server"
survey "$T" d15
like "$(json_get "$TMP/d15.json" notes)" "rt_throttle.fair_server: debugfs sched/fair_server/cpu0/runtime: No such file" \
	"sysinfo-7.34 a 6.12+ kernel whose fair server cannot be read gets a note"
# --- sysinfo-7.35: an emulated CPU: scripts/target-boot's mark on the command line, an ARM virt board
T=$(tree_copy rt-board r9)
printf 'linux,dummy-virt\0' > "$T/proc/device-tree/compatible"
echo "console=ttyAMA0 root=/dev/vda rw preflight.emulated=tcg" > "$T/proc/cmdline"
survey "$T" r9
is "$(json_get "$TMP/r9.json" virtualization.virtualized)/$(json_get "$TMP/r9.json" virtualization.evidence)" \
	"true/device tree: linux,dummy-virt (qemu's virt board)" "sysinfo-7.35 qemu's virt board: virtualized, from its device tree"
is "$(json_get "$TMP/r9.json" virtualization.emulated)/$(json_get "$TMP/r9.json" virtualization.emulation_evidence)" \
	"true/kernel command line: preflight.emulated=tcg" "sysinfo-7.36 preflight.emulated=tcg: emulated, the command line as evidence"
like "$(json_get "$TMP/r9.json" warnings.id=emulated_cpu.message)" "^the CPU is emulated .*functional evidence only, not evidence of the board's latency" \
	"sysinfo-7.37 ... and the high emulated_cpu warning says timings are functional evidence only"
echo "console=ttyAMA0 root=/dev/vda rw" > "$T/proc/cmdline"
survey "$T" r10
is "$(json_get "$TMP/r10.json" virtualization.emulated)/$(json_get "$TMP/r10.json" 'warnings.*.id')" "null/rt_throttling virtualized" \
	"sysinfo-7.38 the virt board without the mark: emulated unknown (KVM or TCG), no emulated_cpu warning"
rm "$T/proc/device-tree/compatible"
survey "$T" r11
is "$(json_get "$TMP/r11.json" virtualization.emulated)" "false" "sysinfo-7.39 a board, not virtualized: not emulated"
done_testing
