# test-lib.sh - the shared helper of preflight's shell tests (TAP for prove).
#
# A test script starts with
#   . "$(dirname "$0")/lib/test-lib.sh"
#   plan 3
# and uses ok / is / like / run_cmd / skip_all / need_root / need_tracefs.
# Descriptions start with a test id ('sysinfo-2.3') so a failure names its case.
# A failing command's output is shown as '# ' diagnostics.
#
# Requirements (root, tracefs, realtime priorities) skip the script with a
# reason when missing, except under CI=true, where a missing requirement fails.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
B="$TOP/build"
PREFLIGHT="$B/preflight"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/preflight-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
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

# ok DESC CMD... - passes when the command succeeds; shows its output when it fails
ok() {
	_desc=$1; shift
	if "$@" >"$TMP/.out" 2>&1; then
		_report 0 "$_desc"
	else
		_report 1 "$_desc"
		echo "#   command: $*"
		sed 's/^/#   /' "$TMP/.out" | head -40
		return 1
	fi
}

# is GOT EXPECTED DESC - string equality, shows both sides on failure
is() {
	if [ "$1" = "$2" ]; then
		_report 0 "$3"
	else
		_report 1 "$3"
		echo "#   got:      '$1'"
		echo "#   expected: '$2'"
		return 1
	fi
}

# like GOT REGEX DESC - extended regular expression match
like() {
	if printf '%s' "$1" | grep -Eq -- "$2"; then
		_report 0 "$3"
	else
		_report 1 "$3"
		echo "#   got:          '$1'"
		echo "#   expected to match: '$2'"
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

skip_all() { echo "1..0 # SKIP $1"; exit 0; }

# missing REASON - a requirement is missing: skip, or fail under CI=true
missing() {
	if [ "${CI:-}" = "true" ]; then
		echo "1..1"
		echo "not ok 1 - requirement missing under CI=true: $1"
		exit 1
	fi
	skip_all "$1"
}

need_root() { [ "$(id -u)" -eq 0 ] || missing "needs root"; }

# need_tracefs - tracefs mounted (mounting it when root) and usable; sets TRACEFS
need_tracefs() {
	need_root
	TRACEFS=/sys/kernel/tracing
	if [ ! -e "$TRACEFS/trace_marker" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null || missing "tracefs is not mounted and cannot be mounted"
	fi
	[ -w "$TRACEFS/instances" ] || missing "tracefs has no writable instances/"
}

# need_rt - realtime priorities can be set here
need_rt() {
	need_root
	chrt -f 1 true 2>/dev/null || missing "SCHED_FIFO is not permitted here"
}

# need_built PROGRAM... - these programs of build/ exist (make builds them)
need_built() {
	for _p in "$@"; do
		[ -x "$B/$_p" ] || missing "build/$_p is not built (run make)"
	done
}

# json_get FILE PATH - print one value of a JSON file (PATH like .kernel.release), via perl JSON::PP
json_get() {
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die "$ARGV[0]: $!\n";
		my $v = JSON::PP->new->decode(<$f>);
		for my $k (grep { length } split /\./, $ARGV[1]) {
			$v = ref $v eq "ARRAY" ? $v->[$k] : $v->{$k};
		}
		print ref $v ? JSON::PP->new->canonical->encode($v)
		    : !defined $v ? "null" : JSON::PP::is_bool($v) ? ($v ? "true" : "false") : $v;
	' "$1" "$2"
}

# run_unit NAME - run a C unit test built by make as build/t/NAME
run_unit() {
	[ -x "$B/t/$1" ] || { echo "1..1"; echo "not ok 1 - $1: not built (run make unit-tests)"; exit 1; }
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
