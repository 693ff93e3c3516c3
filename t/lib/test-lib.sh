# test-lib.sh - the shared helper of preflight's shell tests (TAP for prove).
#
# A test script starts with
#   . "$(dirname "$0")/lib/test-lib.sh"
#   plan 3
# and uses ok / is / like / run_cmd / json_get, and need / test_have_prereq / skip for
# what it requires.
# Descriptions start with a test id ('sysinfo-2.3') so a failure names its case.
# A failing command's output is shown as '# ' diagnostics.
#
# Requirements (root, tracefs, realtime priorities, a command, a built program)
# are prerequisites: 'need PREREQ...' skips the script with a reason when one is
# missing (skip_all REASON for any other), 'test_have_prereq' + 'skip IDS' skip
# some of its tests; under CI=true a missing requirement fails instead. Tests
# wait for conditions (wait_for), never for times.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$TOP/Makefile" ] || TOP=$(cd "$TOP/.." && pwd)	# a test one folder further down (t/fleet/)
B="${PF_BUILD:-$TOP/build}"	# PF_BUILD: another build folder (make check SANITIZE=..., make check-cross)
PREFLIGHT="$B/preflight"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-test.XXXXXX")
# PF_KEEP_FAILED=DIR: a script with a failed test leaves its files (traces, results) in
# DIR/NAME-PID before they go (scripts/target-suite: a guest's failure is not repeatable)
_cleanup() {
	if [ "$_failed" -gt 0 ] && [ -n "${PF_KEEP_FAILED:-}" ] && mkdir -p "$PF_KEEP_FAILED"; then
		cp -a "$TMP" "$PF_KEEP_FAILED/$(basename "$0" .t)-$$" 2>/dev/null ||
			echo "# PF_KEEP_FAILED: could not keep all of $TMP in $PF_KEEP_FAILED"
	fi
	rm -rf "$TMP"
}
trap '_cleanup' EXIT
# one 'preflight run' at a time per test script, not per machine: other test suites run here too
export PREFLIGHT_RUN_LOCK="$TMP/run.lock"
_n=0
_failed=0
_planned=0

plan() { _planned=$1; echo "1..$1"; }

# ok COND-STATUS DESC - report a test from the status of the last command
_report() {
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
	fi
	return "$1"
}

# ok DESC CMD... - passes when the command succeeds; shows its output when it fails (on stderr, as
# is and like do: prove shows a failure's diagnostics without -v, CI's log keeps them)
ok() {
	_desc=$1; shift
	if "$@" >"$TMP/.out" 2>&1; then
		_report 0 "$_desc"
	else
		_report 1 "$_desc"
		{ echo "#   command: $*"; sed 's/^/#   /' "$TMP/.out" | head -40; } >&2
		return 1
	fi
}

# is GOT EXPECTED DESC - string equality, shows both sides on failure
is() {
	if [ "$1" = "$2" ]; then
		_report 0 "$3"
	else
		_report 1 "$3"
		printf "#   got:      '%s'\n#   expected: '%s'\n" "$1" "$2" >&2
		return 1
	fi
}

# like GOT REGEX DESC - extended regular expression match (grep -E): on a GOT of several
# lines it passes when any one line matches, ^ and $ being a line's ends; to hold a whole
# multi-line GOT to a pattern, join its lines first (or compare with is)
like() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		_report 0 "$3"
	else
		_report 1 "$3"
		printf "#   got:          '%s'\n#   expected to match: '%s'\n" "$1" "$2" >&2
		return 1
	fi
}

# run_cmd CMD... - run, keeping stdout in $out, stderr in $err, status in $rc
run_cmd() {
	"$@" >"$TMP/.stdout" 2>"$TMP/.stderr"
	rc=$?
	out=$(cat "$TMP/.stdout")
	err=$(cat "$TMP/.stderr")
}

# skip_all REASON - a requirement of the whole script is missing: skip it, or fail under CI=true
skip_all() {
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - requirement missing under CI=true: $1"
		exit 1
	fi
	echo "1..0 # SKIP $1"
	exit 0
}

