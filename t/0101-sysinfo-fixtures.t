#!/bin/sh
# 0101-sysinfo-fixtures.t - 'preflight sysinfo --root' on the three fixture
# trees (t/fixtures/sysinfo/README.md): exactly the expected warnings and the
# key fields of a tuned PREEMPT_RT board, a stock desktop and a bare container.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/sysinfo-lib.sh"
plan 58

# --- sysinfo-4: the PREEMPT_RT board (arm64, CPUs 2-3 isolated, performance governor)
survey "$FIX/rt-board" rt
J="$TMP/rt.json"
is "$rc" 0 "sysinfo-4.1 rt-board: exit 0"
ok "sysinfo-4.2 rt-board: valid JSON with the schema" valid_json "$J"
is "$(json_get "$J" 'warnings.*.id')" "rt_throttling" "sysinfo-4.3 rt-board: only the rt_throttling warning"
is "$(json_get "$J" kernel.preempt_model)" rt "sysinfo-4.4 preemption model rt"
is "$(json_get "$J" kernel.preempt_rt)/$(json_get "$J" kernel.preempt_source)" true/realtime \
	"sysinfo-4.5 PREEMPT_RT true, from /sys/kernel/realtime"
is "$(json_get "$J" kernel.hz)/$(json_get "$J" kernel.config_source)" 1000//proc/config.gz \
	"sysinfo-4.6 HZ 1000 from the gzip'd /proc/config.gz"
is "$(json_get "$J" kernel.config.CONFIG_PREEMPT_RT)/$(json_get "$J" kernel.config.CONFIG_PREEMPT_DYNAMIC)" y/n \
	"sysinfo-4.7 config options y and 'is not set'"
is "$(json_get "$J" kernel.cmdline_flags.isolcpus)" '{"cpus":"2-3","flags":"managed_irq,domain","raw":"managed_irq,domain,2-3"}' \
	"sysinfo-4.8 isolcpus parsed into flags and cpus"
is "$(json_get "$J" kernel.cmdline_flags.nohz_full) $(json_get "$J" kernel.cmdline_flags.rcu_nocbs) $(json_get "$J" kernel.cmdline_flags.irqaffinity) $(json_get "$J" kernel.cmdline_flags.threadirqs)" \
	"2-3 2-3 0-1 true" "sysinfo-4.9 nohz_full, rcu_nocbs, irqaffinity, threadirqs"
is "$(json_get "$J" kernel.cmdline_flags.idle) $(json_get "$J" kernel.cmdline_flags.mitigations)" "null null" \
	"sysinfo-4.10 absent flags are null"
is "$(json_get "$J" cpus.online) $(json_get "$J" cpus.online_count) $(json_get "$J" cpus.isolated) $(json_get "$J" cpus.nohz_full)" \
	"0-3 4 2-3 2-3" "sysinfo-4.11 online, count, isolated, nohz_full"
is "$(json_get "$J" cpus.model)|$(json_get "$J" cpus.board)" "Cortex-A72|Raspberry Pi 4 Model B Rev 1.4" \
	"sysinfo-4.12 arm64 core from implementer/part, board from the device tree"
is "$(json_get "$J" cpus.smt)/$(json_get "$J" cpus.smt_source)" false/thread_siblings \
	"sysinfo-4.13 no smt/ directory: SMT off from thread_siblings_list"
is "$(json_get "$J" cpus.per_cpu.3.governor) $(json_get "$J" cpus.per_cpu.3.cpu)" "performance 3" \
	"sysinfo-4.14 per-CPU governor"
is "$(json_get "$J" cpus.per_cpu.2.idle_states)" '[{"disabled":false,"latency_us":1,"name":"WFI"}]' \
	"sysinfo-4.15 per-CPU idle states"
is "$(json_get "$J" clocksource.current) $(json_get "$J" clocksource.available)" 'arch_sys_counter ["arch_sys_counter"]' \
	"sysinfo-4.16 clocksource current and available"
is "$(json_get "$J" rt_throttle)" '{"fair_server":null,"period_us":1000000,"runtime_us":950000,"throttling":true}' \
	"sysinfo-4.17 rt throttling values"
is "$(json_get "$J" tracefs.mounted)/$(json_get "$J" tracefs.usable)/$(json_get "$J" tracefs.path)" \
	"true/true//sys/kernel/tracing" "sysinfo-4.18 tracefs mounted and usable"
