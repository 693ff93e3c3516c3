#!/bin/sh
# analyze-ab.sh - two builds of 'preflight analyze' side by side on the same
# traces: their results.json must be the same (but for the generator line),
# and their CPU time is compared with each other and with the floor (a bare
# libtracecmd read, gentrace floor). The runs of the floor, the old and the
# new build alternate, RUNS times (default 10), and the least CPU time (user
# + system, the analysis' child included) of each is kept: on a shared
# machine that is the run the others disturbed least, and two builds measured
# this way compare where two runs of analyze-perf.sh half an hour apart do not.
#
# usage: analysis/analyze-ab.sh OLD_PREFLIGHT NEW_PREFLIGHT TRACE.dat...
#   e.g. git worktree of the old commit built into /tmp/old, then
#        analysis/analyze-ab.sh /tmp/old/build/preflight build/preflight build/perf-traces/*.dat
# Exit 1 when the outputs differ, 2 on bad usage.
set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
B="$TOP/build"
RUNS=${RUNS:-10}
[ $# -ge 3 ] || { echo "usage: analysis/analyze-ab.sh OLD_PREFLIGHT NEW_PREFLIGHT TRACE.dat..." >&2; exit 2; }
OLD=$1 NEW=$2
shift 2
[ -x "$B/t/gentrace" ] || { echo "analyze-ab: $B/t/gentrace not built (make unit-tests)" >&2; exit 3; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/analyze-ab.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM

# cpu CMD... - user + system seconds of CMD and its children (getrusage: microseconds, where
# GNU time prints hundredths)
cpu() {
	python3 -c 'import resource, subprocess, sys
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)	# what python itself waited for before
if subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode: sys.exit(1)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.6f" % (r.ru_utime + r.ru_stime - r0.ru_utime - r0.ru_stime))' "$@" 2>"$TMP/err" || { echo "analyze-ab: $* failed" >&2; cat "$TMP/err" >&2; exit 4; }
}

differ=0
for f in "$@"; do
	"$OLD" analyze -q --trace "$f" -o "$TMP/old.json"
	"$NEW" analyze -q --trace "$f" -o "$TMP/new.json"
	if grep -v '"generator"' "$TMP/old.json" > "$TMP/old.cmp" && grep -v '"generator"' "$TMP/new.json" > "$TMP/new.cmp" &&
	   cmp -s "$TMP/old.cmp" "$TMP/new.cmp"; then
		same="the same results.json"
	else
		same="results.json DIFFERS"
		differ=1
	fi
	i=0
	: > "$TMP/runs"
	while [ "$i" -lt "$RUNS" ]; do
		echo "floor $(cpu "$B/t/gentrace" floor "$f")" >> "$TMP/runs"
		echo "old $(cpu "$OLD" analyze -q --trace "$f" -o "$TMP/r.json")" >> "$TMP/runs"
		echo "new $(cpu "$NEW" analyze -q --trace "$f" -o "$TMP/r.json")" >> "$TMP/runs"
		i=$((i + 1))
	done
	awk -v name="$(basename "$f")" -v same="$same" '
		!($1 in m) || $2 < m[$1] { m[$1] = $2 }
		END {
			printf "%s: %s; least CPU of %d runs: floor %.3f s, old %.3f s (%.3fx the floor), new %.3f s (%.3fx), new %+.1f %%\n",
			       name, same, NR / 3, m["floor"], m["old"], m["floor"] / m["old"], m["new"], m["floor"] / m["new"],
			       (m["new"] - m["old"]) * 100 / m["old"]
		}' "$TMP/runs"
done
exit $differ