# Prerequisites (git's test_have_prereq), each with the reason given when it is missing:
#   ROOT          running as root
#   TRACEFS       root, tracefs mounted (mounted here if need be) with writable instances/; sets TRACEFS
#   RT            root, and SCHED_FIFO may be set
#   CPUS2         at least two CPUs online
#   CMD:name      the command is on PATH
#   PERL:Module   the perl module loads
#   BUILT:prog    build/prog is built (make builds it)
#   FILE:path     the file is readable
#   USER:name     the user exists
# test_have_prereq PREREQ... - succeeds when all are met, else sets prereq_why to the first missing
test_have_prereq() {
	prereq_why=
	for _q in "$@"; do
		case $_q in
		ROOT)	[ "$(id -u)" -eq 0 ] || prereq_why="needs root" ;;
		TRACEFS)
			test_have_prereq ROOT || return 1
			TRACEFS=/sys/kernel/tracing
			if [ ! -e "$TRACEFS/trace_marker" ] && ! mount -t tracefs nodev "$TRACEFS" 2>/dev/null; then
				prereq_why="tracefs is not mounted and cannot be mounted"
			elif [ ! -w "$TRACEFS/instances" ]; then
				prereq_why="tracefs has no writable instances/"
			fi ;;
		RT)	test_have_prereq ROOT || return 1
			chrt -f 1 true 2>/dev/null || prereq_why="SCHED_FIFO is not permitted here" ;;
		CPUS2)	[ "$(nproc)" -ge 2 ] || prereq_why="needs two CPUs, this machine has $(nproc)" ;;
		CMD:*)	command -v "${_q#CMD:}" > /dev/null || prereq_why="${_q#CMD:} is not installed" ;;
		PERL:*)	perl -M"${_q#PERL:}" -e 1 2>/dev/null || prereq_why="perl module ${_q#PERL:} is not installed" ;;
		BUILT:*) [ -x "$B/${_q#BUILT:}" ] || prereq_why="build/${_q#BUILT:} is not built (run make)" ;;
		FILE:*)	[ -r "${_q#FILE:}" ] || prereq_why="${_q#FILE:} not found" ;;
		USER:*)	id "${_q#USER:}" > /dev/null 2>&1 || prereq_why="no user ${_q#USER:}" ;;
		*)	echo "Bail out! test_have_prereq: unknown prerequisite $_q"; exit 255 ;;
		esac
		[ -z "$prereq_why" ] || return 1
	done
}

# need PREREQ... - the whole script needs these: skip it with the reason, or fail under CI=true
need() { test_have_prereq "$@" || skip_all "$prereq_why"; }

# skip "ID..." [REASON] - the tests of these ids cannot run for want of a prerequisite (default
# reason: the last test_have_prereq's): each is a TAP skip, or a failure under CI=true
skip() {
	for _id in $1; do
		if [ "${CI:-}" = "true" ]; then
			_report 1 "$_id requirement missing under CI=true: ${2:-$prereq_why}"
		else
			_report 0 "$_id # SKIP ${2:-$prereq_why}"
		fi
	done
	return 0
}


# wait_for SECONDS CMD... - poll until CMD succeeds; SECONDS only guards against a hang (never
# a timing assertion): on timeout say so as a diagnostic and fail
wait_for() {
	_deadline=$(($(date +%s) + $1)); shift
	until "$@" 2>/dev/null; do
		if [ "$(date +%s)" -ge "$_deadline" ]; then
			echo "# wait_for: still not true after the timeout: $*"
			return 1
		fi
		sleep 0.05
	done
}

# json_get FILE PATH... - print values of a JSON file (FILE - is stdin), one line per PATH:
# dotted paths, array indexes, KEY=VALUE and '*' steps, keys with dots ('p99.9') as they are;
# numbers exactly as written, null/true/false as words; exit 1 when a PATH is not there.
# No PATH: only whether FILE is JSON (exit 0, or 2 as for bad JSON). t/lib/json-get.pl says it all.
json_get() { perl "$TOP/t/lib/json-get.pl" "$@"; }

# long_dir BASE LEN - make a directory under BASE whose path is LEN characters (at most 4095: it can
# be opened, yet a file in it can have a path too long for PATH_MAX), and print that path
long_dir() {
	_p=$1
	while [ $((${#_p} + 251)) -lt "$2" ]; do _p=$_p/$(printf '%250s' '' | tr ' ' d); done
	_p=$_p/$(printf "%$(($2 - ${#_p} - 1))s" '' | tr ' ' d)
	mkdir -p "$_p" && printf '%s\n' "$_p"
}

# run_unit NAME - run a C unit test built by make as build/t/NAME
run_unit() {
	need "BUILT:t/$1"
	"$B/t/$1"
	exit $?
}

done_testing() {
	if [ "$_planned" -ne "$_n" ]; then
		echo "# planned $_planned tests but ran $_n"
		exit 1
	fi
	[ "$_failed" -eq 0 ]
	exit $?
}