is "$(json_get "$J" memory.total_kb) $(json_get "$J" memory.swap.total_kb) $(json_get "$J" memory.swap.devices)" \
	"3881060 0 []" "sysinfo-4.19 memory, no swap"
is "$(json_get "$J" virtualization.virtualized)" false "sysinfo-4.20 device tree without hypervisor node: not virtualized"
is "$(json_get "$J" hostname) $(json_get "$J" kernel.arch) $(json_get "$J" kernel.release)" \
	"fc-bench-01 aarch64 6.1.0-21-rt-arm64" "sysinfo-4.21 hostname, arch, release"
is "$(json_get "$J" notes)" "[]" "sysinfo-4.22 nothing missing: no notes"
run_cmd "$PREFLIGHT" sysinfo --root "$FIX/rt-board"
like "$out" "preemption +rt \(from realtime\), PREEMPT_RT yes" "sysinfo-4.23 human table: preemption row"
warn=$(printf '%s\n' "$out" | sed -n '/^warnings (/,$p')
is "$(printf '%s\n' "$warn" | head -n 1)|$(printf '%s\n' "$warn" | sed 1d | grep -vc '^  ')" "warnings (1)|0" \
	"sysinfo-4.24 human table: the warnings come last"
like "$(printf '%s\n' "$warn" | sed -n 2p)" "^  medium  rt_throttling +realtime throttling is on" \
	"sysinfo-4.25 human table: severity, id, message"

# --- sysinfo-5: the stock desktop kernel (x86-64 laptop, nothing tuned)
survey "$FIX/desktop" desk
J="$TMP/desk.json"
is "$rc" 0 "sysinfo-5.1 desktop: exit 0"
is "$(json_get "$J" 'warnings.*.id')" \
	"not_preempt_rt rt_throttling governor_not_performance smt_enabled no_isolated_cpus deep_idle_states swap_enabled" \
	"sysinfo-5.2 desktop: exactly the seven expected warnings"
is "$(json_get "$J" kernel.preempt_model)/$(json_get "$J" kernel.preempt_source)" dynamic:voluntary/debugfs \
	"sysinfo-5.3 dynamic model read from debugfs '(voluntary)'"
is "$(json_get "$J" kernel.preempt_rt) $(json_get "$J" kernel.preempt_dynamic) $(json_get "$J" kernel.realtime_file)" \
	"false true false" "sysinfo-5.4 not RT, dynamic, no /sys/kernel/realtime"
is "$(json_get "$J" kernel.config_source) $(json_get "$J" kernel.hz)" "/boot/config-6.1.0-18-amd64 250" \
	"sysinfo-5.5 no /proc/config.gz: /boot/config-<release> used"
is "$(json_get "$J" kernel.cmdline_flags.isolcpus) $(json_get "$J" kernel.cmdline_flags.threadirqs)" "null false" \
	"sysinfo-5.6 no isolcpus, no threadirqs"
is "$(json_get "$J" cpus.smt)/$(json_get "$J" cpus.smt_source)/$(json_get "$J" cpus.smt_control)" true/smt/active/on \
	"sysinfo-5.7 SMT active"
is "$(json_get "$J" cpus.per_cpu.0.governor) $(json_get "$J" cpus.per_cpu.1.freq_driver)" "powersave intel_pstate" \
	"sysinfo-5.8 governor and driver"
is "$(json_get "$J" cpus.per_cpu.3.idle_states.8)" '{"disabled":true,"latency_us":890,"name":"C10"}' \
	"sysinfo-5.9 a disabled idle state"
msg=$(json_get "$J" warnings.id=deep_idle_states.message)
like "$msg" "C3 \(70 us\) on CPUs 0-3, C6 \(85 us\).*C9 \(480 us\) on CPUs 0-3$" \
	"sysinfo-5.10 deep idle: states above 10 us with their CPUs"
ok "sysinfo-5.11 deep idle: C1E (10 us) and the disabled C10 not counted" \
	sh -c '! printf "%s" "$1" | grep -Eq "C1E|C10"' - "$msg"
is "$(json_get "$J" warnings.id=governor_not_performance.message)" \
	"cpufreq governor powersave on CPUs 0-3: frequency changes add wake-up latency and vary execution time" \
	"sysinfo-5.12 governor warning names governor and CPUs"
