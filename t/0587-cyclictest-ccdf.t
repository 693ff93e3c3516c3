#!/bin/sh
# 0587-cyclictest-ccdf.t - the exceedance curve of each cyclictest thread (issue 28.1,
# docs/cyclictest-import.md "The exceedance curve"): cyclictest.threads[].tail from
# cyclictest's own histogram, exact at each bucket's lower edge; an overflowed histogram's
# curve ends at its last bucket and says so; no tail model (no per-sample series); the
# report's X2 draws them with the budget judging cyclictest's maximum. Exact values on a
# small file made by hand (small-ovf: thread 0 five wakeups at 3 us, two at 4, one at 7
# and two past the -h 10 size, the max 25 us; thread 1 one at 2 us, three at 5) and the
# same rule checked on the real rt-tests files against their histograms.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
FX="$TOP/t/fixtures/cyclictest"
need_ct_dump
plan 22

"$DUMP" "$FX/small-ovf.json" > "$TMP/s.json"
is "$(json_get "$TMP/s.json" threads.0.tail.ccdf threads.0.tail.ccdf_ends_ns | paste -sd' ')" \
	"[[3000,1],[4000,0.5],[7000,0.3],[10000,0.2]] 10000" \
	"ccdf-1.1 overflowed thread: P(X >= x) at each bucket's edge, ending at the -h size with the overflows' share 2/10"
is "$(json_get "$TMP/s.json" threads.1.tail.ccdf threads.1.tail.ccdf_ends_ns | paste -sd' ')" \
	"[[2000,1],[5000,0.75]] null" "ccdf-1.2 a thread inside its histogram: every point, no end"
is "$(json_get "$TMP/s.json" threads.0.tail.source threads.0.tail.bucket_width_ns threads.0.tail.count \
	threads.0.tail.assumptions_hold threads.0.tail.model threads.0.tail.pwcet_ns threads.0.tail.tests | paste -sd' ')" \
	"cyclictest histogram 1000 10 false null null null" "ccdf-1.3 from cyclictest's histogram of 1 us buckets, no model"
like "$(json_get "$TMP/s.json" threads.0.tail.reason)" "^no per-sample series: " "ccdf-1.4 ... the reason: no per-sample series"
like "$(json_get "$TMP/s.json" threads.0.tail.ccdf_note)" \
	"buckets of 1000 ns: .*; 2 of the 10 samples overflowed it \(>= 10000 ns, the -h size\) and cyclictest wrote no value of theirs but the max, 25000 ns: the curve ends at 10000 ns with their share, 2/10; above it P\(X >= x\) is known only to lie between 1/10 and 2/10 up to the max, and is 0 past it$" \
	"ccdf-1.5 ... the note says what the overflows leave unknown"
is "$(json_get "$TMP/s.json" threads.0.tail.run_needed_binomial.1e-9)" 2995732273 "ccdf-1.6 ... the model-free run length as the tasks'"

"$DUMP" "$FX/small-ovf.hist:us" > "$TMP/h.json"
is "$(json_get "$TMP/h.json" threads.0.tail.ccdf threads.1.tail.ccdf | paste -sd' ')" \
	"$(json_get "$TMP/s.json" threads.0.tail.ccdf threads.1.tail.ccdf | paste -sd' ')" \
	"ccdf-2.1 the -h text of the same samples: the same curves"

