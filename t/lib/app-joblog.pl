#!/usr/bin/perl
# app-joblog.pl - summarise a flightapp job log (docs/joblog.md) for the
# 02xx tests: prints key=value lines, one fact each, so a shell test can
# assert on them. Usage: app-joblog.pl JOBLOG [WORK_TOLERANCE=0.2]
#
#   meta.KEY=VALUE        every "# KEY=VALUE" header / trailer line
#   jobs.T                rows of task T
#   seq_bad.T             rows whose seq is not the previous one + 1 (from 0)
#   order_bad.T           rows with start < release or end < start
#   gap_bad.T             rows whose release is not the previous release + (missed + 1) * period
#   gap_min.T / gap_max.T smallest / largest release spacing (ns)
#   cpu_under.T           rows with cpu_ns below the configured work
#   cpu_over.T            rows with cpu_ns above work * (1 + tolerance)
#   cpu_mean_ok.T         1 when the mean cpu_ns is within work * (1 +- tolerance), else 0
#   cpu_min.T             smallest cpu_ns (ns)
#   overrun.T / missed.T / deadline.T   flagged rows / sum of missed / flagged rows
#   deadline_bad.T        rows whose deadline flag disagrees with end - release > deadline
#   overrun_bad.T         rows flagged overrun whose next row missed no release
#   miss_unflagged.T      rows that missed releases after a row not flagged overrun: the slots
#                         the tick skipped (late itself), at most the trailer's skipped_slots
#   nort_bad              rows whose 0x4 flag disagrees with the no_rt header
#   resp_max.T            largest end - release (ns)
#   span_min.T            smallest end - start (ns)
use strict;
use warnings;

my ($path, $tol) = @ARGV;
$tol = 0.2 unless defined $tol;
open my $f, '<', $path or die "$path: $!\n";
my (%meta, %cfg, %rows, @order, $header);
while (my $line = <$f>) {
	chomp $line;
	if ($line =~ /^# (\S+?)=(.*)$/) {
		$meta{$1} = $2;
		if ($1 =~ /^task\.(\w+)$/) {
			my $t = $1;
			$cfg{$t}{$1} = $2 while $meta{"task.$t"} =~ /(\w+)=(\S+)/g;
		}
		next;
	}
	next if $line =~ /^#/;
	if (!$header) { $header = $line; next; }
	my ($task, $seq, $rel, $start, $end, $cpu, $cpun, $flags, $missed) = split /,/, $line;
	push @order, $task unless $rows{$task};
	push @{$rows{$task}}, [$seq, $rel, $start, $end, $cpu, $cpun, $flags, $missed];
}
print "meta.$_=$meta{$_}\n" for sort keys %meta;
print "header=$header\n" if $header;
my $nort = $meta{no_rt} // 0;
my $nort_bad = 0;
for my $t (sort keys %rows) {
	my @r = sort { $a->[0] <=> $b->[0] } @{$rows{$t}};
	my $c = $cfg{$t} || {};
	my $period = $c->{kind} && $c->{kind} eq 'event' ? $c->{event_period_ns} : $c->{period_ns};
	my $work = $c->{work_ns} // 0;
	my $dl = $c->{deadline_ns} // 0;
	my %n = map { $_ => 0 } qw(seq_bad order_bad gap_bad cpu_under cpu_over overrun missed deadline deadline_bad overrun_bad
					  miss_unflagged);
	my ($gmin, $gmax, $resp_max, $span_min, $cpu_sum, $cpu_min) = (undef, undef, 0, undef, 0, undef);
	for my $i (0 .. $#r) {
		my ($seq, $rel, $start, $end, $cpu, $cpun, $flags, $missed) = @{$r[$i]};
		$n{seq_bad}++ if $seq != $i;
		$n{order_bad}++ if $start < $rel || $end < $start;
		$n{cpu_under}++ if $cpu < $work;
		$cpu_sum += $cpu;
		$cpu_min = $cpu if !defined $cpu_min || $cpu < $cpu_min;
		$n{cpu_over}++ if $cpu > $work * (1 + $tol) && $work > 0;
		$n{overrun}++ if $flags & 1;
		$n{deadline}++ if $flags & 2;
		$n{missed} += $missed;
		$n{deadline_bad}++ if $dl && (($flags & 2) ? 1 : 0) != (($end - $rel > $dl) ? 1 : 0);
		$nort_bad++ if (($flags & 4) ? 1 : 0) != $nort;
		$resp_max = $end - $rel if $end - $rel > $resp_max;
		$span_min = $end - $start if !defined $span_min || $end - $start < $span_min;
		next unless $i;
		my $gap = $rel - $r[$i - 1][1];
		$gmin = $gap if !defined $gmin || $gap < $gmin;
		$gmax = $gap if !defined $gmax || $gap > $gmax;
		$n{gap_bad}++ if $period && $gap != ($missed + 1) * $period;
		$n{overrun_bad}++ if ($r[$i - 1][6] & 1) && !$missed;
		$n{miss_unflagged}++ if !($r[$i - 1][6] & 1) && $missed;
	}
	print "jobs.$t=", scalar @r, "\n";
	my $mean = @r ? $cpu_sum / @r : 0;
	print "cpu_mean_ok.$t=", (abs($mean - $work) <= $work * $tol ? 1 : 0), "\n";
	print "cpu_min.$t=", $cpu_min // 0, "\n";
	print "$_.$t=$n{$_}\n" for sort keys %n;
	print "gap_min.$t=", $gmin // 0, "\ngap_max.$t=", $gmax // 0, "\nresp_max.$t=$resp_max\nspan_min.$t=", $span_min // 0, "\n";
}
print "nort_bad=$nort_bad\n";
