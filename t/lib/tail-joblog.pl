#!/usr/bin/perl
# tail-joblog.pl - a job log (docs/joblog.md) whose latencies have a known tail,
# the same bytes on every machine (its own generator, not perl's rand):
#   tail-joblog.pl KIND N SEED > jobs.csv
# task io, 100 Hz: activation latency 20 us + an exponential of mean 3 us
# (KIND exp), the same plus 2 us from half time (KIND shift); task ctl100 has
# N / 100 jobs, too few for a tail model. Response time: latency + 20 us.
use strict;
use warnings;

my ($kind, $n, $seed) = @ARGV;
die "usage: tail-joblog.pl exp|shift N SEED\n" unless defined $seed && $kind =~ /^(exp|shift)$/;
my $x = $seed;
# u - a uniform in (0, 1): the LCG of ISO C's example rand(), 31 bits
sub u { $x = (1103515245 * $x + 12345) % 2147483648; return ($x + 0.5) / 2147483648; }
print "# preflight-joblog/1\n# program=tail-joblog.pl\n# slot_ns=10000000\n";
print "# task.io=id=1 kind=tick period_ns=10000000 phase_ns=0 deadline_ns=10000000 event_period_ns=0 ",
	"policy=fifo prio=90 cpus=0 work_ns=0\n";
print "# task.ctl100=id=2 kind=periodic period_ns=10000000 phase_ns=0 deadline_ns=10000000 event_period_ns=0 ",
	"policy=fifo prio=80 cpus=0 work_ns=0\n";
print "task,seq,release_ns,start_ns,end_ns,cpu_ns,cpu,flags,missed\n";
for my $k (0 .. $n - 1) {
	my $rel = 1000000000 + 10000000 * $k;
	my $lat = 20000 + int(-3000 * log(u()));
	$lat += 2000 if $kind eq 'shift' && $k >= $n / 2;
	printf "io,%d,%d,%d,%d,20000,0,0,0\n", $k, $rel, $rel + $lat, $rel + $lat + 20000;
	printf "ctl100,%d,%d,%d,%d,5000,0,0,0\n", $k / 100, $rel + 1000000, $rel + 1030000, $rel + 1040000
		if $k % 100 == 0;
}