# every point of a curve against the file's own histogram: x a bucket's lower edge (or the end),
# P = (samples in that bucket and above + overflows) / cycles exactly; at most 64 points, x
# ascending, P falling; every value when there are at most 64, else the 16 largest among them
ccdf_check() {
	perl -MJSON::PP -e '
		my ($dump, $orig) = @ARGV;
		local $/; open my $f, "<", $dump or die; my $d = JSON::PP->new->decode(<$f>);
		open my $g, "<", $orig or die; my $text = <$g>;
		my $scale = $d->{unit} eq "ns" ? 1 : 1000; my $end = $d->{buckets};
		my (@bins, @cyc);
		if ($text =~ /^\s*\{/) {
			my $j = JSON::PP->new->decode($text);
			for my $i (0 .. $#{$d->{threads}}) { $bins[$i] = $j->{thread}{$i}{histogram}; $cyc[$i] = $j->{thread}{$i}{cycles} }
		} else {
			for (grep { /^\d/ } split /\n/, $text) { my ($b, @c) = split; $bins[$_]{$b + 0} = $c[$_] + 0 for 0 .. $#{$d->{threads}} }
			$cyc[$_] = $d->{threads}[$_]{latency_ns}{count} for 0 .. $#{$d->{threads}};
		}
		for my $i (0 .. $#{$d->{threads}}) {
			my $c = $d->{threads}[$i]{tail}{ccdf}; my $n = $cyc[$i];
			my $binned = 0; $binned += $_ for values %{$bins[$i]}; my $ovf = $n - $binned;
			my @vals = sort { $a <=> $b } grep { $bins[$i]{$_} } keys %{$bins[$i]};
			push @vals, $end if $ovf;
			die "T$i: " . @$c . " points\n" if @$c > 64 || @$c < (@vals < 16 ? @vals : 16);
			my %have;
			for my $k (0 .. $#$c) {
				my ($x, $p) = @{$c->[$k]}; my $b = $x / $scale; $have{$b} = 1;
				die "T$i: x $x not a bucket edge\n" unless $b == $end || $bins[$i]{$b};
				my $ge = $ovf; $ge += $bins[$i]{$_} for grep { $_ >= $b } keys %{$bins[$i]};
				die "T$i: P($x) $p != $ge/$n\n" unless $p == $ge / $n;
				die "T$i: not ascending at $k\n" if $k && ($x <= $c->[$k - 1][0] || $p >= $c->[$k - 1][1]);
			}
			my @want = @vals <= 64 ? @vals : @vals[-16 .. -1];
			for (@want) { die "T$i: value $_ missing\n" unless $have{$_} }
			die "T$i: end\n" unless ($d->{threads}[$i]{tail}{ccdf_ends_ns} // -1) == ($ovf ? $end * $scale : -1);
		}
		print "ok\n";
	' "$@" 2>&1
}
gzip -dc "$FX/ns.hist.gz" > "$TMP/ns.hist"
for f in us.json ovf.json ovf-H.hist ovf-status.hist ns.json ns.hist; do
	"$DUMP" "$([ -f "$FX/$f" ] && echo "$FX/$f" || echo "$TMP/$f")" > "$TMP/$f.out"
	is "$(ccdf_check "$TMP/$f.out" "$([ -f "$FX/$f" ] && echo "$FX/$f" || echo "$TMP/$f")")" ok \
		"ccdf-3.1 $f: every point exact from its histogram, at most 64, the largest values each"
done
is "$(json_get "$TMP/ovf-status.hist.out" threads.0.tail.ccdf threads.0.tail.ccdf_ends_ns | paste -sd' ')" \
	"[[15000,1]] 15000" "ccdf-3.2 every sample overflowed (even the min): one point, the end, P = 1"
is "$("$DUMP" "$FX/nohist.json" | json_get - threads.0.tail)" null "ccdf-3.3 cyclictest without -h: no curve (null)"

# every thread together (cyclictest.all): the threads' buckets and overflows summed - small-ovf's
# 14 samples: 1 at 2 us, 5 at 3, 2 at 4, 3 at 5, 1 at 7, 2 past the -h size
is "$(json_get "$TMP/s.json" all.tail.ccdf all.tail.ccdf_ends_ns all.tail.count | paste -sd' ')" \
	"[[2000,1],[3000,0.928571428571429],[4000,0.571428571428571],[5000,0.428571428571429],[7000,0.214285714285714],[10000,0.142857142857143]] 10000 14" \
	"ccdf-4.1 all threads' curve: P = 14/14, 13/14, 8/14, 6/14, 3/14, ending at the -h size with the 2 overflows of 14"
like "$(json_get "$TMP/s.json" all.tail.ccdf_note)" "2 of the 14 samples overflowed it .* the max, 25000 ns:" \
	"ccdf-4.2 ... its note: the overflows of every thread, the largest max"
is "$("$DUMP" "$FX/nohist.json" | json_get - all.tail)" null "ccdf-4.3 without -h: no curve of all either"

# X2 in the report: a cyclictest phase's threads with the budget judging cyclictest's maximum
if test_have_prereq CMD:gnuplot; then
	mkdir -p "$TMP/run/02-loaded"
	cp "$TOP/t/fixtures/run/run.json" "$TMP/run/"
	"$PREFLIGHT" analyze -q --cyclictest "$FX/small-ovf.json" -o "$TMP/run/02-loaded/results.json"
	cp "$TMP/run/02-loaded/results.json" "$TMP/run/results.json"
	printf '[REQ-KLAT-001]\ntext = cyclictest max\nmetric = cyclictest.threads.*.latency_ns.max\nbound = <= 20us\n' > "$TMP/k.ini"
	"$PREFLIGHT" check "$TMP/run/results.json" --budgets "$TMP/k.ini" --json "$TMP/run/verdicts.json" > /dev/null
	env PREFLIGHT_REPORT_KEEP_TMP=1 TMPDIR="$TMP" "$PREFLIGHT" report "$TMP/run" -o "$TMP/r.html" > /dev/null 2>&1
	x2=$(perl -MMIME::Base64 -ne 'print decode_base64($1) if /<figure id="fig-X2"><img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/' "$TMP/r.html" |
		perl -ne 'print "$1\n" while /<text[^>]*>([^<]*)<\/text>/g')
	is "$(printf '%s\n' "$x2" | grep -c '^CPU[01] loaded')" 2 "ccdf-rep-1.1 X2: a curve for each thread"
	like "$x2" "CPU0 loaded: 2 ≥ 10 µs" "ccdf-rep-1.2 ... the overflowed one says how many past where it ends"
	like "$x2" "budget 20 µs \(REQ-KLAT-001\)" "ccdf-rep-1.3 ... and the budget of the requirement on cyclictest's max"
	G=$(ls -d "$TMP"/preflight-report.* | head -1)
	is "$(awk '$0 == "$C1_0 << EOD" { on = 1; next } on && $0 == "EOD" { exit } on' "$G/X2.gp" | paste -sd' ') | $(awk '$0 == "$M1_0 << EOD" { on = 1; next } on && $0 == "EOD" { exit } on' "$G/X2.gp")" \
		"3 1 4 0.5 7 0.3 10 0.2 | 25 0.1" "ccdf-rep-1.4 ... its points in µs, and the max alone at P = 1/n"
else
	skip "ccdf-rep-1.1 ccdf-rep-1.2 ccdf-rep-1.3 ccdf-rep-1.4"
fi
