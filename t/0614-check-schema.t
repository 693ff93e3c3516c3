#!/bin/sh
# 0614-check-schema.t - a budget's metric must name a key of the results.json
# schema (lib/results_keys.c, the list 'preflight check --keys' prints): a typo
# is an error in the budget file (file:line, exit 2, no verdicts), not seven
# SKIPs and exit 0. A key this run lacks stays "not measured", and the summary
# counts those not in this run apart from those without a value. The list is
# held to docs/results.md and to what analyze writes.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 9

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
R="$TMP/r.json"
"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/b.csv" --cyclictest "$TOP/t/fixtures/cyclictest/ovf.json" -o "$R"

printf '[REQ-LAT-001]\ntext = x\nselect = rt\nmetric = tasks.*.activation_latncy_ns.max\nbound = <= 62us\n' > "$TMP/typo.ini"
run_cmd "$PREFLIGHT" check "$R" --budgets "$TMP/typo.ini"
is "$rc:$out" "2:" "schema-1.1 a typo in a metric path: exit 2, no verdicts"
is "$err" "preflight: check: $TMP/typo.ini:4: metric 'tasks.*.activation_latncy_ns.max' names no key of results.json (docs/results.md; 'preflight check --keys' lists them): 'tasks.*' has no 'activation_latncy_ns'" \
	"schema-1.2 ... one line: file, the metric's line, the unknown part"
printf '[REQ-X-001]\ntext = x\nmetric = slots.overruns, fsw.spi_transfer_ns.max, tasks.*.deadline_misess\nbound = == 0\n' > "$TMP/typo2.ini"
run_cmd "$PREFLIGHT" check "$R" --budgets "$TMP/typo2.ini"
like "$rc:$err" "^2:.*typo2\.ini:3: metric 'tasks\.\*\.deadline_misess' names no key" "schema-1.3 the third metric of a list"
for f in "$TOP"/budgets/*.ini; do
	run_cmd "$PREFLIGHT" check "$R" --budgets "$f"
	[ "$rc" -lt 2 ] || echo "# $f: $err"
	printf '%s ' "$(basename "$f"):$rc"
done > "$TMP/shipped"
is "$(cat "$TMP/shipped")" "kernel-baseline.ini:1 seed.ini:1 " "schema-1.4 the shipped budgets name only keys of the schema (verdicts, not exit 2)"

# not measured: not in this run (no fsw, no loads) apart from without a value (a null, a bound that cannot decide)
printf '[REQ-X-001]\ntext = x\nmetric = fsw.spi_transfer_ns.max, loads.spi.achieved.transfer_time_ns.max, cyclictest.all.latency_ns.p99, tasks.io.activation_latency_ns.max\nbound = <= 1ms\n' > "$TMP/nm.ini"
run_cmd "$PREFLIGHT" check "$R" --budgets "$TMP/nm.ini"
is "$(printf '%s\n' "$out" | grep -c 'SKIP not measured')" 3 "schema-2.1 what this run lacks is still a skip"
is "$(printf '%s\n' "$out" | tail -1)" "# 1 passed, 0 failed, 3 not measured (2 not in this run, 1 without a value)" \
	"schema-2.2 the summary counts the two kinds of not measured apart"

# the list, docs/results.md and analyze's output agree
run_cmd "$PREFLIGHT" check --keys
is "$rc:$(printf '%s\n' "$out" | grep -c .)" "0:$(printf '%s\n' "$out" | sort -u | grep -c .)" "schema-3.1 --keys lists each key once"
missing=$(printf '%s\n' "$out" | sed 's/{stats}$//; s/\.\*\*$//' | while read -r k; do
	leaf=${k##*.}
	case $k in cyclictest.*) doc="$TOP/docs/cyclictest-import.md $TOP/analysis/cyclictest.h" ;; *) doc="$TOP/docs/results.md" ;; esac
	grep -q -- "$leaf" $doc || printf '%s ' "$k"
done)
is "$missing" "" "schema-3.2 every key of the list is documented (docs/results.md, cyclictest's in docs/cyclictest-import.md)"
perl -MJSON::PP -MB -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
	my %stats = map { $_ => 1 } qw(count min mean stddev max max_at max_id bin_width p50 p90 p99 p99.9 p99.99 p99.999);
	sub walk { my ($v, $p) = @_;
		if (ref $v eq "HASH") {
			return if $p =~ /\.hist$|\.bounds$|^run$|^fsw$|^loads$|\.reported$|\.culprits|^root_events/;
			walk($v->{$_}, $p eq "" ? $_ : "$p.$_") for keys %$v;
		} elsif (ref $v eq "ARRAY") {
			walk($_, "$p.*") for grep { ref $_ eq "HASH" } @$v;
		} elsif (JSON::PP::is_bool($v) || (defined $v && !ref $v && !(B::svref_2object(\$v)->FLAGS & B::SVf_POK))) {
			print "$p\n";
		}
	}
	walk($j, "");
' "$R" | sort -u > "$TMP/leaves"
{
	n=0
	while read -r p; do
		n=$((n + 1))
		printf '[REQ-%d]\ntext = x\nmetric = %s\nbound = == 0\n' "$n" "$p"
	done < "$TMP/leaves"
} > "$TMP/all.ini"
run_cmd "$PREFLIGHT" check "$R" --budgets "$TMP/all.ini"
like "$rc:$(wc -l < "$TMP/leaves")" "^1:[1-9][0-9][0-9]+$" "schema-3.3 every number analyze writes is a key of the schema ($err)"
