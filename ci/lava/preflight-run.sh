#!/bin/sh
# preflight-run.sh - the run script of the LAVA test definition: REPEATS runs
# of a scenario, the compare against a baseline, and OUT/result.txt in the
# test-definitions format, one line per case:
#
#   <case> <pass|fail|skip|unknown> [<measurement> <units>]
#
# check verdicts (each run's verdicts.json) as '<requirement>_<element>_<metric>' with the
# measured value (not measured: skip, not valid: fail),
# compare verdicts as 'compare_<metric>' (its results.json path) with the new median.
# result-to-lava.sh turns it into lava-test-case calls. Exit 0 unless the
# runs could not be done: verdicts are results, not script failures.
#
# usage: preflight-run.sh [-s SCENARIO] [-b BUDGETS] [-d DURATION] [-r REPEATS] [-B BASELINE] [-o OUT]

set -u
SCENARIO=quick BUDGETS="" DURATION="" REPEATS=3 BASELINE="" OUT=./output
PREFLIGHT=${PREFLIGHT:-preflight}
while getopts "s:b:d:r:B:o:" opt; do
	case $opt in
	s) SCENARIO=$OPTARG ;;
	b) BUDGETS=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	r) REPEATS=$OPTARG ;;
	B) BASELINE=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) echo "usage: $0 [-s SCENARIO] [-b BUDGETS] [-d DURATION] [-r REPEATS] [-B BASELINE] [-o OUT]" >&2; exit 2 ;;
	esac
done
mkdir -p "$OUT" || exit 3
: > "$OUT/result.txt"

# a shortened scenario: every phase's duration replaced
if [ -n "$DURATION" ]; then
	src=$SCENARIO
	[ -f "$src" ] || src=$(dirname "$0")/../../bench/scenarios/$SCENARIO.ini
	sed "s/^\([[:space:]]*duration[[:space:]]*=\).*/\1 $DURATION/" "$src" > "$OUT/scenario.ini" || exit 2
	SCENARIO=$OUT/scenario.ini
fi

$PREFLIGHT run "$SCENARIO" ${BUDGETS:+--budgets "$BUDGETS"} --repeats "$REPEATS" -o "$OUT/runs"
rc=$?
[ "$rc" -le 1 ] || { echo "preflight-run: preflight run exited $rc" >&2; echo "preflight-run fail" >> "$OUT/result.txt"; exit "$rc"; }
i=1
while [ "$i" -le "$REPEATS" ]; do
	# one run is written into the run directory itself, several into run-NN (preflight run --repeats)
	dir=$OUT/runs
	[ "$REPEATS" -eq 1 ] || dir=$(printf '%s/runs/run-%02d' "$OUT" "$i")
	# the check's verdicts: the records of verdicts.json (docs/verdicts.md), never the TAP's wording;
	# a run without them is a failed case, never nothing
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or do { print "run$ARGV[1]_verdicts fail\n"; exit 0 };
		my $d = eval { decode_json(<$f>) } or do { print "run$ARGV[1]_verdicts fail\n"; exit 0 };
		my %r = (pass => "pass", fail => "fail", not_measured => "skip", not_valid => "fail");
		for my $v (@{$d->{verdicts}}) {
			(my $n = "run$ARGV[1]_$v->{id} $v->{label}") =~ s/[^-_.A-Za-z0-9]+/_/g;
			my $u = $v->{unit} eq "" ? "count" : $v->{unit};
			print "$n " . ($r{$v->{verdict}} // "unknown") . (defined $v->{value} ? " $v->{value} $u" : "") . "\n";
		}' "$dir/verdicts.json" "$i" >> "$OUT/result.txt"
	i=$((i + 1))
done

if [ -n "$BASELINE" ]; then
	$PREFLIGHT compare --baseline "$BASELINE" "$OUT"/runs/run-* --tap "$OUT/compare.tap" --json "$OUT/compare.json" \
		--junit "$OUT/compare.junit.xml" --md "$OUT/compare.md"
	rc=$?
	[ "$rc" -le 1 ] || { echo "compare fail" >> "$OUT/result.txt"; exit "$rc"; }
	perl -MJSON::PP -e '
		local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
		my %r = (SAME => "pass", REGRESSED => "fail", UNKNOWN => "unknown", SKIP => "skip");
		for my $v (@{$j->{results}}) {
			my $m = $v->{new_median}; my $u = $v->{unit};
			if (defined $m && $u eq "ns") { $m /= 1000; $u = "us" }
			printf "compare_%s %s%s\n", $v->{key}, $r{$v->{state}}, defined $m ? sprintf(" %.3f %s", $m, $u) : "";
		}' "$OUT/compare.json" >> "$OUT/result.txt"
fi
exit 0
