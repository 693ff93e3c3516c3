# sysinfo-lib.sh - helpers shared by the t/01NN-sysinfo-*.t tests (sourced
# after test-lib.sh): survey a tree into a JSON file, check it is a survey,
# copy a fixture tree to change it. Values are read with json_get.

FIX="$TOP/t/fixtures/sysinfo"

# survey ROOT NAME - 'preflight sysinfo --json --root ROOT' into $TMP/NAME.json ($rc, $err)
survey() {
	run_cmd "$PREFLIGHT" sysinfo --json --root "$1" -o "$TMP/$2.json"
	[ "$rc" -eq 0 ] || echo "# survey of $1: exit $rc: $err"
}

# valid_json FILE - succeeds when FILE is one JSON object with the sysinfo schema and its
# warnings and notes arrays
valid_json() {
	json_get "$1" schema warnings notes | tr '\n' ' ' | grep -Eq '^preflight-sysinfo/1 \[.*\] \[.*\] $'
}

# tree_copy NAME NEW - copy fixture tree NAME to $TMP/NEW and print its path
tree_copy() {
	rm -rf "$TMP/$2"
	cp -a "$FIX/$1" "$TMP/$2"
	echo "$TMP/$2"
}

# The fields every survey has: json_get FILE $SYSINFO_FIELDS succeeds (docs/sysinfo.md).
SYSINFO_FIELDS="schema hostname kernel.release kernel.version kernel.preempt_model kernel.preempt_rt
	kernel.hz kernel.config_source kernel.cmdline kernel.cmdline_flags cpus.online cpus.model cpus.smt
	cpus.per_cpu clocksource.current clocksource.available rt_throttle.runtime_us rt_throttle.period_us
	tracefs.path tracefs.usable memory.total_kb memory.swap.total_kb virtualization.virtualized
	virtualization.hypervisor_flag virtualization.sys_vendor virtualization.product_name warnings notes"