is "$(json_get "$J" clocksource.available)" '["tsc","hpet","acpi_pm"]' "sysinfo-5.13 available clocksources"
is "$(json_get "$J" memory.swap.devices.0.name) $(json_get "$J" memory.swap.total_kb)" "/dev/nvme0n1p3 999420" \
	"sysinfo-5.14 swap device and size"
is "$(json_get "$J" virtualization.virtualized) $(json_get "$J" virtualization.sys_vendor)" "false LENOVO" \
	"sysinfo-5.15 bare metal by flags and DMI"
is "$(json_get "$J" tracefs.usable) $(json_get "$J" notes)" "true []" "sysinfo-5.16 tracefs usable, no notes"
ok "sysinfo-5.17 every warning has id, severity (high/medium/low), message, advice" perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $v = JSON::PP->new->decode(<$f>);
	for my $w (@{ $v->{warnings} }) {
		$w->{severity} =~ /^(high|medium|low)$/ or die "severity $w->{severity}\n";
		length $w->{$_} or die "$w->{id}: empty $_\n" for qw(id message advice);
	}' "$J"
is "$(json_get "$J" warnings.id=not_preempt_rt.severity) $(json_get "$J" warnings.id=swap_enabled.severity)" "high low" \
	"sysinfo-5.18 severities as documented"

# --- sysinfo-6: the minimal container tree (no sys/, little of proc/)
survey "$FIX/container" cont
J="$TMP/cont.json"
is "$rc" 0 "sysinfo-6.1 container: exit 0"
ok "sysinfo-6.2 container: valid JSON" valid_json "$J"
is "$(json_get "$J" 'warnings.*.id')" "not_preempt_rt virtualized tracefs_unavailable" \
	"sysinfo-6.3 container: only what the evidence shows"
is "$(json_get "$J" kernel.release)" "5.15.0-1057-azure" "sysinfo-6.4 release from /proc/version"
is "$(json_get "$J" kernel.version)" "#65-Ubuntu SMP Tue Feb 13 19:10:09 UTC 2024" "sysinfo-6.5 version string from /proc/version"
is "$(json_get "$J" kernel.preempt_model) $(json_get "$J" kernel.preempt_rt) $(json_get "$J" kernel.hz)" "null false null" \
	"sysinfo-6.6 no config: model and HZ unknown, no PREEMPT_RT in the version"
is "$(json_get "$J" kernel.cmdline) $(json_get "$J" kernel.cmdline_flags) $(json_get "$J" kernel.config_source)" "null null null" \
	"sysinfo-6.7 cmdline and config unknown"
is "$(json_get "$J" cpus.online) $(json_get "$J" cpus.smt) $(json_get "$J" cpus.isolated)" "0-1 null null" \
	"sysinfo-6.8 CPUs counted from cpuinfo, SMT and isolation unknown"
is "$(json_get "$J" cpus.per_cpu.1.governor) $(json_get "$J" cpus.per_cpu.1.idle_states)" "null null" \
	"sysinfo-6.9 per-CPU governor and idle states unknown"
is "$(json_get "$J" clocksource.current) $(json_get "$J" rt_throttle.runtime_us) $(json_get "$J" rt_throttle.throttling)" \
	"null null null" "sysinfo-6.10 clocksource and throttling unknown"
is "$(json_get "$J" tracefs.mounted) $(json_get "$J" tracefs.usable)" "false false" "sysinfo-6.11 tracefs not usable"
is "$(json_get "$J" virtualization.container) $(json_get "$J" virtualization.evidence)" "docker hypervisor cpu flag" \
	"sysinfo-6.12 docker container on a VM"
like "$(json_get "$J" notes)" '"kernel.cmdline: /proc/cmdline: No such file or directory"' \
	"sysinfo-6.13 a note per missing file, naming field, file and reason"
ok "sysinfo-6.14 most scalar fields are unknown (null)" perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $v = JSON::PP->new->decode(<$f>);
	my ($n, $null) = (0, 0);
	sub walk { my $x = shift; if (ref $x eq "HASH") { walk($_) for values %$x }
		   elsif (ref $x eq "ARRAY") { walk($_) for @$x } else { $n++; $null++ unless defined $x } }
	walk($v->{$_}) for qw(kernel cpus clocksource rt_throttle);
	print "$null of $n null\n"; $null * 2 > $n or die "only $null of $n null\n";' "$J"
run_cmd "$PREFLIGHT" sysinfo --root "$FIX/container"
like "$out" "clocksource +unknown" "sysinfo-6.15 human table says unknown"
done_testing
