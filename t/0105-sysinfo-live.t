#!/bin/sh
# 0105-sysinfo-live.t - 'preflight sysinfo' on this machine: runs, valid JSON
# with every field, consistent with uname / nproc / the realtime file, and
# (as root) leaves no private mount, temp dir or tracefs instance behind.
. "$(dirname "$0")/lib/test-lib.sh"
. "$TOP/t/lib/sysinfo-lib.sh"
plan 18

leftovers() {
	{ grep -E 'preflight-(debugfs|tracefs)\.' /proc/mounts
	  ls -d "${TMPDIR:-/tmp}"/preflight-debugfs.* "${TMPDIR:-/tmp}"/preflight-tracefs.* /tmp/preflight-debugfs.* \
		/tmp/preflight-tracefs.* /sys/kernel/tracing/instances/preflight-sysinfo-* 2>/dev/null; } | sort -u
}
before=$(leftovers)

run_cmd "$PREFLIGHT" sysinfo --json -o "$TMP/live.json"
J="$TMP/live.json"
is "$rc:$err" "0:" "sysinfo-10.1 this machine: exit 0, nothing on stderr"
ok "sysinfo-10.2 valid JSON with the schema" valid_json "$J"
ok "sysinfo-10.3 every required field is present" json_get "$J" $SYSINFO_FIELDS
is "$(json_get "$J" kernel.release)" "$(uname -r)" "sysinfo-10.4 release is uname -r"
is "$(json_get "$J" kernel.version)" "$(uname -v)" "sysinfo-10.5 version is uname -v"
is "$(json_get "$J" hostname)" "$(uname -n)" "sysinfo-10.6 hostname is uname -n"
is "$(json_get "$J" cpus.online_count)" "$(getconf _NPROCESSORS_ONLN)" "sysinfo-10.7 online CPUs as getconf counts them"

rt=false
[ "$(cat /sys/kernel/realtime 2>/dev/null)" = 1 ] && rt=true
is "$(json_get "$J" kernel.preempt_rt)" "$rt" "sysinfo-10.8 preempt_rt agrees with /sys/kernel/realtime"
model=$(json_get "$J" kernel.preempt_model)
case "$rt:$(uname -v)" in
true:*) want='^rt$' ;;
*PREEMPT_DYNAMIC*) want='^dynamic:(none|voluntary|full|lazy)$' ;;
*) want='^(none|voluntary|full|lazy|null)$' ;;
esac
like "$model" "$want" "sysinfo-10.9 preemption model '$model' fits the version string"

unknown=
for id in $(json_get "$J" 'warnings.*.id'); do
	case " not_preempt_rt rt_throttling governor_not_performance smt_enabled no_isolated_cpus swap_enabled
		deep_idle_states virtualized emulated_cpu tracefs_unavailable unstable_clocksource " in
	*[[:space:]]"$id"[[:space:]]*) ;;
	*) unknown="$unknown $id" ;;
	esac
done
is "$unknown" "" "sysinfo-10.10 every warning id is a documented one"

run_cmd "$PREFLIGHT" sysinfo
is "$rc" 0 "sysinfo-10.11 the table: exit 0"
last_row=$(printf '%s\n' "$out" | grep -n '^virtualized ' | cut -d: -f1)
warn_row=$(printf '%s\n' "$out" | grep -n '^warnings (' | cut -d: -f1)
ok "sysinfo-10.12 the table: rows first, warnings last" test "${last_row:-99}" -lt "${warn_row:-0}"

if ! test_have_prereq ROOT; then
	skip sysinfo-10.13
	is "$(json_get "$J" tracefs.usable)" false "sysinfo-10.14 not root: tracefs not usable"
	skip "sysinfo-10.15 sysinfo-10.16 sysinfo-10.17 sysinfo-10.18"
	done_testing
fi
is "$(leftovers)" "$before" "sysinfo-10.13 no private mount, temp dir or tracefs instance left behind"
if ! grep -qw tracefs /proc/filesystems; then
	is "$(json_get "$J" tracefs.usable)" false "sysinfo-10.14 no tracefs in the kernel: not usable"
	skip "sysinfo-10.15 sysinfo-10.16" "no tracefs in this kernel"
else
	is "$(json_get "$J" tracefs.usable)" true "sysinfo-10.14 as root with tracefs in the kernel: tracefs usable"
	# In a private mount namespace without tracefs and debugfs mounted, the survey
	# mounts them privately, tries them and unmounts them again.
	if unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing /sys/kernel/debug/tracing /sys/kernel/debug 2>/dev/null
		"$1" sysinfo --json -o "$2/ns.json" && grep -E "tracefs|debugfs" /proc/mounts > "$2/ns.mounts"
		exit 0' - "$PREFLIGHT" "$TMP"; then
		is "$(json_get "$TMP/ns.json" tracefs.mounted)/$(json_get "$TMP/ns.json" tracefs.usable)" false/true \
			"sysinfo-10.15 tracefs not mounted: tried on a private mount, usable"
		is "$(cat "$TMP/ns.mounts")" "" "sysinfo-10.16 ... and nothing is left mounted"
	else
		skip "sysinfo-10.15 sysinfo-10.16" "unshare -m is not permitted"
	fi
fi
# a copy the unprivileged user can execute wherever the checkout is (a 0700 home, say)
chmod 755 "$TMP" && cp "$PREFLIGHT" "$TMP/preflight" && chmod 755 "$TMP/preflight"
setpriv --reuid=65534 --regid=65534 --clear-groups "$TMP/preflight" sysinfo --json > "$TMP/user.json" 2> "$TMP/user.err"
is "$?:$(cat "$TMP/user.err")" "0:" "sysinfo-10.17 as an unprivileged user: exit 0"
is "$(json_get "$TMP/user.json" tracefs.usable)" false "sysinfo-10.18 ... tracefs not usable for that user"
done_testing
