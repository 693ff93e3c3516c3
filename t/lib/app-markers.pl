#!/usr/bin/perl
# app-markers.pl - check flightapp's markers (docs/markers.md) in a tracefs
# instance's 'trace' text against the job log: every job has its start and
# end marker with the right task, sequence, release and flags, written by the
# declared thread, the start no earlier than the release (trace_clock mono).
# Usage: app-markers.pl TRACE JOBLOG; prints key=value lines.
use strict;
use warnings;

my ($trace, $joblog) = @ARGV;
my (%name, %tid, %mk);
my ($decl, $bad_tid, $early, $other) = (0, 0, 0, 0);
open my $t, '<', $trace or die "$trace: $!\n";
while (<$t>) {
	next if /^#/;
	my ($pid, $ts) = /-(\d+)\s+\[\d+\]\s+\S+\s+([\d.]+):/ or next;
	my ($kind, $id, $seq, $rel, $flags);
	if (/tracing_mark_write: pf1 T (\d+) (\w+) tid=(\d+)/) {
		($name{$1}, $tid{$1}) = ($2, $3);
		$decl++;
		next;
	} elsif (/tracing_mark_write: pf1 ([SE]) (\d+) (\d+) (\d+)(?: (\d+))?$/) {
		($kind, $id, $seq, $rel, $flags) = ($1, $2, $3, $4, $5 // 0);
	} elsif (/# 50464d31 buf: ((?:[0-9a-f]{2} ?){20})/) {
		my @b = map { hex } split ' ', $1;
		$kind = chr $b[0];
		$id = $b[1];
		$flags = $b[2] | $b[3] << 8;
		$seq = $b[4] | $b[5] << 8 | $b[6] << 16 | $b[7] << 24;
		$rel = 0;
		$rel = $rel * 256 + $b[$_] for reverse 12 .. 19;
	} else {
		$other++;
		next;
	}
	$bad_tid++ if defined $tid{$id} && $tid{$id} != $pid;
	# the marker's time stamp has microseconds: a start is never before its release
	$early++ if $kind eq 'S' && $ts * 1e6 < int($rel / 1000) - 1;
	$mk{"$kind $id $seq"} = [$rel, $flags];
}
my %id = reverse %name;
my ($rows, $nostart, $noend, $badrel, $badflags) = (0, 0, 0, 0, 0);
open my $j, '<', $joblog or die "$joblog: $!\n";
while (<$j>) {
	next if /^#/ || /^task,/;
	chomp;
	my ($task, $seq, $rel, undef, undef, undef, undef, $flags) = split /,/;
	$rows++;
	my $i = $id{$task} // -1;
	my ($s, $e) = (delete $mk{"S $i $seq"}, delete $mk{"E $i $seq"});
	$nostart++ unless $s;
	$noend++ unless $e;
	$badrel++ if ($s && $s->[0] != $rel) || ($e && $e->[0] != $rel);
	$badflags++ if $e && $e->[1] != $flags;
}
print "declared=$decl\nrows=$rows\nno_start=$nostart\nno_end=$noend\nbad_release=$badrel\n",
	"bad_flags=$badflags\nbad_tid=$bad_tid\nstart_before_release=$early\nunmatched=", scalar keys %mk, "\n";
