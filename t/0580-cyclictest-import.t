#!/bin/sh
# 0580-cyclictest-import.t - cyclictest_load() on real rt-tests 2.4 files
# (t/fixtures/cyclictest, generated on this machine with the commands in
# docs/cyclictest-import.md): min, mean and max reproduce cyclictest's own
# summary exactly, in us and ns, with overflows, --json and -h / -H text.
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/check-lib.sh"
FX="$TOP/t/fixtures/cyclictest"
need_ct_dump
plan 38

gzip -dc "$FX/ns.hist.gz" > "$TMP/ns.hist"

# summary_check DUMP.json ORIG FORMAT - every thread's statistics against the
# summary cyclictest wrote in ORIG; prints 'ok' or the first mismatch
summary_check() {
	perl -MJSON::PP -e '
		my ($dump, $orig, $fmt) = @ARGV;
		local $/; open my $f, "<", $dump or die; my $d = JSON::PP->new->decode(<$f>);
		open my $g, "<", $orig or die; my $text = <$g>;
		my $scale = $d->{unit} eq "ns" ? 1 : 1000;
		my (@min, @avg, @max, @cyc, @ovf);
		if ($fmt eq "json") {
			my $j = JSON::PP->new->decode($text);
			for my $i (sort keys %{$j->{thread}}) {
				my $t = $j->{thread}{$i};
				push @min, $t->{min}; push @max, $t->{max}; push @cyc, $t->{cycles};
			}
			# the avg exactly as cyclictest printed it (two decimals)
			@avg = $text =~ /"avg": ([0-9.]+)/g;
		} else {
			@min = map { $_ + 0 } split " ", ($text =~ /^# Min Latencies:(.*)$/m)[0];
			@avg = map { $_ + 0 } split " ", ($text =~ /^# Avg Latencies:(.*)$/m)[0];
			@max = map { $_ + 0 } split " ", ($text =~ /^# Max Latencies:(.*)$/m)[0];
			@ovf = map { $_ + 0 } split " ", ($text =~ /^# Histogram Overflows:(.*)$/m)[0];
			my @tot = map { $_ + 0 } split " ", ($text =~ /^# Total:(.*)$/m)[0];
			@cyc = map { $tot[$_] + $ovf[$_] } 0 .. $#min;
		}
		my $n = @{$d->{threads}};
		die "threads: $n, file: " . @min . "\n" unless $n == @min;
		for my $i (0 .. $n - 1) {
			my $s = $d->{threads}[$i]{latency_ns};
			die "T$i count $s->{count} != $cyc[$i]\n" unless $s->{count} == $cyc[$i];
			die "T$i min $s->{min} != $min[$i]\n" unless $s->{min} == $min[$i] * $scale;
			die "T$i max $s->{max} != $max[$i]\n" unless $s->{max} == $max[$i] * $scale;
			my $m = $fmt eq "json" ? sprintf("%.2f", $s->{mean} / $scale)
			    : int($s->{mean} / $scale);
			die "T$i mean $s->{mean} gives $m, cyclictest said $avg[$i]\n" unless $m eq $avg[$i];
		}
		print "ok\n";
	' "$@" 2>&1
}

# pct_check DUMP.json ORIG.hist - p50 / p90 / p99 of every thread from the
# histogram text itself (rank among buckets, then overflows)
pct_check() {
	perl -MJSON::PP -MPOSIX=ceil -e '
		my ($dump, $orig) = @ARGV;
		local $/; open my $f, "<", $dump or die; my $d = JSON::PP->new->decode(<$f>);
		open my $g, "<", $orig or die; my $text = <$g>;
		my $scale = $d->{unit} eq "ns" ? 1 : 1000;
		my @rows = map { [ split /\s+/ ] } grep { /^\d/ } split /\n/, $text;
		my @ovf = map { $_ + 0 } split " ", ($text =~ /^# Histogram Overflows:(.*)$/m)[0];
		for my $i (0 .. $#{$d->{threads}}) {
			my $s = $d->{threads}[$i]{latency_ns};
			for my $p ([0.5, "p50"], [0.9, "p90"], [0.99, "p99"]) {
				my $rank = ceil($p->[0] * $s->{count});
				my $seen = 0; my $v;
				for my $r (@rows) { $seen += $r->[$i + 1]; if ($seen >= $rank) { $v = $r->[0] * $scale; last } }
				next unless defined $v;		# in the overflows: estimated
				# the histogram reports the representative of its bucket: within 1/128 of the value
				die "T$i $p->[1] $s->{$p->[1]} != $v\n" unless abs($s->{$p->[1]} - $v) <= $v / 128;
			}
		}
		print "ok\n";
	' "$@" 2>&1
}

# --- ct-1: --json files reproduce cyclictest's summary
for f in us ovf ns nohist; do
	run_cmd "$DUMP" "$FX/$f.json"
	printf '%s\n' "$out" > "$TMP/$f.json.out"
	is "$rc" 0 "ct-1.1 $f.json loads"
	is "$(summary_check "$TMP/$f.json.out" "$FX/$f.json" json)" ok \
		"ct-1.2 $f.json: count, min, max and avg (%.2f) exactly cyclictest's"
done
is "$(json_get "$TMP/ns.json.out" unit)" ns "ct-1.3 ns.json: resolution_in_ns 1 read as ns"
is "$(json_get "$TMP/us.json.out" unit)" us "ct-1.4 us.json: us"
is "$(json_get "$TMP/us.json.out" threads.0.latency_ns.unit)" ns "ct-1.5 statistics are in ns like every other distribution"
is "$(json_get "$TMP/nohist.json.out" threads.0.latency_ns.p99)" null \
	"ct-1.6 no histogram (no -h): percentiles null, not invented"

grep -v '"resolution_in_ns"' "$FX/ns.json" > "$TMP/nores.json"
is "$("$DUMP" "$TMP/nores.json" | json_get - unit unit_from | paste -sd' ')" \
	"ns json cmdline" "ct-1.9 without resolution_in_ns the command line's -N says ns"

# a thread that never ran: cyclictest writes its avg as "-nan" (0/0)
perl -0pe 's/("1": \{.*?"histogram": \{).*?\}(.*?"cycles": )2000(.*?"min": )\d+(.*?"max": )\d+(.*?"avg": )[0-9.]+/$1      }${2}0${3}1000000${4}0${5}-nan/s' \
	"$FX/us.json" > "$TMP/nan.json"
run_cmd "$DUMP" "$TMP/nan.json"
is "$rc" 0 "ct-1.7 a thread without cycles (avg printed as -nan) still loads"
printf '%s\n' "$out" > "$TMP/nan.out"
is "$(json_get "$TMP/nan.out" threads.1.latency_ns.count):$(json_get "$TMP/nan.out" threads.1.reported.avg):$(json_get "$TMP/nan.out" threads.1.latency_ns.max)" \
	"0:null:null" "ct-1.8 ... with count 0 and nulls, not numbers"

# --- ct-2: histogram text files
for f in us.hist ovf-H.hist ovf-status.hist; do
	run_cmd "$DUMP" "$FX/$f"
	printf '%s\n' "$out" > "$TMP/$f.out"
	is "$rc" 0 "ct-2.1 $f loads"
	is "$(summary_check "$TMP/$f.out" "$FX/$f" hist)" ok \
		"ct-2.2 $f: count, min, max and truncated avg exactly cyclictest's"
	is "$(pct_check "$TMP/$f.out" "$FX/$f")" ok "ct-2.3 $f: percentiles are cyclictest's buckets"
done
run_cmd "$DUMP" "$TMP/ns.hist"
printf '%s\n' "$out" > "$TMP/ns.hist.out"
is "$(summary_check "$TMP/ns.hist.out" "$TMP/ns.hist" hist)" ok "ct-2.4 -N histogram: summary exact in ns"
is "$(pct_check "$TMP/ns.hist.out" "$TMP/ns.hist")" ok "ct-2.5 -N histogram: percentiles within 1/128 of cyclictest's buckets"
like "$(json_get "$TMP/ns.hist.out" unit_from)" '^guessed' "ct-2.6 a text file's unit is marked as guessed"
run_cmd "$DUMP" "$TMP/ns.hist:us"
is "$(json_get "$TMP/ns.hist.out" threads.0.latency_ns.max)" \
	"$(($(printf '%s' "$out" | json_get - threads.0.latency_ns.max) / 1000))" \
	"ct-2.7 FILE:us forces microseconds (values x1000)"

# --- ct-3: overflows
is "$(json_get "$TMP/ovf-H.hist.out" histofall)" true "ct-3.1 -H sum column recognised"
is "$(json_get "$TMP/ovf-H.hist.out" threads.0.overflows.count)" \
	"$(sed -n 's/^# Histogram Overflows: *0*\([0-9][0-9]*\) .*/\1/p' "$FX/ovf-H.hist")" \
	"ct-3.2 overflow count kept"
ncyc=$(json_get "$TMP/ovf-H.hist.out" threads.0.overflows.cycles | tr ',' '\n' | grep -c '[0-9]')
nl=$(json_get "$TMP/ovf-H.hist.out" threads.0.overflows.cycles_not_listed)
is "$((ncyc + nl))" "$(json_get "$TMP/ovf-H.hist.out" threads.0.overflows.count)" \
	"ct-3.3 listed overflow cycles + 'others' = overflows"
is "$(json_get "$TMP/ovf-H.hist.out" threads.0.overflows.exact)" 1 "ct-3.4 the max is an exact overflow value"
is "$(json_get "$TMP/ovf.json.out" all.latency_ns.count)" \
	"$(($(json_get "$FX/ovf.json" thread.0.cycles) + $(json_get "$FX/ovf.json" thread.1.cycles)))" \
	"ct-3.5 json: no overflow dropped (all threads' count = cycles)"
is "$(json_get "$TMP/ovf.json.out" all.latency_ns.max)" "$(($(json_get "$FX/ovf.json" thread.0.max) * 1000))" \
	"ct-3.6 all threads: max exact"

is "$(json_get "$TMP/ovf-H.hist.out" threads.0.latency_ns.p50):$(json_get "$TMP/ovf-H.hist.out" threads.0.latency_ns.p99.99)" \
	"null:$(json_get "$TMP/ovf-H.hist.out" threads.0.latency_ns.max)" \
	"ct-3.7 a percentile among overflows cyclictest never wrote is null; the top one is the exact max"
is "$(perl -MJSON::PP -MPOSIX=ceil -e '
		local $/; open my $f, "<", $ARGV[0] or die; my $t = JSON::PP->new->decode(<$f>)->{thread}{0};
		open my $g, "<", $ARGV[1] or die; my $d = JSON::PP->new->decode(<$g>)->{threads}[0]{latency_ns};
		my $h = $t->{histogram}; my $rank = ceil(0.99 * $t->{cycles}); my $seen = 0; my $v;
		for my $b (sort { $a <=> $b } keys %$h) { $seen += $h->{$b}; if ($seen >= $rank) { $v = $b; last } }
		print abs($d->{p99} - $v) <= $v / 128 ? "ok" : "p99 $d->{p99} != $v", ":",
		      defined $d->{"p99.9"} ? "p99.9 $d->{q{p99.9}}" : "null", ":",
		      $d->{bounds}{"p99.9"}{">="}, ":", $d->{bounds}{"p99.9"}{"<="}, ":",
		      join(",", @{$d->{estimated}});
	' "$FX/ns.json" "$TMP/ns.json.out")" \
	"ok:null:$(json_get "$TMP/ns.json.out" threads.0.overflows.threshold_ns):$(json_get "$TMP/ns.json.out" threads.0.latency_ns.max):stddev" \
	"ct-3.8 ns.json: p99 in the buckets (to 1/128), p99.9 among 6 overflows null with bounds [threshold, max], stddev estimated"
# the stddev depends on the overflows' unknown values: marked, in either format of the same run
is "$(json_get "$TMP/ovf.json.out" threads.0.latency_ns.estimated):$(json_get "$TMP/ovf-H.hist.out" threads.0.latency_ns.estimated):$(json_get "$TMP/ovf.json.out" all.latency_ns.estimated):$(json_get "$TMP/us.json.out" threads.0.latency_ns.estimated 2>/dev/null || echo absent)" \
	'["stddev"]:["stddev"]:["stddev"]:absent' "ct-3.9 stddev marked estimated where overflows' values are unknown (json and text), not otherwise"

# --- ct-4: the --json and the text of the same run agree
same=
for k in count min max p50 p90 p99; do same="$same threads.0.latency_ns.$k threads.1.latency_ns.$k"; done
is "$(json_get "$TMP/us.json.out" $same | paste -sd' ')" "$(json_get "$TMP/us.hist.out" $same | paste -sd' ')" "ct-4.1 us.json and us.hist of one run: same count, min, max, percentiles"
done_testing
