#!/bin/sh
# 0505-analyze-stats.t - every distribution of results.json carries the full
# statistics (count, min, mean, stddev, max with its time and job / pid, the
# six percentiles, the bin width, the histogram), and the max's time and id
# are the right ones on the 'basic' synthetic trace (t/tools/gentrace.c).
. "$(dirname "$0")/lib/test-lib.sh"
. "$(dirname "$0")/lib/analyze-lib.sh"
need BUILT:t/gentrace
plan 8

"$GEN" basic "$TMP/b.dat" "$TMP/b.csv"
R="$TMP/r.json"
"$PREFLIGHT" analyze -q --trace "$TMP/b.dat" --joblog "$TMP/b.csv" -o "$R"

# every object holding a 'bin_width' is a stats object: list those missing a key
bad=$(perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	my @keys = qw(unit bin_width count min mean stddev max max_at max_id p50 p90 p99 p99.9 p99.99 p99.999);
	my ($n, @bad) = (0);
	my $walk; $walk = sub {
		my ($v, $path) = @_;
		if (ref $v eq "HASH") {
			if (exists $v->{bin_width}) { $n++; push @bad, "$path:" . join(",", grep { !exists $v->{$_} } @keys) if grep { !exists $v->{$_} } @keys; }
			$walk->($v->{$_}, "$path.$_") for keys %$v;
		} elsif (ref $v eq "ARRAY") { $walk->($v->[$_], "$path.$_") for 0 .. $#$v; }
	};
	$walk->($r, ""); print "$n ", join(" ", @bad);' "$R")
like "$bad" '^[1-9][0-9]+ $' "stat-1.1 every distribution has count, min, mean, stddev, max, max_at, max_id and p50..p99.999 ($bad)"

# every distribution with samples carries its histogram, whose buckets add up to count
bad=$(perl -MJSON::PP -e '
	local $/; open my $f, "<", $ARGV[0] or die; my $r = JSON::PP->new->decode(<$f>);
	my ($n, @bad) = (0);
	my $walk; $walk = sub {
		my ($v, $path) = @_;
		if (ref $v eq "HASH") {
			if (exists $v->{bin_width} && $v->{count} && $path =~ /^\.threads\./) {
				push @bad, "$path has buckets" if exists $v->{hist};
			} elsif (exists $v->{bin_width} && $v->{count}) {
				$n++; my $h = $v->{hist}; my $c = 0;
				$c += $_->[1] for @{$h->{buckets} || []};
				$c += ($h->{above} || {})->{count} || 0;
				push @bad, $path unless $h && $h->{sub_bucket_bits} == 7 && $c == $v->{count};
			}
			$walk->($v->{$_}, "$path.$_") for keys %$v;
		} elsif (ref $v eq "ARRAY") { $walk->($v->[$_], "$path.$_") for 0 .. $#$v; }
	};
	$walk->($r, ""); print "$n ", join(" ", @bad);' "$R")
like "$bad" '^[1-9][0-9]* $' "stat-1.2 every distribution with samples has its histogram, adding up to count, but threads' distributions, which have none ($bad)"

T=tasks.name=ctl100
# job 9 is released at T0 + 90 ms and is the worst activation (2013 us)
is "$(json_get "$R" $T.activation_latency_ns.max_at)/$(json_get "$R" $T.activation_latency_ns.max_id)" 1000090000000/9 \
	"stat-2.1 activation latency max: the release time and the job of the max"
# job 8 (released at T0 + 80 ms) is the 12 ms overrun
is "$(json_get "$R" $T.response_time_ns.max_at)/$(json_get "$R" $T.response_time_ns.max_id)" 1000080000000/8 \
	"stat-2.2 response time max: job 8's release and seq"
is "$(json_get "$R" $T.exec_time_ns.max_id)/$(json_get "$R" $T.cpu_time_ns.max_id)" 8/8 "stat-2.3 execution and job-log CPU time max: job 8"
# ctl100's worst wakeup: job 5, woken at r+6 us for CPU 0, switched in at r+1015 us
is "$(json_get "$R" threads.comm=ctl100.wakeup_latency_ns.max_at)/$(json_get "$R" threads.comm=ctl100.wakeup_latency_ns.max)" \
	1000051015000/1009000 "stat-2.4 wakeup latency max: the switch-in time of job 5"
# the eleven activation latencies of ctl100 (us), from the scenario
lat="12 12 12 152 12 1017 112 12 12 2013 12"
round() { perl -e 'printf "%.2f", $ARGV[0]' "$1"; }
is "$(round "$(json_get "$R" $T.activation_latency_ns.stddev)")" \
	"$(perl -e 'my @v = map { $_ * 1000 } @ARGV; my $m = 0; $m += $_ for @v; $m /= @v;
		my $s = 0; $s += ($_ - $m) ** 2 for @v; printf "%.2f", sqrt($s / (@v - 1));' $lat)" \
	"stat-3.1 stddev: the sample standard deviation (n - 1) of ctl100's eleven activation latencies"
is "$(round "$(json_get "$R" $T.activation_latency_ns.mean)")" \
	"$(perl -e 'my $m = 0; $m += $_ * 1000 for @ARGV; printf "%.2f", $m / @ARGV;' $lat)" \
	"stat-3.2 mean of ctl100's eleven activation latencies"
done_testing
