#!/bin/sh
# 0902-ci-false-alarm.t - identical distributions, 100 fixed seeds of 10
# baseline + 3 new runs (build/t/ci_genruns): compare may say SAME or UNKNOWN
# but REGRESSED at most twice over all seeds and metrics.
. "$(dirname "$0")/lib/test-lib.sh"
need BUILT:preflight BUILT:t/ci_genruns
plan 2

G="$B/t/ci_genruns"
false=0 judged=0 seeds=0
for s in $(seq 1 100); do
	d="$TMP/s$s"
	mkdir -p "$d"
	"$G" "$d/b" --runs 10 --seed $((1000 + 2 * s)) &&
	"$G" "$d/n" --runs 3 --seed $((1001 + 2 * s)) --first 11 &&
	"$PREFLIGHT" baseline create "$d"/b/run-* -o "$d/bl.json" >/dev/null &&
	"$PREFLIGHT" compare --baseline "$d/bl.json" "$d"/n/run-* --tap /dev/null --json "$d/c.json" >/dev/null
	[ $? -le 1 ] || continue
	seeds=$((seeds + 1))
	set -- $(perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0]; my $s = decode_json(<$f>)->{summary};
		print "$s->{regressed} ", $s->{regressed} + $s->{same} + $s->{unknown}' "$d/c.json")
	false=$((false + $1)) judged=$((judged + $2))
	[ "$1" -gt 0 ] && grep -o '"key": "[^"]*"\|"state": "REGRESSED"' "$d/c.json" | grep -B1 REGRESSED | sed "s/^/# seed $s: /"
	rm -rf "$d"
done
echo "# $false REGRESSED of $judged judged metrics over $seeds seeds"
is "$seeds" 100 "ci-false-1.1 every seed compared"
ok "ci-false-1.2 at most 2 false REGRESSED over 100 seeds ($false)" [ "$false" -le 2 ]
done_testing
