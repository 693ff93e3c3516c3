# audit-lib.sh - the leftover audit of the fault-injection tests, sourced after
# t/lib/test-lib.sh: what an integration test created must be gone when it ends.
#
#   audit_begin                 snapshot the machine state before the test
#   audit_own PID...            processes of this test (a run, a recorder): names carrying
#                               their pid (preflight-run-PID, pfwPID) are this test's
#   audit_end ID DESC           wait until no process of the test is left, snapshot again,
#                               and pass (TAP) when nothing the test created is left
#
# The state: tracefs instances, network namespaces, links, qdiscs, loop devices, mounts,
# /run/preflight/, processes, and temporary files (in /tmp, /dev/shm and under $TMP). Other
# tests run on this machine at the same time, so a difference counts only when it is this
# test's: it names one of the test's pids (audit_own, and every "pid N" / "process group N"
# of the run.log files under $TMP) or a path under $TMP. Anything else that appeared is
# foreign, shown as a diagnostic and never failed on.

AUDIT_DIR="$TMP/.audit"

# Every process this test starts, and theirs, inherits this mark in its environment: a process
# is this test's when its environment carries it, whatever its pid (pids recycle: with a
# pid_max of 32768 a full 'make check' wraps them, and another test's process may get a pid
# that one of this test's logged an hour ago).
export PF_AUDIT_MARK="$TMP"
AUDIT_SELF=$(ps -o args= -p $$)

# audit_state - the state, one "category item" per line, sorted
audit_state() {
	{
		ls /sys/kernel/tracing/instances 2>/dev/null | sed 's/^/instance /'
		ip netns list 2>/dev/null | awk '{ print "netns " $1 }'
		ip -o link show 2>/dev/null | awk -F': ' '{ sub(/@.*/, "", $2); print "link " $2 }'
		tc qdisc show 2>/dev/null | awk '{ print "qdisc " $0 }'
		losetup -a -n -O NAME,BACK-FILE 2>/dev/null | awk '{ print "loop " $0 }'
		awk '{ print "mount " $5 }' /proc/self/mountinfo
		find /run/preflight 2>/dev/null | sed 's/^/run /'
		ls -a /tmp /dev/shm 2>/dev/null | grep -v '^\.\{1,2\}$' | sed 's/^/tmp /'
		ps -eo pid=,pgid=,stat=,args= | awk '$3 !~ /^Z/ { print "proc " $0 }'
	} | sort -u
}

# audit_begin - the state before the test
audit_begin() {
	mkdir -p "$AUDIT_DIR"
	: > "$AUDIT_DIR/pids"
	audit_state > "$AUDIT_DIR/before"
}

# audit_own PID... - processes started by this test
audit_own() {
	for _p in "$@"; do echo "$_p"; done >> "$AUDIT_DIR/pids"
}

# audit_pids - every pid this test owns: audit_own's and those its runs logged, but those a
# process without the mark has now (recycled: another test's, a kernel thread's, or init's)
audit_pids() {
	{
		cat "$AUDIT_DIR/pids"
		find "$TMP" -name run.log -exec sed -n 's/.*pid \([0-9][0-9]*\).*/\1/p; s/.*process group \([0-9][0-9]*\).*/\1/p' {} + 2>/dev/null
	} | sort -un > "$AUDIT_DIR/logged"
	sed 's|.*|/proc/&/environ|' "$AUDIT_DIR/logged" | xargs -r grep -lzxF "PF_AUDIT_MARK=$TMP" 2>/dev/null |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' > "$AUDIT_DIR/marked"
	while read -r _p; do
		if [ ! -e "/proc/$_p" ] || grep -qxF "$_p" "$AUDIT_DIR/marked"; then echo "$_p"; fi
	done < "$AUDIT_DIR/logged"
}

# audit_mine - the lines of stdin that belong to this test (a pid of audit_pids or $TMP)
audit_mine() {
	_pat=$(audit_pids | awk 'NF { printf "%s%s", s, $1; s = "|" }')
	if [ -n "$_pat" ]; then
		grep -E -e "(^|[^0-9])($_pat)([^0-9]|\$)" -e "$TMP" || true
	else
		grep -F -e "$TMP" || true
	fi
}

# audit_procs - this test's processes still alive: the marked ones but the test's own shell
# and its subshells, and the audit's own tools
audit_procs() {
	_marked=$(grep -lzxF "PF_AUDIT_MARK=$TMP" /proc/[0-9]*/environ 2>/dev/null |
		sed -n 's|^/proc/\([0-9]*\)/environ$|\1|p' | paste -sd, -)
	[ -n "$_marked" ] || return 0
	ps -o pid=,pgid=,stat=,args= -p "$_marked" |
		awk -v self="$AUDIT_SELF" '{ a = $0; sub(/^ *[0-9]+ +[0-9]+ +[^ ]+ /, "", a) }
			$3 !~ /^Z/ && a != self' |
		grep -v -e 'audit_' -e ' ps -o' -e ' grep ' -e ' awk ' -e ' sort ' -e ' find ' -e ' sed ' \
			-e ' paste ' -e "$AUDIT_DIR" || true
}

# audit_left - what the test left: new state items of its own, and temporary files under $TMP
audit_left() {
	audit_state > "$AUDIT_DIR/after"
	comm -13 "$AUDIT_DIR/before" "$AUDIT_DIR/after" > "$AUDIT_DIR/new"
	grep -v '^proc ' "$AUDIT_DIR/new" | audit_mine
	audit_procs | sed 's/^/proc /'
	find "$TMP" \( -name '.preflight-record.*' -o -name '*.tmp' -o -name '.run-facts.*' \) \
		-not -path "$AUDIT_DIR/*" 2>/dev/null | sed 's/^/tmpfile /'
}

# audit_settled - no process of this test is left
audit_settled() {
	test -z "$(audit_procs)"
}

# audit_end ID DESC - nothing this test created is left (waits for its processes to end)
audit_end() {
	wait_for 90 audit_settled || true
	_left=$(audit_left)
	grep -v '^proc ' "$AUDIT_DIR/new" | audit_mine > "$AUDIT_DIR/own"
	grep -v '^proc ' "$AUDIT_DIR/new" | grep -vxF -f "$AUDIT_DIR/own" | grep -v '^tmp preflight-test\.' |
		head -5 | sed 's/^/# audit: not this test'"'"'s (ignored): /'
	is "$_left" "" "$1 $2"
}
